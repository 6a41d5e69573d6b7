import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { rowsOf } from '../../src/db/client.ts';
import { BACKEND, body, createTestApp, newIp, newPhone, type TestContext } from '../helpers.ts';
import { expectEnvelope } from './fixtures.ts';

/**
 * SMS pumping (issue 8): a script hammers the code endpoints. Whatever it does, at most the
 * configured caps of codes go out — counted in the database (sms_codes, and the console provider's
 * sms_outbox), not in the answers.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp(); // the shipped defaults: 30 per IP and 10 per device an hour
});
afterAll(async () => ctx?.close());
afterEach(() => vi.useRealTimers());

async function sent(): Promise<{ codes: number; outbox: number }> {
  const rows = rowsOf<{ codes: number; outbox: number }>(
    await ctx.app.database.db.execute(
      sql`select (select count(*)::int from sms_codes) as codes, (select count(*)::int from sms_outbox) as outbox`,
    ),
  );
  return rows[0]!;
}

function send(url: string, phone: string, ip: string, fingerprint?: string) {
  return ctx.app.inject({
    method: 'POST',
    url,
    payload: { phone },
    remoteAddress: ip,
    headers: fingerprint ? { platform_param: JSON.stringify({ fingerprint }) } : {},
  });
}

async function pump(n: number, make: (i: number) => { phone: string; ip: string; fp?: string }) {
  const before = await sent();
  const statuses: Record<number, number> = {};
  for (let i = 0; i < n; i++) {
    const { phone, ip, fp } = make(i);
    const res = await send('/api/login/sendPhoneVerifyCode', phone, ip, fp);
    expectEnvelope(res);
    statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
    if (res.statusCode === 429) expect(body(res).msg).toMatch(/频繁|上限|已发送/);
  }
  const after = await sent();
  return {
    codes: after.codes - before.codes,
    outbox: after.outbox - before.outbox,
    ok: statuses[200] ?? 0,
    limited: statuses[429] ?? 0,
  };
}

describe(`SMS pumping (${BACKEND})`, () => {
  it('1,000 sends across 1,000 phones from one IP and one fingerprint: at most the device cap goes out', async () => {
    const { SMS_IP_HOURLY_LIMIT: ipCap, SMS_DEVICE_HOURLY_LIMIT: deviceCap } = ctx.app.config;
    const ip = newIp();
    const r = await pump(1000, () => ({ phone: newPhone(), ip, fp: 'fp-pump-1' }));
    const cap = Math.min(ipCap, deviceCap);
    expect(r.codes).toBe(cap);
    expect(r.outbox).toBe(cap);
    expect(r.ok).toBe(cap);
    expect(r.limited).toBe(1000 - cap);
  });

  it('1,000 sends from one IP with a fresh fingerprint each time: at most the IP cap goes out', async () => {
    const ip = newIp();
    const r = await pump(1000, (i) => ({ phone: newPhone(), ip, fp: `fp-rotating-${i}` }));
    expect(r.codes).toBe(ctx.app.config.SMS_IP_HOURLY_LIMIT);
    expect(r.outbox).toBe(ctx.app.config.SMS_IP_HOURLY_LIMIT);
  });

  it('1,000 sends from 1,000 IPs with one fingerprint: at most the device cap goes out', async () => {
    const r = await pump(1000, () => ({ phone: newPhone(), ip: newIp(), fp: 'fp-pump-many-ips' }));
    expect(r.codes).toBe(ctx.app.config.SMS_DEVICE_HOURLY_LIMIT);
  });

  it('one phone from 200 IPs and devices within a minute: one code goes out', async () => {
    const phone = newPhone();
    const r = await pump(200, (i) => ({ phone, ip: newIp(), fp: `fp-phone-${i}` }));
    expect(r.codes).toBe(1);
    expect(r.outbox).toBe(1);
  });

  it('one phone from many IPs and devices over a day: five an hour, ten a Shanghai day', async () => {
    // The clock is faked, so this app runs on the embedded PGlite with its limits in the database, whose
    // windows follow the app's clock (DbCounterStore asks it, not the database's now(): ADR 047). Redis'
    // TTLs follow its own clock, which a test cannot move (the minute cap above runs on it in the PG run).
    const own = await createTestApp({
      env: { REDIS_URL: undefined, DATABASE_URL: undefined } as unknown as Record<string, string>,
    });
    const main = ctx;
    ctx = own;
    try {
      const t0 = Date.parse('2026-03-02T01:00:00Z'); // 09:00 in Shanghai
      vi.useFakeTimers({ toFake: ['Date'], now: new Date(t0) });
      const phone = newPhone();
      let hour = (await pump(50, (i) => ({ phone, ip: newIp(), fp: `fp-h0-${i}` }))).codes;
      expect(hour).toBe(1);
      // One burst a minute for the rest of the hour: at most five in the hour.
      for (let m = 1; m < 59; m++) {
        vi.setSystemTime(new Date(t0 + m * 61_000));
        hour += (await pump(3, (i) => ({ phone, ip: newIp(), fp: `fp-h${m}-${i}` }))).codes;
      }
      expect(hour).toBe(5);
      // A burst every minute for six minutes of each later hour: at most ten in the day.
      let day = hour;
      for (let h = 1; h < 14; h++) {
        for (let m = 0; m < 6; m++) {
          vi.setSystemTime(new Date(t0 + h * 3_660_000 + m * 61_000));
          day += (await pump(2, (i) => ({ phone, ip: newIp(), fp: `fp-d${h}-${m}-${i}` }))).codes;
        }
      }
      expect(day).toBe(10);
    } finally {
      vi.useRealTimers();
      ctx = main;
      await own.close();
    }
  });

  it('the staff and cancellation code endpoints cannot be pumped either', async () => {
    const ip = newIp();
    const before = await sent();
    for (let i = 0; i < 300; i++) {
      const res = await send('/api/crm/admin/login/sendPhoneVerifyCode', newPhone(), ip, 'fp-staff');
      expectEnvelope(res);
      const cancel = await send('/api/cancellation/sendPhoneVerifyCode', newPhone(), ip, 'fp-staff');
      expect(cancel.statusCode).toBe(401); // needs a login first
    }
    const after = await sent();
    // Unknown staff phones get no SMS at all; in any case never more than the caps.
    expect(after.codes - before.codes).toBeLessThanOrEqual(ctx.app.config.SMS_DEVICE_HOURLY_LIMIT);
    expect(after.outbox - before.outbox).toBeLessThanOrEqual(ctx.app.config.SMS_DEVICE_HOURLY_LIMIT);
  });
});
