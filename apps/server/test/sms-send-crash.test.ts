import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { phoneMinuteKey } from '../src/modules/auth/rules.ts';
import { BACKEND, body, createTestApp, latestCode, newPhone, sendCode, type TestContext } from './helpers.ts';

/**
 * A send counts its units before it stores the code; an instance killed in between (SIGKILL, a crash) leaves
 * the phone's minute unit taken and no code (the topology test's "outbox 200/no-code"). The person, told
 * "验证码已发送", would wait a minute for an SMS that never comes: such a unit is given back.
 */
describe(`a send that died before storing its code (${BACKEND})`, () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => {
    await ctx?.close();
  });

  /** Takes the phone's minute unit as a send would have `agoMs` ago, without storing a code. */
  async function diedMidSend(phone: string, agoMs: number) {
    const key = phoneMinuteKey('login', ctx.app.services.phoneIndex(phone));
    const taken = await ctx.app.services.limiter.consume(key, 1, { ms: 60_000 }, Date.now() - agoMs);
    expect(taken.allowed).toBe(true);
  }

  it('sends at once when the minute unit was taken seconds ago and no code was stored', async () => {
    const phone = newPhone();
    await diedMidSend(phone, 10_000);
    const res = await sendCode(ctx.app, phone);
    expect(res.statusCode, res.body).toBe(200);
    expect(await latestCode(ctx.app, phone)).toMatch(/^\d{6}$/);
    // The minute holds again from this send on.
    const again = await sendCode(ctx.app, phone);
    expect(again.statusCode).toBe(429);
    expect(body(again).msg).toContain('验证码已发送');
  });

  it('still refuses while a send may be storing its code (a unit taken a moment ago)', async () => {
    const phone = newPhone();
    // Taken "now" as seen 20 s later: however slow this machine is, the unit stays younger than the grace.
    await diedMidSend(phone, -20_000);
    const res = await sendCode(ctx.app, phone);
    expect(res.statusCode).toBe(429);
    expect(body(res).msg).toContain('验证码已发送');
  });

  it('still refuses when the unit belongs to a code that was stored', async () => {
    const phone = newPhone();
    expect((await sendCode(ctx.app, phone)).statusCode).toBe(200);
    const again = await sendCode(ctx.app, phone);
    expect(again.statusCode).toBe(429);
    expect(body(again).msg).toContain('验证码已发送');
  });

  it("holds the minute when the app's clock runs ahead of the database's", async () => {
    // The code's time is the send's own (the app's clock), as is the unit's: a database whose clock is
    // behind must not make the stored code look older than the unit and the unit an orphan. The database
    // limiter follows the app's clock (Redis' TTLs follow Redis' own, which a test cannot move), so this
    // app runs on the embedded PGlite, whose thread's clock is not faked.
    const own = await createTestApp({
      env: { REDIS_URL: undefined, DATABASE_URL: undefined } as unknown as Record<string, string>,
    });
    try {
      const t0 = Date.now() + 10 * 60_000;
      vi.useFakeTimers({ toFake: ['Date'], now: new Date(t0) });
      const phone = newPhone();
      expect((await sendCode(own.app, phone)).statusCode).toBe(200);
      vi.setSystemTime(new Date(t0 + 10_000));
      const again = await sendCode(own.app, phone);
      expect(again.statusCode, again.body).toBe(429);
      expect(body(again).msg).toContain('验证码已发送');
    } finally {
      vi.useRealTimers();
      await own.close();
    }
  });
});
