import { randomBytes } from 'node:crypto';
import { RUM_ENV, RUM_VERSION } from '@lm/shared/schemas/rum';
import { shanghaiDate } from '@lm/shared/time';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { webVitals } from '../src/db/schema.ts';
import { blindIndex } from '../src/lib/crypto.ts';
import { VITALS_BEACONS_PER_DEVICE_PER_HOUR } from '../src/modules/rum/rules.ts';
import { BACKEND, body, newIp, staffLogin, type TestStaffRole, useTestApp } from './helpers.ts';

const ctx = useTestApp();
let app: FastifyInstance;
const password = 'rum test secret';
const tag = randomBytes(3).toString('hex');
const today = shanghaiDate();
const tokens = { viewer: '', operator: '', partner: '' };

async function staffToken(role: TestStaffRole, channelCodes?: string[]) {
  return (
    await staffLogin(app, role, { name: `性能${role}`, password, ...(channelCodes ? { channelCodes } : {}) })
  ).token;
}

const newFp = () => `fp-${randomBytes(8).toString('hex')}`;

/** A beacon as navigator.sendBeacon sends a string: text/plain, no headers, fingerprint in the body. */
function beacon(payload: unknown, ip = newIp()) {
  return app.inject({
    method: 'POST',
    url: '/api/report/vitals',
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    headers: { 'content-type': 'text/plain;charset=UTF-8' },
    remoteAddress: ip,
  });
}

const item = (over: Record<string, unknown> = {}) => ({
  metric: 'LCP',
  value: 1800,
  rating: 'good',
  route: `/r-${tag}`,
  channel: `c-${tag}`,
  skin: 17,
  navigationType: 'navigate',
  connection: '4g',
  ...over,
});

const rowsOf = (route: string) => app.database.db.select().from(webVitals).where(eq(webVitals.route, route));

interface Row {
  group: string | null;
  metric: string;
  count: number;
  p50: number;
  p75: number;
  p95: number;
  rating: string | null;
}
const get = (url: string, token: string) => app.inject({ url, headers: { accesstoken: token } });

beforeAll(async () => {
  app = ctx.app;
  tokens.viewer = await staffToken('viewer');
  tokens.operator = await staffToken('operator');
  tokens.partner = await staffToken('channel_partner', [`c-${tag}`]);
});

