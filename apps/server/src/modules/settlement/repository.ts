import type { PartyType } from '@lm/shared/ledger';
import type { Party } from '@lm/shared/schemas/settlement';
import { shanghaiDayStart } from '@lm/shared/time';
import { and, asc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  channelClicks,
  channels,
  leads,
  ledgerEntries,
  monthCloses,
  partners,
  products,
  staff,
  users,
} from '../../db/schema.ts';
import type { Actor } from '../../lib/actor.ts';
import { type AuditInput, recordAudit } from '../audit/service.ts';
import { LedgerRepository } from '../ledger/repository.ts';
import { nextMonth } from '../ledger/rules.ts';
import { type EntryFacts, partyKey } from './rules.ts';

/** The first day of a month and of the month after it (`YYYY-MM-DD`). */
function monthDays(month: string): { first: string; next: string } {
  return { first: `${month}-01`, next: `${nextMonth(month)}-01` };
}

/** One entry of a statement with what it names (the lead's key, the product, the staff member). */
export interface EntryDetailRow extends EntryFacts {
  id: number;
  reference: string;
  basisFen: number | null;
  leadId: number | null;
  leadKey: string | null;
  productName: string | null;
  reason: string | null;
  staffName: string | null;
  createdAt: Date;
}

/** What the statements read of an entry. */
const ENTRY_FACTS = {
  kind: ledgerEntries.kind,
  partyType: ledgerEntries.partyType,
  partyId: ledgerEntries.partyId,
  partyCode: ledgerEntries.partyCode,
  amountFen: ledgerEntries.amountFen,
  model: ledgerEntries.model,
  channelCode: ledgerEntries.channelCode,
  eventAt: ledgerEntries.eventAt,
  eventMonth: ledgerEntries.eventMonth,
  month: ledgerEntries.month,
};

/**
 * Reads for the monthly statements (issue 48.5, ADR 073): a month's ledger entries, the parties they name,
 * the channels' traffic of the month, closes; and the transaction that books an adjustment or payout or closes
 * a month together with its audit record.
 */
export class SettlementRepository {
  constructor(private readonly db: Db) {}

