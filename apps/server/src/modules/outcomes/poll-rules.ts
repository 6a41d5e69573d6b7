/**
 * Status polling (issue 47.4), pure: what we ask a lender that offers only a status query, and how its answer
 * becomes outcomes of the same shape as `POST /api/partner/outcomes` (so `OutcomeService.record` takes them with
 * the same rules). Format: docs/products-api.md "Status polling".
 */
import type { OutcomeStatus } from '@lm/shared/outcomes';
import { POLL_BATCH, statusQueryAnswer, statusQueryResult } from '@lm/shared/schemas/outcome-polling';
import { type LenderOutcomeBody, lenderOutcomeBody } from '@lm/shared/schemas/outcomes';

/** The lead keys in batches of `size` (POLL_BATCH by default), in order. */
export function batches<T>(items: readonly T[], size = POLL_BATCH): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The request body of one status query (signed as it is sent). */
export function statusQueryText(leadKeys: readonly string[]): string {
  return JSON.stringify({ version: 1, leadIds: leadKeys });
}

/**
 * The transaction id of a polled status: the same status of the same lead is one outcome however often the
 * lender repeats it (a repeat is answered `repeated` and changes nothing). A lead key is a UUID (36 characters),
 * well within the 64 the outcomes API takes.
 */
export function pollTransactionId(status: OutcomeStatus, leadKey: string): string {
  return `poll:${status}:${leadKey}`;
}

/** A result the answer held that is not taken, and why (for the log; never stored). */
export interface SkippedResult {
  leadId: string | null;
  reason: string;
}

export type PollAnswer =
  | { ok: true; outcomes: LenderOutcomeBody[]; skipped: SkippedResult[] }
  | { ok: false; error: string };

/**
 * The lender's answer (`status` and at most 8 KB of `text`) to a query about `asked`: each result with a status
 * of one of those leads, checked as an outcome of the outcomes API, with its deterministic transaction id.
 * Results without a status (no news), about a lead not asked about, or that the outcomes API would refuse are
 * skipped. A refusal (not 2xx) or an unreadable answer is an error: our own short text, never the lender's.
 */
export function readPollAnswer(status: number, text: string, asked: readonly string[]): PollAnswer {
  if (status < 200 || status >= 300)
    return {
      ok: false,
      error:
        status >= 300 && status < 400 ? `机构返回重定向（HTTP ${status}），已拒绝跟随` : `HTTP ${status}`,
    };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: '应答不是有效的 JSON（或超过 8 KB）' };
  }
  const answer = statusQueryAnswer.safeParse(json);
  if (!answer.success) return { ok: false, error: '应答缺少 results 列表' };
  const results = 'results' in answer.data ? answer.data.results : answer.data.data.results;
  const wanted = new Set(asked);
  const taken = new Set<string>();
  const outcomes: LenderOutcomeBody[] = [];
  const skipped: SkippedResult[] = [];
  for (const raw of results) {
    const item = statusQueryResult.safeParse(raw);
    if (!item.success) {
      skipped.push({ leadId: null, reason: '结果缺少 leadId 或状态无效' });
      continue;
    }
    const { leadId, status: itemStatus } = item.data;
    if (!wanted.has(leadId)) {
      skipped.push({ leadId, reason: '不是本次查询的线索' });
      continue;
    }
    if (!itemStatus) continue;
    if (taken.has(leadId)) {
      skipped.push({ leadId, reason: '同一线索出现了两次' });
      continue;
    }
    const { version: _v, transactionId: _t, ...fields } = item.data as Record<string, unknown>;
    const body = lenderOutcomeBody.safeParse({
      ...fields,
      version: 1,
      transactionId: pollTransactionId(itemStatus, leadId),
    });
    if (!body.success) {
      skipped.push({ leadId, reason: body.error.issues[0]?.message ?? '结果无效' });
      continue;
    }
    taken.add(leadId);
    outcomes.push(body.data);
  }
  return { ok: true, outcomes, skipped };
}
