import { POLL_BATCH } from '@lm/shared/schemas/outcome-polling';
import { describe, expect, it } from 'vitest';
import { batches, pollTransactionId, readPollAnswer, statusQueryText } from './poll-rules.ts';

const KEY_A = '0b9d4c36-6f0e-4a53-9d0c-6e1f5d7f2a11';
const KEY_B = '5f2e7c10-1d2b-4c8a-a3f4-9b0e8d7c6a55';

describe('batches and the request', () => {
  it('splits the keys in batches of POLL_BATCH, in order', () => {
    const keys = Array.from({ length: POLL_BATCH * 2 + 3 }, (_, i) => `k${i}`);
    const out = batches(keys);
    expect(out.map((b) => b.length)).toEqual([POLL_BATCH, POLL_BATCH, 3]);
    expect(out.flat()).toEqual(keys);
    expect(batches([])).toEqual([]);
  });
  it('asks with {version: 1, leadIds}', () => {
    expect(JSON.parse(statusQueryText([KEY_A, KEY_B]))).toEqual({ version: 1, leadIds: [KEY_A, KEY_B] });
  });
  it('a polled status has one transaction id per lead and status, within the outcomes API’s rule', () => {
    expect(pollTransactionId('approved', KEY_A)).toBe(`poll:approved:${KEY_A}`);
    expect(pollTransactionId('duplicate', KEY_A)).toMatch(/^[A-Za-z0-9_.:-]{1,64}$/);
  });
});

describe('readPollAnswer', () => {
  const ok = (json: unknown, asked = [KEY_A, KEY_B]) => readPollAnswer(200, JSON.stringify(json), asked);

  it('takes each status of a lead asked about as an outcome with its transaction id', () => {
    expect(
      ok({
        results: [
          { leadId: KEY_A, status: 'approved', limitFen: 2_000_000, rateBps: 1800, extra: 'ignored' },
          {
            leadId: KEY_B,
            status: 'funded',
            amountFen: 1_234_567,
            termMonths: 12,
            occurredAt: '2026-03-01T10:00:00+08:00',
          },
        ],
      }),
    ).toEqual({
      ok: true,
      outcomes: [
        {
          version: 1,
          transactionId: `poll:approved:${KEY_A}`,
          leadId: KEY_A,
          status: 'approved',
          limitFen: 2_000_000,
          rateBps: 1800,
        },
        {
          version: 1,
          transactionId: `poll:funded:${KEY_B}`,
          leadId: KEY_B,
          status: 'funded',
          amountFen: 1_234_567,
          termMonths: 12,
          occurredAt: '2026-03-01T10:00:00+08:00',
        },
      ],
      skipped: [],
    });
  });

  it('reads the results inside an envelope too; no status is no news', () => {
    expect(
      ok({ code: 200, data: { results: [{ leadId: KEY_A, status: null }, { leadId: KEY_B }] } }),
    ).toEqual({ ok: true, outcomes: [], skipped: [] });
  });

  it('skips, with the reason, what the outcomes API would refuse, another lead and a repeat', () => {
    const read = ok({
      results: [
        { leadId: KEY_A, status: 'approved' },
        { leadId: 'not-asked', status: 'funded', amountFen: 1 },
        { status: 'funded' },
        { leadId: KEY_B, status: 'maybe' },
        { leadId: KEY_B, status: 'declined', reason: '资质不符' },
        { leadId: KEY_B, status: 'declined' },
      ],
    });
    expect(read).toEqual({
      ok: true,
      outcomes: [
        {
          version: 1,
          transactionId: `poll:declined:${KEY_B}`,
          leadId: KEY_B,
          status: 'declined',
          reason: '资质不符',
        },
      ],
      skipped: [
        { leadId: KEY_A, reason: '授信结果须包含授信额度 limitFen（分）' },
        { leadId: 'not-asked', reason: '不是本次查询的线索' },
        { leadId: null, reason: '结果缺少 leadId 或状态无效' },
        { leadId: null, reason: '结果缺少 leadId 或状态无效' },
        { leadId: KEY_B, reason: '同一线索出现了两次' },
      ],
    });
  });

  it('a lender’s own transaction id or version does not replace ours', () => {
    const read = ok({
      results: [{ leadId: KEY_A, status: 'received', transactionId: 'theirs', version: 9 }],
    });
    expect(read).toMatchObject({
      ok: true,
      outcomes: [{ transactionId: `poll:received:${KEY_A}`, version: 1 }],
    });
  });

  it('a refusal, a redirect or an unreadable answer is an error in our words', () => {
    expect(readPollAnswer(503, 'busy', [KEY_A])).toEqual({ ok: false, error: 'HTTP 503' });
    expect(readPollAnswer(401, '{}', [KEY_A])).toEqual({ ok: false, error: 'HTTP 401' });
    expect(readPollAnswer(302, '', [KEY_A])).toEqual({
      ok: false,
      error: '机构返回重定向（HTTP 302），已拒绝跟随',
    });
    expect(readPollAnswer(200, '{"results": [', [KEY_A])).toEqual({
      ok: false,
      error: '应答不是有效的 JSON（或超过 8 KB）',
    });
    expect(readPollAnswer(200, '{"items": []}', [KEY_A])).toEqual({
      ok: false,
      error: '应答缺少 results 列表',
    });
    expect(readPollAnswer(200, '[]', [KEY_A])).toEqual({ ok: false, error: '应答缺少 results 列表' });
  });
});