  /** Runs `fn` in one transaction, with this repository bound to it. */
  transaction<T>(fn: (tx: SettlementRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new SettlementRepository(tx as unknown as Db)));
  }

  /** The ledger on this repository's handle (inside `transaction`: the same transaction). */
  ledger(): LedgerRepository {
    return new LedgerRepository(this.db);
  }

  recordAudit(actor: Actor, input: AuditInput): Promise<void> {
    return recordAudit(this.db, actor, input);
  }

  /** The close of a month with who closed it; null while it is open. */
  async monthClose(month: string): Promise<{ closedAt: Date; closedByName: string | null } | null> {
    const [row] = await this.db
      .select({ closedAt: monthCloses.closedAt, closedByName: staff.name })
      .from(monthCloses)
      .leftJoin(staff, eq(staff.id, monthCloses.closedBy))
      .where(eq(monthCloses.month, month));
    return row ?? null;
  }

  /** Every entry booked in `month` (of one party when given). */
  async entriesOfMonth(month: string, party?: { type: PartyType; id: number }): Promise<EntryFacts[]> {
    return this.db
      .select(ENTRY_FACTS)
      .from(ledgerEntries)
      .where(
        and(
          eq(ledgerEntries.month, month),
          party
            ? and(eq(ledgerEntries.partyType, party.type), eq(ledgerEntries.partyId, party.id))
            : undefined,
        ),
      );
  }

  /** The lender entries of `month` whose lead came from one of these channels (a channel's counts). */
  async lenderEntriesOfChannels(month: string, codes: readonly string[]): Promise<EntryFacts[]> {
    if (codes.length === 0) return [];
    return this.db
      .select(ENTRY_FACTS)
      .from(ledgerEntries)
      .where(
        and(
          eq(ledgerEntries.month, month),
          eq(ledgerEntries.partyType, 'lender'),
          inArray(ledgerEntries.channelCode, [...codes]),
        ),
      );
  }

  /** A statement's entries with the lead's key, the product and the staff member, oldest first. */
  async entryDetails(month: string, type: PartyType, id: number): Promise<EntryDetailRow[]> {
    const rows = await this.db
      .select({
        e: ledgerEntries,
        leadKey: leads.idempotencyKey,
        productName: products.productName,
        staffName: staff.name,
      })
      .from(ledgerEntries)
      .leftJoin(leads, eq(leads.id, ledgerEntries.leadId))
      .leftJoin(products, eq(products.id, ledgerEntries.productId))
      .leftJoin(staff, eq(staff.id, ledgerEntries.staffId))
      .where(
        and(eq(ledgerEntries.month, month), eq(ledgerEntries.partyType, type), eq(ledgerEntries.partyId, id)),
      )
      .orderBy(asc(ledgerEntries.eventAt), asc(ledgerEntries.id));
    return rows.map(({ e, leadKey, productName, staffName }) => ({
      ...e,
      leadKey,
      productName,
      staffName,
    }));
  }

  /** Every lender and channel, by `partyKey`, named as a statement names them. */
  async parties(): Promise<Map<string, Party>> {
    const [lenders, chans] = await Promise.all([
      this.db.select({ id: partners.id, code: partners.code, name: partners.legalName }).from(partners),
      this.db.select({ id: channels.id, code: channels.adChannelCode, name: channels.name }).from(channels),
    ]);
    const out = new Map<string, Party>();
    for (const l of lenders) out.set(partyKey('lender', l.id), { type: 'lender', ...l });
    for (const c of chans) out.set(partyKey('channel', c.id), { type: 'channel', ...c });
    return out;
  }

  /** A lender (by its code) or a channel (by its ad channel code); null when there is none. */
  async partyByCode(type: PartyType, code: string): Promise<Party | null> {
    if (type === 'lender') {
      const [row] = await this.db
        .select({ id: partners.id, code: partners.code, name: partners.legalName })
        .from(partners)
        .where(eq(partners.code, code));
      return row ? { type, ...row } : null;
    }
    const [row] = await this.db
      .select({ id: channels.id, code: channels.adChannelCode, name: channels.name })
      .from(channels)
      .where(eq(channels.adChannelCode, code));
    return row ? { type, ...row } : null;
  }

  /**
   * Per channel code, the month's traffic in Shanghai time: counted clicks (`channel_clicks` of its days, not
   * flagged) and new registrations (people created in the month with the channel as their ad channel).
   * `codes` null: every channel.
   */
  async traffic(
    month: string,
    codes: readonly string[] | null,
  ): Promise<Map<string, { clicks: number; registrations: number }>> {
    const out = new Map<string, { clicks: number; registrations: number }>();
    if (codes !== null && codes.length === 0) return out;
    const { first, next } = monthDays(month);
    const clickRows = await this.db
      .select({ code: channelClicks.adChannelCode, n: sql<number>`count(*)::int` })
      .from(channelClicks)
      .where(
        and(
          gte(channelClicks.day, first),
          lt(channelClicks.day, next),
          eq(channelClicks.flagged, false),
          codes ? inArray(channelClicks.adChannelCode, [...codes]) : undefined,
        ),
      )
      .groupBy(channelClicks.adChannelCode);
    const regRows = await this.db
      .select({ code: users.adChannelCode, n: sql<number>`count(*)::int` })
      .from(users)
      .where(
        and(
          gte(users.createdAt, shanghaiDayStart(first)),
          lt(users.createdAt, shanghaiDayStart(next)),
          codes ? inArray(users.adChannelCode, [...codes]) : sql`${users.adChannelCode} is not null`,
        ),
      )
      .groupBy(users.adChannelCode);
    const at = (code: string) => {
      let t = out.get(code);
      if (!t) {
        t = { clicks: 0, registrations: 0 };
        out.set(code, t);
      }
      return t;
    };
    for (const r of clickRows) at(r.code).clicks = Number(r.n);
    for (const r of regRows) if (r.code) at(r.code).registrations = Number(r.n);
    return out;
  }
}