describe(`real-user monitoring (${BACKEND})`, () => {
  it('stores a beacon batch with the server rating, hashed device and Shanghai day', async () => {
    const fp = newFp();
    const route = `/store-${tag}`;
    const res = await beacon({
      env: RUM_ENV,
      version: RUM_VERSION,
      fingerprint: fp,
      items: [
        item({ route, metric: 'LCP', value: 4200.37, rating: 'good' }),
        item({ route, metric: 'CLS', value: 0.123456, rating: 'good' }),
        item({ route, metric: 'INP', value: 120, rating: 'poor', channel: null, skin: null }),
        item({ route, metric: 'CHUNK_ERROR', value: 1, rating: undefined }),
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(body(res)).toMatchObject({ code: 200, data: { accepted: 4 } });
    const rows = await rowsOf(route);
    expect(rows).toHaveLength(4);
    const by = Object.fromEntries(rows.map((r) => [r.metric, r]));
    // The client's rating is not trusted: 4.2 s LCP is poor, CLS 0.12 needs improvement.
    expect(by.LCP).toMatchObject({ value: 4200.4, rating: 'poor', channelCode: `c-${tag}`, skin: 17 });
    expect(by.CLS).toMatchObject({ value: 0.1235, rating: 'needs-improvement' });
    expect(by.INP).toMatchObject({ rating: 'good', channelCode: null, skin: null });
    expect(by.CHUNK_ERROR).toMatchObject({ value: 1, rating: null });
    for (const r of rows) {
      expect(r).toMatchObject({
        env: 'prod',
        appVersion: '1.0.3',
        day: today,
        navigationType: 'navigate',
        connection: '4g',
        deviceHash: blindIndex(app.services.keys.ring, 'device', fp),
      });
      expect(r.deviceHash).not.toContain(fp);
    }
  });

  it('also takes JSON with the fingerprint in platform_param', async () => {
    const fp = newFp();
    const route = `/json-${tag}`;
    const res = await app.inject({
      method: 'POST',
      url: '/api/report/vitals',
      payload: { env: 'prod', version: '1.0.3', items: [item({ route, metric: 'TTFB', value: 300 })] },
      headers: { platform_param: JSON.stringify({ channel: 0, fingerprint: fp }) },
      remoteAddress: newIp(),
    });
    expect(body(res).code).toBe(200);
    const [row] = await rowsOf(route);
    expect(row).toMatchObject({ metric: 'TTFB', rating: 'good' });
    expect(row!.deviceHash).toBe(blindIndex(app.services.keys.ring, 'device', fp));
  });

  it('refuses malformed batches and stores nothing of them', async () => {
    const route = `/bad-${tag}`;
    const base = { env: 'prod', version: '1.0.3' };
    const cases: [unknown, string][] = [
      [{ ...base, items: [item({ route, metric: 'FID' })] }, '指标应为'],
      [{ ...base, items: [item({ route, value: -1 })] }, '不能为负数'],
      [{ ...base, items: [item({ route, metric: 'CLS', value: 500 })] }, '超出合理范围'],
      [{ ...base, items: [item({ route, metric: 'CHUNK_ERROR', value: 2 })] }, '超出合理范围'],
      [{ ...base, items: [item({ route: `${route}?phone=13912345678` })] }, '不含查询参数'],
      [{ ...base, items: [item({ route: 'https://evil.example/x' })] }, '不含查询参数'],
      [{ ...base, items: [item({ route, channel: 'x'.repeat(65) })] }, '最长 64'],
      [{ ...base, items: Array.from({ length: 51 }, () => item({ route })) }, '最多上报 50 条'],
      [{ ...base, items: [] }, '至少上报 1 条'],
      [{ env: 'prod', version: 'latest', items: [item({ route })] }, '版本号'],
      ['not json at all', '请求体应为 JSON 对象'],
    ];
    for (const [payload, msg] of cases) {
      const res = await beacon(payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(body(res).msg).toContain(msg);
    }
    expect(await rowsOf(route)).toHaveLength(0);
    expect(await rowsOf(`${route}?phone=13912345678`)).toHaveLength(0);
  });

  it(`caps beacons at ${VITALS_BEACONS_PER_DEVICE_PER_HOUR} an hour per device`, async () => {
    const fp = newFp();
    const route = `/limit-${tag}`;
    const send = () =>
      beacon({
        env: 'prod',
        version: '1.0.3',
        fingerprint: fp,
        items: [item({ route, metric: 'FCP', value: 900 })],
      });
    for (let i = 0; i < VITALS_BEACONS_PER_DEVICE_PER_HOUR; i += 20) {
      const batch = await Promise.all(Array.from({ length: 20 }, send));
      for (const r of batch) expect(r.statusCode).toBe(200);
    }
    const over = await send();
    expect(over.statusCode).toBe(429);
    expect(body(over).msg).toMatch(/^性能数据上报过于频繁/);
    expect(await rowsOf(route)).toHaveLength(VITALS_BEACONS_PER_DEVICE_PER_HOUR);
    // Another device on another IP still gets through.
    expect(
      (await beacon({ env: 'prod', version: '1.0.3', fingerprint: newFp(), items: [item({ route })] }))
        .statusCode,
    ).toBe(200);
  });

  it('computes p50/p75/p95 per route, channel and skin with the p75 rating', async () => {
    const r1 = `/p-${tag}`;
    const r2 = `/q-${tag}`;
    const ch = `pc-${tag}`;
    /** A stored measurement of channel `ch` in prod 1.0.3, today unless `day` says otherwise. */
    const row = (metric: string, value: number, route: string, skin: number, day = today) => ({
      metric,
      value,
      route,
      channelCode: ch,
      skin,
      env: 'prod',
      appVersion: '1.0.3',
      day,
    });
    await app.database.db.insert(webVitals).values([
      ...[1000, 2000, 3000, 4000].map((value) => row('LCP', value, r1, 8)),
      ...[100, 150, 180, 190, 700].map((value) => row('INP', value, r1, 8)),
      ...[0.3, 0.3].map((value) => row('CLS', value, r2, 9)),
      row('CHUNK_ERROR', 1, r2, 9),
      // Outside the range: not counted.
      row('LCP', 90_000, r1, 8, '2020-01-01'),
    ]);

    const res = await get(`/api/admin/web-vitals?groupBy=route&channelCode=${ch}`, tokens.viewer);
    expect(res.statusCode).toBe(200);
    const data = body<{
      rows: Row[];
      thresholds: Record<string, { good: number }>;
      from: string;
      to: string;
    }>(res).data;
    expect(data.to).toBe(today);
    expect(data.thresholds).toMatchObject({
      LCP: { good: 2500 },
      INP: { good: 200 },
      CLS: { good: 0.1 },
      TTFB: { good: 800 },
    });
    const find = (g: string, m: string) => data.rows.find((r) => r.group === g && r.metric === m);
    // percentile_cont over 1000..4000: p50 2500, p75 3250, p95 3850.
    expect(find(r1, 'LCP')).toEqual({
      group: r1,
      metric: 'LCP',
      count: 4,
      p50: 2500,
      p75: 3250,
      p95: 3850,
      rating: 'needs-improvement',
    });
    // 100,150,180,190,700: p75 = 190 (good, though the worst visit was poor).
    expect(find(r1, 'INP')).toMatchObject({ count: 5, p50: 180, p75: 190, p95: 598, rating: 'good' });
    expect(find(r2, 'CLS')).toMatchObject({ count: 2, p75: 0.3, rating: 'poor' });
    expect(find(r2, 'CHUNK_ERROR')).toMatchObject({ count: 1, rating: null });
    // Metric order: LCP before INP before CLS … CHUNK_ERROR last.
    const metrics = data.rows.map((r) => r.metric);
    expect(metrics.indexOf('LCP')).toBeLessThan(metrics.indexOf('CHUNK_ERROR'));

    const bySkin = body<{ rows: Row[] }>(
      await get(`/api/admin/web-vitals?groupBy=skin&channelCode=${ch}&metric=LCP`, tokens.operator),
    ).data.rows;
    expect(bySkin).toEqual([
      { group: '8', metric: 'LCP', count: 4, p50: 2500, p75: 3250, p95: 3850, rating: 'needs-improvement' },
    ]);

    const byChannel = body<{ rows: Row[] }>(
      await get(`/api/admin/web-vitals?groupBy=channel&channelCode=${ch}&metric=CLS`, tokens.viewer),
    ).data.rows;
    expect(byChannel).toEqual([
      { group: ch, metric: 'CLS', count: 2, p50: 0.3, p75: 0.3, p95: 0.3, rating: 'poor' },
    ]);

    const old = body<{ rows: Row[] }>(
      await get(`/api/admin/web-vitals?from=2020-01-01&to=2020-01-01&channelCode=${ch}`, tokens.viewer),
    ).data.rows;
    expect(old).toEqual([
      { group: r1, metric: 'LCP', count: 1, p50: 90_000, p75: 90_000, p95: 90_000, rating: 'poor' },
    ]);
  });

  it('refuses bad console queries, anonymous callers and channel partners', async () => {
    const bad = await get('/api/admin/web-vitals?from=2026-02-01&to=2026-01-01', tokens.viewer);
    expect(bad.statusCode).toBe(400);
    expect(body(bad).msg).toContain('结束日期不能早于开始日期');
    expect((await get('/api/admin/web-vitals?groupBy=url', tokens.viewer)).statusCode).toBe(400);
    expect((await app.inject({ url: '/api/admin/web-vitals' })).statusCode).toBe(401);
    const partner = await get('/api/admin/web-vitals', tokens.partner);
    expect(partner.statusCode).toBe(403);
    expect(body(partner).code).toBe(403);
  });
});
