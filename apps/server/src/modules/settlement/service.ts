import { randomUUID } from 'node:crypto';
import { PARTY_TYPE_LABELS, type PartyType } from '@lm/shared/ledger';
import { shanghaiMonthOf } from '@lm/shared/money';
import type {
  AdjustmentBody,
  BookedEntryData,
  MonthCloseData,
  Party,
  PayoutBody,
  Statement,
  StatementDetailData,
  StatementEntry,
  StatementsData,
} from '@lm/shared/schemas/settlement';
import type { Actor } from '../../lib/actor.ts';
import { appError } from '../../lib/errors.ts';
import { LedgerService } from '../ledger/service.ts';
import type { SettlementRepository } from './repository.ts';
import {
  adjustmentMonthRefusal,
  closeRefusal,
  isLate,
  kindLabel,
  partyKey,
  statementsCsv,
  statementsOf,
  withoutAmounts,
} from './rules.ts';

export interface SettlementDeps {
  repo: SettlementRepository;
  /** Our company as a printed statement names its issuer (the configured operator). */
  issuerName: string;
  /** The clock (tests move it). */
  now?: () => Date;
}

/** Who reads: the staff member, and for a channel partner the channel codes it may see. */
export interface Reader {
  actor: Actor;
  channelCodes: readonly string[];
}

const role = (r: Reader) => r.actor.staff?.role;
/** Every reader sees amounts but a viewer (issue 48.7). */
const showsAmounts = (r: Reader) => role(r) !== undefined && role(r) !== 'viewer';
/** A channel partner is held to its own channels and never sees a lender. */
const isChannelPartner = (r: Reader) => role(r) === 'channel_partner';

/**
 * Monthly statements, the month close, adjustments and payouts (issue 48.5 and 48.3, ADR 073). A statement is
 * read from the month's ledger entries (amounts) plus the channels' traffic (clicks, registrations); a closed
 * month's entries never change, because nothing is booked into a closed month. Closing, adjusting and paying
 * are the admin's and audited in the transaction that books them.
 */
export class SettlementService {
  private readonly now: () => Date;

  constructor(private readonly d: SettlementDeps) {
    this.now = d.now ?? (() => new Date());
  }

  private currentMonth(): string {
    return shanghaiMonthOf(this.now());
  }

  private async head(reader: Reader, month: string) {
    const close = await this.d.repo.monthClose(month);
    const currentMonth = this.currentMonth();
    return {
      month,
      status: close ? ('closed' as const) : ('open' as const),
      ...(close ? { closedAt: close.closedAt.toISOString(), closedByName: close.closedByName } : {}),
      currentMonth,
      closable: !close && month < currentMonth,
      amountsShown: showsAmounts(reader),
    };
  }

  private async allStatements(reader: Reader, month: string, status: Statement['status']) {
    const partner = isChannelPartner(reader);
    const codes = partner ? reader.channelCodes : null;
    const [entries, parties, traffic] = await Promise.all([
      this.d.repo.entriesOfMonth(month),
      this.d.repo.parties(),
      this.d.repo.traffic(month, codes),
    ]);
    // Channels with traffic in the month are listed even before any cost is booked on them.
    const byCode = new Map<string, string>();
    for (const [key, p] of parties) if (p.type === 'channel') byCode.set(p.code, key);
    const alsoListed = [...traffic.keys()].flatMap((code) => {
      const key = byCode.get(code);
      return key ? [key] : [];
    });
    const list = statementsOf({ entries, parties, alsoListed, traffic, status });
    const visible = partner
      ? list.filter((s) => s.party.type === 'channel' && reader.channelCodes.includes(s.party.code))
      : list;
    return showsAmounts(reader) ? visible : visible.map(withoutAmounts);
  }

  /** Every statement of `month` the reader may see. */
  async statements(reader: Reader, month: string): Promise<StatementsData> {
    const head = await this.head(reader, month);
    return { ...head, statements: await this.allStatements(reader, month, head.status) };
  }

  /** The month's statements as CSV (a viewer's without amounts; a channel partner's with its channels only). */
  async csv(reader: Reader, month: string): Promise<string> {
    const head = await this.head(reader, month);
    return statementsCsv(await this.allStatements(reader, month, head.status), head.amountsShown);
  }

  /** A lender or channel by code, as the reader may see it (404 / 403 in words otherwise). */
  private async party(reader: Reader, type: PartyType, code: string): Promise<Party> {
    if (isChannelPartner(reader)) {
      if (type === 'lender') throw appError('FORBIDDEN', '渠道合作方账号不能查看机构的对账单');
      if (!reader.channelCodes.includes(code))
        throw appError('FORBIDDEN', `渠道 ${code} 不属于您的账号，不能查看其对账单`);
    }
    const party = await this.d.repo.partyByCode(type, code);
    if (!party) throw appError('NOT_FOUND', `${PARTY_TYPE_LABELS[type]} ${code} 不存在`);
    return party;
  }

