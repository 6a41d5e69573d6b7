import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shanghaiDate } from '@lm/shared/time';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config/env.ts';
import { CLICKS_PER_IP_PER_HOUR } from '../src/modules/channels/service.ts';
import { body, newIp, staffLogin, TEST_KEYS } from './helpers.ts';

/**
 * `npm start`'s case (ADR 033): the app opened its embedded PGlite itself, so it answers clicks before
 * their rows are written. Whatever the test run's backend, this is always that PGlite, in a directory
 * of its own that outlives a restart.
 */
let dir: string;
let app: FastifyInstance;
const start = () =>
  buildApp({
    config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dir, ...TEST_KEYS }),
    logger: false,
    serveStatic: false,
  });

type Answer = { counted: boolean; flagged: boolean };
/** The console funnel's counted clicks on `demo` today. */
async function countedToday(token: string): Promise<number | undefined> {
  const today = shanghaiDate();
  const funnel = await app.inject({
    url: `/api/admin/funnel?channelCode=demo&from=${today}&to=${today}`,
    headers: { accesstoken: token },
  });
  return body<{ steps: { step: string; count: number }[] }>(funnel).data.steps.find((s) => s.step === 'click')
    ?.count;
}
const click = (qs: string, ip = newIp()) =>
  app.inject({ method: 'GET', url: `/api/reportAdChannelClick?${qs}`, remoteAddress: ip });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lm-clicks-'));
  app = await start();
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('clicks on the embedded database this app opened alone', () => {
  const fp = `wb-${Date.now().toString(36)}`;
  const ip = newIp();

  it('answers from memory; the console sees every answered click at once', async () => {
    expect(app.services.channels.clicks.writeBehind).toBe(true);
    const answers = await Promise.all([
      click(`adChannelCode=demo&fingerprint=${fp}`, ip),
      click(`adChannelCode=demo&fingerprint=${fp}`, ip),
      click(`adChannelCode=demo&fingerprint=${fp}-2`, ip),
      click('adChannelCode=demo', ip),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    const data = answers.map((r) => body<Answer>(r).data);
    expect(data.filter((d) => d.counted)).toHaveLength(2);
    expect(data[3]).toEqual({ counted: false, flagged: true });
    expect(body(await click('adChannelCode=no-such-channel&fingerprint=x', ip)).code).toBe(404);

    // Asked right away, the console counts both visitors (the reads wait for the rows).
    const { token } = await staffLogin(app, 'viewer');
    expect(await countedToday(token)).toBe(2);
    const list = await app.inject({
      url: '/api/admin/channels?q=demo&pageSize=100',
      headers: { accesstoken: token },
    });
    const demo = body<{ list: { adChannelCode: string; todayClicks: number }[] }>(list).data.list.find(
      (c) => c.adChannelCode === 'demo',
    );
    expect(demo?.todayClicks).toBe(2);
  });

  it('an address is refused past the hourly limit, and still after a restart', async () => {
    // Five clicks above (the unknown channel's too); fill up the hour.
    const left = CLICKS_PER_IP_PER_HOUR - 5;
    for (let i = 0; i < left; i++) {
      const res = await click(`adChannelCode=demo&fingerprint=${fp}-fill-${i}`, ip);
      expect(res.statusCode, res.body).toBe(200);
    }
    const refused = await click(`adChannelCode=demo&fingerprint=${fp}-over`, ip);
    expect(refused.statusCode).toBe(429);
    expect(body(refused).msg).toMatch(/^点击上报过于频繁，请(\d+分钟|1小时)后再试$/);

    // A restart (SIGTERM): what was answered is written before the database closes.
    await app.close();
    app = await start();
    await app.ready();
    expect((await click(`adChannelCode=demo&fingerprint=${fp}-over`, ip)).statusCode).toBe(429);
    // The visitor counted before the restart is not counted again today; a new one is.
    expect(body<Answer>(await click(`adChannelCode=demo&fingerprint=${fp}`)).data).toEqual({
      counted: false,
      flagged: false,
    });
    expect(body<Answer>(await click(`adChannelCode=demo&fingerprint=${fp}-new`)).data).toEqual({
      counted: true,
      flagged: false,
    });
    // 2 + the fill-ups + the new one.
    expect(await countedToday((await staffLogin(app, 'viewer')).token)).toBe(2 + left + 1);
  });
});
