/**
 * Issue 47.3: a person's steps reach the ad platform of the click that brought them — one report per person ×
 * step × platform, written when the step happens, sent by the delivery worker with the platform's adapter to
 * its local sandbox, which checks the request as the platform does. Nothing personal leaves.
 */
import type { AdSandboxEventData } from '@lm/shared/schemas/ad-sandbox';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { adReports } from '../src/db/schema.ts';
import { FORM, saveForm } from './fixtures.ts';
import { BACKEND, body, loginAs, newPhone, useTestApp } from './helpers.ts';

const ctx = useTestApp({
  env: { PARTNER_SANDBOX: 'on', DELIVERY_BACKOFF_BASE_MS: '10', DELIVERY_BACKOFF_MAX_MS: '40' },
});
let app: FastifyInstance;
beforeAll(async () => {
  app = ctx.app;
  // The worker reaches the sandboxes on this server's own address, as in development.
  await app.listen({ port: 0, host: '127.0.0.1' });
});

let n = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${++n}`;

async function login(phone: string, channel: string, header: Record<string, string>) {
  const { token, uid, data } = await loginAs(
    app,
    phone,
    { adChannelCode: channel },
    { track_report: JSON.stringify(header) },
  );
  // Whether the login made the person is the server's own business.
  expect(Object.keys(data)).not.toContain('created');
  return { token, uid };
}

async function sandboxEvents(platform: string, clickId: string): Promise<AdSandboxEventData[]> {
  const res = await app.inject({
    url: `/api/dev/ad-sandbox/${platform}/events?clickid=${encodeURIComponent(clickId)}`,
  });
  expect(res.statusCode, res.body).toBe(200);
  return body<AdSandboxEventData[]>(res).data;
}

const reportsOf = (uid: number) =>
  app.database.db.select().from(adReports).where(eq(adReports.userId, uid)).orderBy(adReports.id);

describe(`conversion reports to the ad platforms (issue 47.3) (${BACKEND})`, () => {
  it('Ocean Engine hears 注册 and 表单提交 once each for the click, however often they happen', async () => {
    const clickid = unique('OE');
    const header = { platform: 'oceanengine', clickid, callback: `cb-${clickid}` };
    const phone = newPhone();
    const { token, uid } = await login(phone, 'demo', header);
    expect((await saveForm(app, token)).res.statusCode).toBe(200);
    // A second submit of the same person, and the registration recorded again: first time only, no-ops.
    expect((await saveForm(app, token, { ...FORM })).res.statusCode).toBe(200);
    expect(
      await app.services.adReports.record({ userId: uid, step: 'register', reference: 'again' }),
    ).toEqual({
      queued: false,
      reason: 'repeat',
    });

    const queued = await reportsOf(uid);
    expect(queued.map((r) => [r.step, r.eventCode, r.status])).toEqual([
      ['register', 'active_register', 'pending'],
      ['form', 'form', 'pending'],
    ]);
    await app.services.delivery.drain();
    const sent = await reportsOf(uid);
    expect(sent.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
    expect(sent[0]!.answer).toContain('"code":0');

    // One round sends a person's due reports side by side: the platform may get them in any order.
    const events = await sandboxEvents('oceanengine', clickid);
    expect(events.map((e) => e.eventType).sort()).toEqual(['active_register', 'form']);
    const register = events.find((e) => e.eventType === 'active_register')!;
    expect(register.request).toMatchObject({
      event_type: 'active_register',
      context: { ad: { callback: clickid } },
    });
    expect(String((register.request as { timestamp: number }).timestamp)).toMatch(/^\d{13}$/);
    // Nothing personal: no phone, no name, no ID number in what the platform received.
    const received = JSON.stringify(events);
    expect(received).not.toContain(phone);
    expect(received).not.toContain(FORM.realName);
    expect(received).not.toContain(FORM.identity);
    // Draining again sends nothing more.
    await app.services.delivery.drain();
    expect(await sandboxEvents('oceanengine', clickid)).toHaveLength(2);
  });

  it('Kuaishou, Baidu and Tencent each get their documented request', async () => {
    const ks = unique('KS');
    await login(newPhone(), 'demo-skin11', { platform: 'kuaishou', callback: ks });
    const bd = unique('BD');
    const baidu = await login(newPhone(), 'demo-location', { platform: 'baidu', bd_vid: bd });
    expect((await saveForm(app, baidu.token)).res.statusCode).toBe(200);
    const gdt = unique('GDT');
    await login(newPhone(), 'demo-skin14', { platform: 'tencent', gdt_vid: gdt });
    await app.services.delivery.drain();

    const kuaishou = await sandboxEvents('kuaishou', ks);
    expect(kuaishou.map((e) => e.eventType)).toEqual(['2']);
    expect(kuaishou[0]!.request).toMatchObject({ callback: ks, event_type: '2' });

    // Baidu: only 表单提交 (3) is on by default; the landing URL carries bd_vid; the token is not kept.
    const bdEvents = await sandboxEvents('baidu', bd);
    expect(bdEvents.map((e) => e.eventType)).toEqual(['3']);
    const logidUrl = (bdEvents[0]!.request as { conversionTypes: { logidUrl: string }[] }).conversionTypes[0]!
      .logidUrl;
    expect(new URL(logidUrl).searchParams.get('bd_vid')).toBe(bd);
    expect(new URL(logidUrl).searchParams.get('adChannelCode')).toBe('demo-location');
    expect(JSON.stringify(bdEvents)).not.toContain('demo-baidu-ocpc-token');

    const tencent = await sandboxEvents('tencent', gdt);
    expect(tencent.map((e) => e.eventType)).toEqual(['REGISTER']);
    expect(tencent[0]!.request).toMatchObject({ account_id: 20261205, user_action_set_id: 1100000001 });
  });

  it('an organic person (no click) and a channel that does not report are not reported', async () => {
    const organic = await login(newPhone(), 'demo', { platform: 'oceanengine' });
    expect(await reportsOf(organic.uid)).toEqual([]);
    // demo-skin9 captures Ocean Engine clicks but has no reporting settings.
    const other = await login(newPhone(), 'demo-skin9', { platform: 'oceanengine', clickid: unique('NO') });
    expect(await reportsOf(other.uid)).toEqual([]);
  });

  it('the sandboxes refuse what the platforms refuse, in words', async () => {
    const bad = await app.inject({
      method: 'POST',
      url: '/api/dev/ad-sandbox/oceanengine/api/v2/conversion',
      payload: { event_type: 'form', context: { ad: {} }, timestamp: 1_700_000_000 },
    });
    expect(bad.statusCode).toBe(400);
    expect(body(bad).msg).toMatch(/context\.ad\.callback|timestamp/);
    const stale = await app.inject({
      method: 'POST',
      url: '/api/dev/ad-sandbox/tencent/v1.3/user_actions/add?access_token=abcdefgh&timestamp=1700000000&nonce=n1',
      payload: {
        account_id: 1,
        user_action_set_id: 2,
        actions: [{ action_time: 1_700_000_000, action_type: 'REGISTER', trace: { click_id: 'x' } }],
      },
    });
    expect(stale.statusCode).toBe(400);
    expect(body(stale).msg).toContain('timestamp 与服务器时间相差过大');
    const baidu = await app.inject({
      method: 'POST',
      url: '/api/dev/ad-sandbox/baidu/ocpcapi/api/uploadConvertData',
      payload: { token: 't', conversionTypes: [{ logidUrl: 'https://example.com/?a=1', newType: 3 }] },
    });
    expect(baidu.statusCode).toBe(400);
    expect(body(baidu).msg).toContain('logidUrl 须含 bd_vid 参数');
    expect((await app.inject({ url: '/api/dev/ad-sandbox/sogou/events' })).statusCode).toBe(400);
  });
});
