/**
 * Issue 16.8: a match travels as its opaque matchKey, never as the result. GET
 * /api/user/info/match/{matchKey} answers the run to its person only.
 */
import type { MatchResultData } from '@lm/shared/schemas/matching';
import { describe, expect, it } from 'vitest';
import { FORM, offersOf } from './fixtures.ts';
import { BACKEND, body, h5Call, loginAs, useTestApp } from './helpers.ts';

const ctx = useTestApp();

const call = (method: 'GET' | 'POST' | 'PUT', url: string, token?: string, payload?: unknown) =>
  h5Call(ctx.app, method, url, token, payload);
const load = (key: string, token?: string) =>
  call('GET', `/api/user/info/match/${encodeURIComponent(key)}`, token);

describe(`a match by its key (${BACKEND})`, () => {
  it('every match answers an opaque key; its person loads the same offers with it', async () => {
    const { token } = await loginAs(ctx.app);
    const saved = body<MatchResultData>(await call('POST', '/api/user/info/save', token, FORM)).data;
    expect(offersOf(saved).length).toBeGreaterThan(0);
    const key = saved.matchKey!;
    expect(key).toMatch(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)+$/);
    expect(key.length).toBeGreaterThanOrEqual(40);
    // Not the run id, and not derivable from it: two matches of one person have unrelated keys.
    expect(key).not.toBe(String(saved.matchId));
    const res = await load(key, token);
    expect(res.statusCode, res.body).toBe(200);
    const loaded = body<MatchResultData>(res).data;
    expect(loaded.matchId).toBe(saved.matchId);
    expect(loaded.matchKey).toBe(key);
    expect(loaded.applyStatus).toBe(1);
    expect(offersOf(loaded)).toEqual(offersOf(saved));

    const again = body<MatchResultData>(
      await call('POST', '/api/user/info/direct/match', token, { directMatchType: 0, adChannelCode: 'demo' }),
    ).data;
    expect(again.matchKey).toBeTruthy();
    expect(again.matchKey).not.toBe(key);
    const reloaded = body<MatchResultData>(await load(again.matchKey!, token)).data;
    expect(reloaded.matchId).toBe(again.matchId);
    expect(offersOf(reloaded).map((o) => o.id)).toEqual(offersOf(again).map((o) => o.id));
    // The first run's offers were released by the re-match: its key now lists nothing to authorise.
    const old = body<MatchResultData>(await load(key, token)).data;
    expect(old.matchId).toBe(saved.matchId);
    expect(offersOf(old)).toEqual([]);
    expect(old.applyStatus).toBeNull();
  });

  it('another person, a forged key and an anonymous caller are refused', async () => {
    const owner = await loginAs(ctx.app);
    const other = await loginAs(ctx.app);
    const saved = body<MatchResultData>(await call('POST', '/api/user/info/save', owner.token, FORM)).data;
    const key = saved.matchKey!;

    const refused = await load(key, other.token);
    expect(refused.statusCode).toBe(404);
    expect(body(refused)).toMatchObject({ code: 404, msg: '匹配结果不存在', data: null });
    expect(refused.body).not.toContain(saved.productName!);

    // One character changed: the seal does not open.
    const last = key.at(-2) === 'A' ? 'B' : 'A';
    const forged = `${key.slice(0, -2)}${last}${key.at(-1)}`;
    expect((await load(forged, owner.token)).statusCode).toBe(404);
    // The run id in place of the key is no key at all.
    const numeric = await load(String(saved.matchId).padStart(24, '0'), owner.token);
    expect(numeric.statusCode).toBe(400);
    expect(body(numeric).msg).toContain('匹配编号无效');
    expect((await load(key)).statusCode).toBe(401);

    // The owner still reads it, after consenting: nothing left to authorise.
    expect((await load(key, owner.token)).statusCode).toBe(200);
    const first = offersOf(saved)[0]!;
    const auth = await call('PUT', '/api/user/info/auth', owner.token, {
      productIds: [first.id],
      matchId: saved.matchId,
    });
    expect(auth.statusCode, auth.body).toBe(200);
    expect(offersOf(body<MatchResultData>(await load(key, owner.token)).data)).toEqual([]);
  });
});