  /** One party's statement of `month` with its entries, oldest first. */
  async statement(
    reader: Reader,
    type: PartyType,
    code: string,
    month: string,
  ): Promise<StatementDetailData> {
    const party = await this.party(reader, type, code);
    const head = await this.head(reader, month);
    const [entries, details, traffic, volumes] = await Promise.all([
      this.d.repo.entriesOfMonth(month, party),
      this.d.repo.entryDetails(month, type, party.id),
      type === 'channel' ? this.d.repo.traffic(month, [code]) : Promise.resolve(new Map()),
      type === 'channel' ? this.d.repo.lenderEntriesOfChannels(month, [code]) : Promise.resolve([]),
    ]);
    const key = partyKey(type, party.id);
    const [statement] = statementsOf({
      entries: [...entries, ...volumes],
      parties: new Map([[key, party]]),
      alsoListed: [key],
      traffic,
      status: head.status,
    }).filter((s) => s.party.type === type && s.party.id === party.id);
    const shown = head.amountsShown;
    const list: StatementEntry[] = details.map((e) => ({
      id: e.id,
      kind: e.kind,
      kindLabel: kindLabel(e.kind),
      model: e.model,
      eventAt: e.eventAt.toISOString(),
      eventMonth: e.eventMonth,
      ...(shown ? { amountFen: e.amountFen, basisFen: e.basisFen } : {}),
      reference: e.reference,
      leadId: e.leadId,
      leadKey: e.leadKey,
      productName: e.productName,
      reason: e.reason,
      staffName: e.staffName,
      late: isLate(e),
      createdAt: e.createdAt.toISOString(),
    }));
    return {
      ...head,
      issuerName: this.d.issuerName,
      statement: shown ? (statement as Statement) : withoutAmounts(statement as Statement),
      entries: list,
    };
  }

  /**
   * Closes a Shanghai month that has ended (admin): waits for the postings in flight in it, records the close
   * and its audit entry in one transaction; later events of the month are booked in the next open month.
   */
  async close(actor: Actor, month: string): Promise<MonthCloseData> {
    const refusal = closeRefusal(month, this.currentMonth());
    if (refusal) throw appError('VALIDATION_FAILED', refusal);
    const closed = await this.d.repo.transaction((tx) =>
      // The ledger's own close (exclusive month lock, month_closes row) inside this transaction, so the audit
      // record commits with it.
      new LedgerService(tx.ledger()).close(month, actor.staff?.id ?? null, () =>
        tx.recordAudit(actor, {
          action: 'close',
          entity: 'month_close',
          entityId: month,
          before: null,
          after: { month },
        }),
      ),
    );
    if (!closed) throw appError('MONTH_CLOSED', `${month} 已经关账，不能重复关账`);
    const close = await this.d.repo.monthClose(month);
    return {
      month,
      status: 'closed',
      closedAt: (close?.closedAt ?? this.now()).toISOString(),
      closedByName: close?.closedByName ?? null,
    };
  }

  /** A lender or channel for a write (admin): 404 in words when there is none. */
  private async target(type: PartyType, code: string): Promise<Party> {
    const party = await this.d.repo.partyByCode(type, code);
    if (!party) throw appError('NOT_FOUND', `${PARTY_TYPE_LABELS[type]} ${code} 不存在`);
    return party;
  }

  /**
   * A manual adjustment (admin): a signed entry with its reason and the staff member, booked in `month`
   * (default the current one), which must have started and still be open. Audited in the same transaction.
   */
  async adjust(actor: Actor, body: AdjustmentBody): Promise<BookedEntryData> {
    const party = await this.target(body.partyType, body.partyCode);
    const current = this.currentMonth();
    const month = body.month ?? current;
    const early = adjustmentMonthRefusal(month, current, false);
    if (early) throw appError('VALIDATION_FAILED', early);
    const reference = `adjustment:${randomUUID()}`;
    return this.d.repo.transaction(async (tx) => {
      const ledger = tx.ledger();
      // Under the month's posting lock: a close cannot slip in between this check and the booking.
      await ledger.lockMonthShared(month);
      const refusal = adjustmentMonthRefusal(month, current, await ledger.isClosed(month));
      if (refusal) throw appError('MONTH_CLOSED', refusal);
      const [row] = await ledger.book([
        {
          kind: 'adjustment',
          partyType: party.type,
          partyId: party.id,
          partyCode: party.code,
          eventAt: this.now(),
          eventMonth: month,
          amountFen: body.amountFen,
          reference,
          reason: body.reason,
          staffId: actor.staff?.id ?? null,
        },
      ]);
      if (!row) throw new Error('adjustment not booked');
      await tx.recordAudit(actor, {
        action: 'create',
        entity: 'ledger_adjustment',
        entityId: row.id,
        before: null,
        after: {
          partyType: party.type,
          partyCode: party.code,
          partyName: party.name,
          month: row.month,
          amountFen: row.amountFen,
          reason: body.reason,
        },
      });
      return {
        id: row.id,
        kind: row.kind,
        party,
        month: row.month,
        amountFen: row.amountFen,
        reference: row.reference,
      };
    });
  }

  /**
   * A payout (admin): money that changed hands — a lender's payment to us, ours to a channel — booked now as
   * −amount on the party's account (in the current month, or the next open one). Audited with it.
   */
  async payout(actor: Actor, body: PayoutBody): Promise<BookedEntryData> {
    const party = await this.target(body.partyType, body.partyCode);
    const now = this.now();
    const reference = `payout:${randomUUID()}`;
    return this.d.repo.transaction(async (tx) => {
      const [row] = await tx.ledger().book([
        {
          kind: 'payout',
          partyType: party.type,
          partyId: party.id,
          partyCode: party.code,
          eventAt: now,
          eventMonth: shanghaiMonthOf(now),
          amountFen: -body.amountFen,
          reference,
          reason: body.note,
          staffId: actor.staff?.id ?? null,
        },
      ]);
      if (!row) throw new Error('payout not booked');
      await tx.recordAudit(actor, {
        action: 'create',
        entity: 'ledger_payout',
        entityId: row.id,
        before: null,
        after: {
          partyType: party.type,
          partyCode: party.code,
          partyName: party.name,
          month: row.month,
          amountFen: body.amountFen,
          note: body.note,
        },
      });
      return {
        id: row.id,
        kind: row.kind,
        party,
        month: row.month,
        amountFen: row.amountFen,
        reference: row.reference,
      };
    });
  }
}
