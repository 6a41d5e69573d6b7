import { DEFAULT_ATTRIBUTION_WINDOW_DAYS } from '@lm/shared/ad-clicks';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { adClicks } from '../src/db/schema.ts';
import { BACKEND, body, loginAs, newIp, newPhone, useTestApp } from './helpers.ts';

const ctx = useTestApp();
let app: FastifyInstance;
beforeAll(() => {
  app = ctx.app;
});

let n = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++n}`;
const trackReport = (v: Record<string, string>) => JSON.stringify(v);

const report = (channel: string, header: string | undefined) =>
  app.inject({
    method: 'POST',
    url: '/api/report/event',
    payload: { step: 'visit_landing', sessionId: unique('sess'), adChannelCode: channel, source: 'H5' },
    headers: header === undefined ? {} : { track_report: header },
    remoteAddress: newIp(),
  });

const login = async (phone: string, channel: string, header?: string) =>
  (
    await loginAs(
      app,
      phone,
      { adChannelCode: channel },
      header === undefined ? {} : { track_report: header },
    )
  ).uid;

const clickRows = (platform: string, clickId: string) =>
  app.database.db
    .select()
    .from(adClicks)
    .where(and(eq(adClicks.platform, platform), eq(adClicks.clickId, clickId)));

describe(`ad clicks from the track_report header (issue 47.1, ADR 069) (${BACKEND})`, () => {
  it('a visit keeps the click with its channel and only its click parameters; a repeat only its last sighting', async () => {
    const clickid = unique('cb');
    const header = trackReport({ platform: 'oceanengine', clickid, callback: 'B-1', phone: '13800000000' });
    expect((await report('demo', header)).statusCode).toBe(200);
    const [first] = await clickRows('oceanengine', clickid);
    expect(first).toMatchObject({
      channelCode: 'demo',
      params: { clickid, callback: 'B-1' },
      userId: null,
      attributedAt: null,
    });
    expect(JSON.stringify(first!.params)).not.toContain('13800000000');

    await report('demo-skin8', header);
    const rows = await clickRows('oceanengine', clickid);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.channelCode).toBe('demo');
    expect(rows[0]!.firstSeenAt).toEqual(first!.firstSeenAt);
    expect(rows[0]!.lastSeenAt.getTime()).toBeGreaterThanOrEqual(first!.lastSeenAt.getTime());
  });

  it('a login credits the person with the click of their channel, once: a second person does not take it', async () => {
    const bdVid = unique('bd');
    const header = trackReport({ platform: 'baidu', bd_vid: bdVid });
    await report('demo', header);
    const uid = await login(newPhone(), 'demo', header);
    const [row] = await clickRows('baidu', bdVid);
    expect(row).toMatchObject({ userId: uid });
    expect(row!.attributedAt).toBeInstanceOf(Date);

    // The same person again: still theirs, credited when it first was.
    const again = await app.services.adClicks.login(header, { userId: uid, channelCode: 'demo' });
    expect(again?.attributedAt).toEqual(row!.attributedAt);

    const other = await login(newPhone(), 'demo', header);
    expect(other).not.toBe(uid);
    const [after] = await clickRows('baidu', bdVid);
    expect(after!.userId).toBe(uid);
  });

  it('a login with a click never seen before keeps and credits it at once', async () => {
    const callback = unique('ks');
    const uid = await login(newPhone(), 'demo', trackReport({ platform: 'kuaishou', callback }));
    expect((await clickRows('kuaishou', callback))[0]).toMatchObject({ userId: uid, channelCode: 'demo' });
  });

  it(`a click seen more than ${DEFAULT_ATTRIBUTION_WINDOW_DAYS} days before the login is not credited`, async () => {
    const gdtVid = unique('gdt');
    const header = trackReport({ platform: 'tencent', gdt_vid: gdtVid });
    await report('demo', header);
    const old = new Date(Date.now() - (DEFAULT_ATTRIBUTION_WINDOW_DAYS + 1) * 86_400_000);
    await app.database.db
      .update(adClicks)
      .set({ firstSeenAt: old, lastSeenAt: old })
      .where(eq(adClicks.clickId, gdtVid));
    await login(newPhone(), 'demo', header);
    expect((await clickRows('tencent', gdtVid))[0]!.userId).toBeNull();
  });

  it('a click landed on another channel is not credited to a login on this one', async () => {
    const callback = unique('oe');
    const header = trackReport({ platform: 'oceanengine', callback });
    await report('demo-skin8', header);
    await login(newPhone(), 'demo', header);
    expect((await clickRows('oceanengine', callback))[0]!.userId).toBeNull();
  });

  it('a malformed, foreign or empty header changes nothing and refuses nothing', async () => {
    const before = (await app.database.db.select({ id: adClicks.id }).from(adClicks)).length;
    for (const header of ['{not json', trackReport({ platform: 'sogou', clickid: 'x' }), '', '[]']) {
      expect((await report('demo', header)).statusCode).toBe(200);
      await login(newPhone(), 'demo', header);
    }
    expect((await app.database.db.select({ id: adClicks.id }).from(adClicks)).length).toBe(before);
  });

  it('GET /api/dev/ad-clicks lists a click id’s clicks with the person credited; a bad query is a clear 400', async () => {
    const clickid = unique('dev');
    const header = trackReport({ platform: 'oceanengine', clickid });
    const uid = await login(newPhone(), 'demo', header);
    const res = await app.inject({ method: 'GET', url: `/api/dev/ad-clicks?clickId=${clickid}` });
    expect(res.statusCode).toBe(200);
    expect(body(res).data).toEqual([
      expect.objectContaining({
        platform: 'oceanengine',
        clickId: clickid,
        channelCode: 'demo',
        userId: uid,
      }),
    ]);
    const none = await app.inject({
      method: 'GET',
      url: `/api/dev/ad-clicks?clickId=${clickid}&platform=baidu`,
    });
    expect(body(none).data).toEqual([]);

    for (const url of ['/api/dev/ad-clicks', '/api/dev/ad-clicks?clickId=x&platform=sogou']) {
      const bad = await app.inject({ method: 'GET', url });
      expect(bad.statusCode).toBe(400);
      expect(body(bad).msg).toMatch(/点击 ID|广告平台/);
    }
  });
});
