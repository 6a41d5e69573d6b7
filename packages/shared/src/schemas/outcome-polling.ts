/**
 * Status polling (issue 47.4): for a lender that offers only a status query, we POST its status query endpoint
 * signed batches of lead ids and record each answer as an outcome (docs/products-api.md "Status polling").
 * These are the request we send, the answer we read, and the sandbox lender's side of it.
 */
import { z } from 'zod';
import { OUTCOME_STATUSES } from '../outcomes.ts';

/** Leads asked about in one request (the answer is read up to 8 KB: ~20 results fit with room). */
export const POLL_BATCH = 20;
/** Leads asked about per lender and round, oldest delivery first. */
export const POLL_MAX_LEADS = 500;
/** Leads delivered longer ago than this are no longer asked about. */
export const POLL_LOOKBACK_DAYS = 30;

const leadKey = z.string({ error: 'leadIds 须为线索编号列表' }).trim().min(1).max(128);

/** What we POST to a lender's status query endpoint (signed like a lead: X-LM-Timestamp, X-LM-Signature). */
export const statusQueryBody = z.object({
  version: z.literal(1, { error: '仅支持 version 1' }).default(1),
  leadIds: z
    .array(leadKey)
    .min(1, '请提供至少一个 leadId')
    .max(POLL_BATCH, `每次最多查询 ${POLL_BATCH} 条线索`),
});
export type StatusQueryBody = z.infer<typeof statusQueryBody>;

/**
 * One result of the lender's answer, read loosely here (each is then checked as an outcome of
 * `POST /api/partner/outcomes`, so the same fields and rules apply): `status` absent or null — no news.
 */
export const statusQueryResult = z.looseObject({
  leadId: z.string(),
  status: z.enum(OUTCOME_STATUSES).nullish(),
});

/** The lender's answer: `{results: [...]}` (or the same inside an envelope's `data`). */
export const statusQueryAnswer = z.union([
  z.object({ results: z.array(z.unknown()) }),
  z.object({ data: z.object({ results: z.array(z.unknown()) }) }),
]);

/** The sandbox lender's answer to a status query: what it was told about each lead it knows. */
export const sandboxStatusQueryData = z.object({
  results: z.array(z.looseObject({ leadId: z.string(), status: z.enum(OUTCOME_STATUSES) })),
});

/** `POST /api/dev/partner-sandbox/{code}/statuses`: what the sandbox lender now says about a lead. */
export const sandboxStatusData = z.object({ leadId: z.string(), status: z.enum(OUTCOME_STATUSES) });
