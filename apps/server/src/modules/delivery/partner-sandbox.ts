import type { OutcomeStatus } from '@lm/shared/outcomes';
import { appError } from '../../lib/errors.ts';
import { phoneHash } from '../../lib/phone-hash.ts';
import type { SandboxRepository } from './sandbox-repository.ts';

export interface SandboxLeadSummary {
  leadId: string;
  idempotencyKey: string;
  receivedAt: string;
  fieldNames: string[];
  autoForm: boolean;
}

export type SandboxAnswer = { id: string; duplicate: boolean } | { received: true } | { deleted: true };

/**
 * The local lender of development (PARTNER_SANDBOX): takes signed leads and notices the way a real lender's
 * API would (de-duplicating on the idempotency key), answers duplicate pre-checks from what it received.
 */
export class PartnerSandbox {
  constructor(private readonly d: { repo: SandboxRepository }) {}

  /** A signed lead or notice for lender `code` (already verified), `key` its Idempotency-Key header. */
  async receive(
    code: string,
    secret: string,
    key: string | undefined,
    payload: unknown,
  ): Promise<SandboxAnswer> {
    const notice = payload as { type?: string; noticeId?: string; leadIds?: unknown };
    if (notice.type === 'consent.withdrawn' || notice.type === 'data.deletion_requested') {
      // A notice about leads this lender received (docs/privacy.md).
      if (!key || key !== notice.noticeId)
        throw appError('VALIDATION_FAILED', 'Idempotency-Key 与 noticeId 不一致');
      const leadIds = Array.isArray(notice.leadIds)
        ? notice.leadIds.filter((x): x is string => typeof x === 'string')
        : [];
      if (notice.type === 'consent.withdrawn') return { received: true };
      await this.d.repo.deleteLeads(code, leadIds);
      return { deleted: true };
    }
    const body = payload as { leadId?: string; fields?: { mobile?: string } };
    if (!key || key !== body.leadId) throw appError('VALIDATION_FAILED', 'Idempotency-Key 与 leadId 不一致');
    const { id, duplicate } = await this.d.repo.insertOnce({
      partnerCode: code,
      idempotencyKey: key,
      phoneHash: phoneHash(secret, body.fields?.mobile ?? ''),
      body: body as Record<string, unknown>,
    });
    return { id: `SB-${id}`, duplicate };
  }

  /** Whether lender `code` received a lead for this phone hash. */
  async exists(code: string, hash: string): Promise<boolean> {
    return this.d.repo.hasPhone(code, hash);
  }

  /**
   * Tells the sandbox lender what became of a lead it received (issue 47.4), without calling us: its status
   * query answers it from now on. 404 when it never received the lead.
   */
  async setStatus(
    code: string,
    outcome: { leadId: string; status: OutcomeStatus } & Record<string, unknown>,
  ): Promise<{ leadId: string; status: OutcomeStatus }> {
    const { leadId, ...said } = outcome;
    if (!(await this.d.repo.setOutcome(code, leadId, said)))
      throw appError('NOT_FOUND', '沙盒机构没有收到这条线索');
    return { leadId, status: outcome.status };
  }

  /** The status query of lender `code`: what it was told about each of `leadIds` it received (others left out). */
  async statuses(
    code: string,
    leadIds: string[],
  ): Promise<{ results: ({ leadId: string; status: OutcomeStatus } & Record<string, unknown>)[] }> {
    const rows = await this.d.repo.outcomesOf(code, leadIds);
    return {
      results: rows.flatMap((r) =>
        r.outcome && typeof r.outcome.status === 'string'
          ? [{ ...r.outcome, leadId: r.key, status: r.outcome.status as OutcomeStatus }]
          : [],
      ),
    };
  }

  /** The latest 50 leads lender `code` received: keys, times and field names only. */
  async received(code: string): Promise<SandboxLeadSummary[]> {
    const rows = await this.d.repo.latest(code, 50);
    return rows.map((r) => ({
      leadId: r.idempotencyKey,
      idempotencyKey: r.idempotencyKey,
      receivedAt: r.receivedAt.toISOString(),
      fieldNames: Object.keys((r.body.fields as Record<string, unknown> | undefined) ?? {}),
      autoForm: r.body.autoForm === true,
    }));
  }
}
