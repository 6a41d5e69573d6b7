import { FUNNEL_STEPS } from '@lm/shared/channel';
import { shanghaiDate } from '@lm/shared/time';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { events } from '../src/db/schema.ts';
import { EVENTS_PER_IP_PER_HOUR } from '../src/modules/analytics/service.ts';
import { BACKEND, body, loginAs, newIp, useTestApp } from './helpers.ts';

const ctx = useTestApp();
let app: FastifyInstance;
beforeAll(() => {
  app = ctx.app;
});

let sessionCounter = 0;
const newSession = () => `sess_${Date.now().toString(36)}_${++sessionCounter}`;

const report = (payload: unknown, headers: Record<string, string> = {}, ip = newIp()) =>
  app.inject({
    method: 'POST',
    url: '/api/report/event',
    payload: payload as object,
    headers,
    remoteAddress: ip,
  });

const rowsOf = (sessionId: string) =>
  app.database.db.select().from(events).where(eq(events.sessionId, sessionId));

describe(`POST /api/report/event (${BACKEND})`, () => {
  it('stores a step once per session', async () => {
    const sessionId = newSession();
    const event = {
      step: 'visit_landing',
      sessionId,
      adChannelCode: 'demo-skin8',
      skin: 8,
      fingerprint: 'fp-event-1',
      behaviorCode: '17000000000001234',
      source: 'H5',
    };
    const first = await report(event);
    expect(first.statusCode).toBe(200);
    expect(body(first)).toEqual({ code: 200, msg: 'success', data: { recorded: true } });
    const again = await report({ ...event, skin: 9, behaviorCode: '1' });
    expect(body(again)).toEqual({ code: 200, msg: 'success', data: { recorded: false } });

    const rows = await rowsOf(sessionId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      step: 'visit_landing',
      adChannelCode: 'demo-skin8',
      skin: 8,
      behaviorCode: '17000000000001234',
      source: 'H5',
      userId: null,
      day: shanghaiDate(),
    });
    expect(rows[0]!.fingerprintHash).toBeTruthy();
    expect(rows[0]!.fingerprintHash).not.toContain('fp-event-1');

    // Another step of the same session is a new row.
    expect(body(await report({ step: 'get_verification_code', sessionId })).data).toEqual({ recorded: true });
    expect(await rowsOf(sessionId)).toHaveLength(2);
  });

  it('accepts every funnel step and only those', async () => {
    const sessionId = newSession();
    for (const step of FUNNEL_STEPS) {
      expect(body(await report({ step, sessionId })).data, step).toEqual({ recorded: true });
    }
    expect(await rowsOf(sessionId)).toHaveLength(FUNNEL_STEPS.length);
    for (const step of ['visit', 'INIT', '', 3, null]) {
      const res = await report({ step, sessionId: newSession() });
      expect(res.statusCode, String(step)).toBe(400);
      expect(body(res).msg).toContain('事件步骤 step 必须是');
    }
  });

  it('attaches the user when a valid accessToken comes with the event', async () => {
    const { token, uid } = await loginAs(app);
    const sessionId = newSession();
    expect(body(await report({ step: 'login', sessionId }, { accesstoken: token })).data).toEqual({
      recorded: true,
    });
    expect((await rowsOf(sessionId))[0]!.userId).toBe(uid);

    // A bad or expired token never fails the event.
    const other = newSession();
    const res = await report({ step: 'login', sessionId: other }, { accesstoken: 'forged-token' });
    expect(body(res)).toEqual({ code: 200, msg: 'success', data: { recorded: true } });
    expect((await rowsOf(other))[0]!.userId).toBeNull();
  });

  it("takes the platform_param header's fingerprint when the body has none", async () => {
    const sessionId = newSession();
    await report(
      { step: 'init', sessionId },
      { platform_param: JSON.stringify({ fingerprint: 'hdr-fp-2' }) },
    );
    expect((await rowsOf(sessionId))[0]!.fingerprintHash).toBeTruthy();
    const bare = newSession();
    await report({ step: 'init', sessionId: bare });
    expect((await rowsOf(bare))[0]!.fingerprintHash).toBeNull();
  });

  it('refuses bad input with a Chinese message naming the field, storing nothing', async () => {
    const ok = { step: 'init' };
    const cases: [unknown, string][] = [
      [{ ...ok }, 'sessionId'],
      [{ ...ok, sessionId: 'short' }, '会话编号 sessionId 为8到64位'],
      [{ ...ok, sessionId: 's'.repeat(65) }, '会话编号 sessionId 为8到64位'],
      [{ ...ok, sessionId: 'has space 123' }, '会话编号 sessionId 为8到64位'],
      [{ ...ok, sessionId: 12345678 }, '会话编号 sessionId 必须是文本'],
      [{ ...ok, sessionId: 'bad-input-1', skin: '17' }, '皮肤编号 skin 必须是整数'],
      [{ ...ok, sessionId: 'bad-input-2', skin: 1.5 }, '皮肤编号 skin 必须是整数'],
      [{ ...ok, sessionId: 'bad-input-3', skin: 5000 }, '皮肤编号 skin 超出范围'],
      [{ ...ok, sessionId: 'bad-input-4', behaviorCode: '12ab' }, '行为码 behaviorCode 为1到20位数字'],
      [
        { ...ok, sessionId: 'bad-input-5', behaviorCode: '1'.repeat(21) },
        '行为码 behaviorCode 为1到20位数字',
      ],
      [{ ...ok, sessionId: 'bad-input-6', source: 'APP' }, '来源 source 只能是 H5'],
      [{ ...ok, sessionId: 'bad-input-7', adChannelCode: 'x'.repeat(65) }, '渠道码最长64个字符'],
      [{ ...ok, sessionId: 'bad-input-8', fingerprint: 'f'.repeat(129) }, '设备指纹最长128个字符'],
    ];
    for (const [payload, msg] of cases) {
      const res = await report(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(body(res).code).toBe(400);
      expect(body(res).msg, JSON.stringify(payload)).toContain(msg);
    }
    for (let i = 1; i <= 8; i++) expect(await rowsOf(`bad-input-${i}`)).toHaveLength(0);

    const empty = await app.inject({ method: 'POST', url: '/api/report/event' });
    expect(empty.statusCode).toBe(400);
    const notJson = await app.inject({
      method: 'POST',
      url: '/api/report/event',
      payload: 'step=init',
      headers: { 'content-type': 'text/plain' },
    });
    expect(notJson.statusCode).toBe(400);
    expect(body(notJson).code).toBe(400);
  });

  it(`caps events per IP at ${EVENTS_PER_IP_PER_HOUR} an hour`, async () => {
    const ip = newIp();
    const sessionId = newSession();
    for (let i = 0; i < EVENTS_PER_IP_PER_HOUR; i += 50) {
      await Promise.all(Array.from({ length: 50 }, () => report({ step: 'init', sessionId }, {}, ip)));
    }
    const res = await report({ step: 'login', sessionId }, {}, ip);
    expect(res.statusCode).toBe(429);
    expect(body(res)).toMatchObject({ code: 429 });
    expect(body(res).msg).toMatch(/^事件上报过于频繁，请.+后再试$/);
    expect(body<{ retryAfter: number }>(res).data.retryAfter).toBeGreaterThan(0);
    // Refused: the step was not stored; another IP still reports.
    expect((await rowsOf(sessionId)).map((r) => r.step)).toEqual(['init']);
    expect(body(await report({ step: 'login', sessionId })).data).toEqual({ recorded: true });
  });
});
