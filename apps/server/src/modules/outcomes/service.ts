import { OUTCOME_LABELS, type OutcomeStatus, outcomeTransition } from '@lm/shared/outcomes';
import type { LenderOutcomeBody } from '@lm/shared/schemas/outcomes';
import { appError } from '../../lib/errors.ts';
import type { StepEvent } from '../conversions/reports-service.ts';
import type { OutcomeRepository } from './repository.ts';

export interface OutcomeAnswer {
  leadId: string;
  transactionId: string;
  outcome: OutcomeStatus;
  repeated: boolean;
}

/**
 * What lenders report about their leads (issue 47.4): one row per lender × transaction id (a repeat is answered
 * as the first time), the lead's outcome moved by `outcomeTransition` (late and repeated calls recorded without
 * moving it; impossible ones refused), and an approval or a funded loan reported to the ad platform of the
 * person's click (issue 47.5) through `report`.
 */
export class OutcomeService {
  constructor(
    private readonly d: {
      repo: OutcomeRepository;
      /** Reports a step of the lead's person (the conversion reports); its failure never refuses the outcome. */
      report: (event: StepEvent) => Promise<void>;
    },
  ) {}

  async record(partnerId: number, body: LenderOutcomeBody, now = new Date()): Promise<OutcomeAnswer> {
    const done = await this.d.repo.transaction(async (tx) => {
      const lead = await tx.leadOf(partnerId, body.leadId);
      if (!lead) throw appError('NOT_FOUND', '线索不存在（或不是该机构的线索）');
      const before = await tx.byTransaction(partnerId, body.transactionId);
      if (before)
        return {
          lead,
          outcome: (lead.outcome ?? before.status) as OutcomeStatus,
          repeated: true,
          applied: false,
        };
      const verdict = outcomeTransition(lead.outcome, body.status);
      if (verdict === 'refuse')
        throw appError(
          'OUTCOME_NOT_ALLOWED',
          `线索已是「${OUTCOME_LABELS[lead.outcome ?? 'pending']}」（${lead.outcome}），不能再报告 ${body.status}`,
        );
      const row = await tx.insertOnce({
        leadId: lead.id,
        partnerId,
        transactionId: body.transactionId,
        status: body.status,
        limitFen: body.limitFen ?? null,
        rateBps: body.rateBps ?? null,
        reason: body.reason ?? null,
        amountFen: body.amountFen ?? null,
        termMonths: body.termMonths ?? null,
        applied: verdict === 'apply',
        occurredAt: body.occurredAt ? new Date(body.occurredAt) : now,
        receivedAt: now,
      });
      // Two calls with one transaction id at once: the other one recorded it.
      if (!row)
        return {
          lead,
          outcome: (lead.outcome ?? body.status) as OutcomeStatus,
          repeated: true,
          applied: false,
        };
      if (verdict === 'apply') await tx.setOutcome(lead.id, body.status, now);
      const outcome = verdict === 'apply' ? body.status : (lead.outcome as OutcomeStatus);
      return { lead, outcome, repeated: false, applied: verdict === 'apply' };
    });
    // A duplicate is an invalid lead: where the platform takes it, a negative signal corrects its 表单提交.
    if (done.applied && body.status === 'duplicate')
      await this.d.report({
        userId: done.lead.userId,
        step: 'invalid',
        reference: `${partnerId}:${body.transactionId}`,
        now,
      });
    if (done.applied && (body.status === 'approved' || body.status === 'funded')) {
      await this.d.report({
        userId: done.lead.userId,
        step: body.status === 'approved' ? 'credit' : 'loan',
        amountFen: body.status === 'approved' ? (body.limitFen ?? null) : (body.amountFen ?? null),
        reference: `${partnerId}:${body.transactionId}`,
        now,
      });
    }
    return {
      leadId: body.leadId,
      transactionId: body.transactionId,
      outcome: done.outcome,
      repeated: done.repeated,
    };
  }
}
