import { NEGATIVE_STEP } from '@lm/shared/conversions';
import { RETURN_REASON_LABELS, RETURN_STATUS_LABELS } from '@lm/shared/ledger';
import { shanghaiMonthOf } from '@lm/shared/money';
import type {
  AdminReturnItem,
  AdminReturnList,
  AdminReturnsQuery,
  LenderReturnBody,
  LenderReturnData,
} from '@lm/shared/schemas/returns';
import type { Actor } from '../../lib/actor.ts';
import { appError } from '../../lib/errors.ts';
import type { StepEvent } from '../conversions/reports-service.ts';
import type { LeadReturnRow, ReturnLead, ReturnRepository } from './repository.ts';
import {
  disputeReasonOf,
  monthRange,
  NEGATIVE_SIGNAL_REASONS,
  returnRefusal,
  reversalEntries,
  reversedFenOf,
  statusOf,
} from './rules.ts';

export interface ReturnServiceDeps {
  repo: ReturnRepository;
  /** Books the lead events the ledger has not booked yet (the ledger poster's sweep, `runOnce`). */
  post: () => Promise<unknown>;
  /** Reports a step of the lead's person (the negative signal); its failure never refuses the return. */
  report: (event: StepEvent) => Promise<void>;
  /** The clock (tests move it). */
  now?: () => Date;
}

type ListRow = Awaited<ReturnType<ReturnRepository['list']>>['rows'][number];

/** Who sees amounts: everyone reading returns but a viewer (issue 48.7). */
const showsAmounts = (actor: Actor) => actor.staff !== null && actor.staff.role !== 'viewer';

/**
 * Lead returns (issue 48.4, docs/money.md): a lender returns a delivered lead through its signed API within its
 * return window, once, up to its monthly return rate. One at a time per lender (an advisory lock), so two
 * returns of a lead never both win and concurrent returns never pass the rate. An accepted return reverses what
 * the lead earned in the ledger in the same transaction and, for an invalid lead, sends the ad platform its
 * negative signal; a doubtful one (`other`, or a lead the lender reported approved or funded) waits for staff,
 * who accept or reject it (audited).
 */
export class ReturnService {
  private readonly now: () => Date;

  constructor(private readonly d: ReturnServiceDeps) {
    this.now = d.now ?? (() => new Date());
  }

  /** Makes sure the lead's delivery is booked before it is reversed (the sweep runs every few seconds). */
  private async bookDelivery(lead: ReturnLead): Promise<void> {
    if (lead.deliveredAt && !(await this.d.repo.deliveryBooked(lead.id))) await this.d.post();
  }

  /** Books the reversal of everything the lead earned so far; answers the amount taken off the lender. */
  private async reverse(tx: ReturnRepository, row: LeadReturnRow, lead: ReturnLead, at: Date) {
    const ledger = tx.ledger();
    const booked = await ledger.entriesOfLead(lead.id);
    const entries = reversalEntries({
      returnId: row.id,
      reason: row.reason,
      at,
      lead: {
        id: lead.id,
        productId: lead.productId,
        partnerId: lead.partnerId,
        partnerCode: lead.partnerCode,
        channelCode: lead.channelCode,
      },
      booked: booked.map((e) => ({ ...e, amountFen: Number(e.amountFen) })),
    });
    await ledger.book(entries);
    return reversedFenOf(entries[0]!.amountFen);
  }

  private async signal(userId: number, row: LeadReturnRow, now: Date): Promise<void> {
    if (row.status !== 'accepted' || !NEGATIVE_SIGNAL_REASONS.includes(row.reason)) return;
    await this.d.report({ userId, step: NEGATIVE_STEP, reference: `return:${row.id}`, now });
  }

  private answer(row: LeadReturnRow, leadKey: string, reversedFen: number | null, repeated: boolean) {
    return {
      returnId: row.id,
      leadId: leadKey,
      transactionId: row.transactionId,
      reason: row.reason,
      status: row.status,
      disputeReason: row.disputeReason,
      reversedFen: row.status === 'accepted' ? reversedFen : null,
      repeated,
    } satisfies LenderReturnData;
  }

  /** `POST /api/partner/returns`: the lender `partnerId` returns one of its leads. */
  async request(partnerId: number, body: LenderReturnBody): Promise<LenderReturnData> {
    const now = this.now();
    const found = await this.d.repo.leadOf(partnerId, body.leadId);
    if (!found) throw appError('NOT_FOUND', '线索不存在（或不是该机构的线索）');
    await this.bookDelivery(found);
    // The rate is of the month the lead was delivered in: of a month's leads, at most so many come back.
    const month = monthRange(shanghaiMonthOf(found.deliveredAt ?? now));
    const done = await this.d.repo.transaction(async (tx) => {
      await tx.lockPartner(partnerId);
      const repeat = await tx.byTransaction(partnerId, body.transactionId);
      if (repeat) {
        const key =
          repeat.leadId === found.id ? body.leadId : ((await tx.leadById(repeat.leadId))?.key ?? body.leadId);
        return {
          answer: this.answer(repeat, key, reversedFenOf(await tx.returnEntryAmount(repeat.id)), true),
          row: null,
          userId: 0,
        };
      }
      const lead = (await tx.leadById(found.id)) ?? found;
      const existing = await tx.byLead(lead.id);
      const refusal = returnRefusal({
        now,
        deliveredAt: lead.deliveredAt,
        windowDays: lead.returnWindowDays,
        maxRateBps: lead.maxReturnRateBps,
        existing,
        deliveredInMonth: await tx.deliveredBetween(partnerId, month.from, month.to),
        returnedInMonth: await tx.returnedBetween(partnerId, month.from, month.to),
      });
      if (refusal)
        throw appError('RETURN_NOT_ALLOWED', refusal.msg, { reason: refusal.reason, ...refusal.data });
      const disputeReason = disputeReasonOf(body.reason, lead.outcome);
      const row = await tx.insertOnce({
        leadId: lead.id,
        partnerId,
        transactionId: body.transactionId,
        reason: body.reason,
        reasonText: body.reasonText || null,
        status: statusOf(disputeReason),
        disputeReason,
        requestedAt: now,
      });
      // Held off by the lock; a unique index answers if anything slips past it.
      if (!row)
        throw appError('RETURN_NOT_ALLOWED', '该线索已退回过，同一线索只能退回一次', {
          reason: 'already_returned',
        });
      const reversedFen = row.status === 'accepted' ? await this.reverse(tx, row, lead, now) : null;
      return { answer: this.answer(row, body.leadId, reversedFen, false), row, userId: lead.userId };
    });
    if (done.row) await this.signal(done.userId, done.row, now);
    return done.answer;
  }

  private item(r: ListRow, shown: boolean): AdminReturnItem {
    const row = r.r;
    return {
      id: row.id,
      leadId: row.leadId,
      leadKey: r.leadKey ?? '—',
      partnerId: row.partnerId,
      partnerName: r.partnerName,
      productId: r.productId ?? 0,
      productName: r.productName ?? '—',
      transactionId: row.transactionId,
      reason: row.reason,
      reasonLabel: RETURN_REASON_LABELS[row.reason],
      reasonText: row.reasonText,
      status: row.status,
      statusLabel: RETURN_STATUS_LABELS[row.status],
      disputeReason: row.disputeReason,
      requestedAt: row.requestedAt.toISOString(),
      deliveredAt: r.deliveredAt ? r.deliveredAt.toISOString() : null,
      reviewedAt: row.reviewedAt ? row.reviewedAt.toISOString() : null,
      reviewedByName: r.reviewedByName,
      reviewNote: row.reviewNote,
      ...(shown ? { reversedFen: reversedFenOf(r.returnFen === null ? null : Number(r.returnFen)) } : {}),
    };
  }

  /** The console's list of returns (a viewer without amounts). */
  async list(actor: Actor, q: AdminReturnsQuery): Promise<AdminReturnList> {
    const shown = showsAmounts(actor);
    const { total, rows } = await this.d.repo.list({ status: q.status, partnerId: q.partnerId }, q);
    return {
      total,
      page: q.page,
      pageSize: q.pageSize,
      list: rows.map((r) => this.item(r, shown)),
      amountsShown: shown,
    };
  }

  private async one(actor: Actor, id: number): Promise<AdminReturnItem> {
    const { rows } = await this.d.repo.list({ id }, { page: 1, pageSize: 1 });
    if (!rows[0]) throw appError('NOT_FOUND', '退回记录不存在');
    return this.item(rows[0], showsAmounts(actor));
  }

  /** Staff accept or reject a disputed return (audited); accepting reverses the lead in the ledger. */
  async review(
    actor: Actor,
    id: number,
    decision: 'accepted' | 'rejected',
    note: string,
  ): Promise<AdminReturnItem> {
    const now = this.now();
    const before = await this.d.repo.lockedById(id);
    if (!before) throw appError('NOT_FOUND', '退回记录不存在');
    const refuse = (row: LeadReturnRow) =>
      appError(
        'RETURN_NOT_ALLOWED',
        `该退回已是「${RETURN_STATUS_LABELS[row.status]}」，只有待审核的退回可以接受或驳回`,
        { reason: 'not_disputed', status: row.status },
      );
    if (before.status !== 'disputed') throw refuse(before);
    const lead = await this.d.repo.leadById(before.leadId);
    if (decision === 'accepted' && lead) await this.bookDelivery(lead);
    const done = await this.d.repo.transaction(async (tx) => {
      await tx.lockPartner(before.partnerId);
      const row = await tx.review(id, {
        status: decision,
        reviewedBy: actor.staff?.id ?? null,
        reviewedAt: now,
        reviewNote: note,
      });
      if (!row) throw refuse((await tx.lockedById(id)) ?? before);
      const reversedFen = decision === 'accepted' && lead ? await this.reverse(tx, row, lead, now) : null;
      await tx.recordAudit(actor, {
        action: decision === 'accepted' ? 'accept' : 'reject',
        entity: 'lead_return',
        entityId: id,
        before: { status: before.status, disputeReason: before.disputeReason },
        after: {
          status: row.status,
          leadId: row.leadId,
          reason: row.reason,
          reviewNote: note,
          ...(reversedFen !== null ? { reversedFen } : {}),
        },
        reason: note,
      });
      return row;
    });
    if (lead) await this.signal(lead.userId, done, now);
    return this.one(actor, id);
  }
}
