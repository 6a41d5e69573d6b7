import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { channelClicks } from '../src/db/schema.ts';
import { CLICKS_PER_IP_PER_HOUR } from '../src/modules/channels/service.ts';
import { BACKEND, body, newIp, useSecondInstance, useTestApp } from './helpers.ts';

/**
 * The click report on two instances sharing a database (issue 45.3, ADR 063): every click's row is stored before
 * its answer; a fingerprint is counted once per channel per Shanghai day across instances (the database's unique
 * index; with Redis, a returning visitor is answered by Redis's `SET NX` claim without a statement).
 */
const ctx = useTestApp();
const b = useSecondInstance(ctx);

type Answer = { counted: boolean; flagged: boolean };
const click = (app: FastifyInstance, qs: string, ip = newIp()) =>
  app.inject({ method: 'GET', url: `/api/reportAdChannelClick?${qs}`, remoteAddress: ip });
const rowsOf = (code: string) =>
  ctx.app.database.db.select().from(channelClicks).where(eq(channelClicks.adChannelCode, code));

describe(`clicks on two instances sharing a database (${BACKEND})`, () => {
  it('counts each fingerprint once in a concurrent burst over both instances; flagged clicks all stored', async () => {
    const code = 'demo-skin14';
    const fingerprints = Array.from({ length: 12 }, (_, i) => `burst-${Date.now().toString(36)}-${i}`);
    // Each fingerprint four times (twice on each instance), and six clicks without one, all at once.
    const calls = [
      ...fingerprints.flatMap((fp, i) =>
        [0, 1, 2, 3].map((k) => ({
          app: (i + k) % 2 === 0 ? ctx.app : b.app,
          qs: `adChannelCode=${code}&fingerprint=${fp}`,
        })),
      ),
      ...Array.from({ length: 6 }, (_, k) => ({ app: k % 2 ? b.app : ctx.app, qs: `adChannelCode=${code}` })),
    ];
    const answers = await Promise.all(calls.map((c) => click(c.app, c.qs)));
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    const data = answers.map((res) => body<Answer>(res).data);
    const counted = data.filter((d) => d.counted);
    expect(counted).toHaveLength(fingerprints.length);
    expect(data.filter((d) => !d.counted && !d.flagged)).toHaveLength(fingerprints.length * 3);
    expect(data.filter((d) => d.flagged)).toEqual(Array(6).fill({ counted: false, flagged: true }));
    // Exactly one counted answer per fingerprint.
    for (const fp of fingerprints) {
      const mine = calls.flatMap((c, i) => (c.qs.endsWith(`=${fp}`) ? [data[i]!] : []));
      expect(
        mine.filter((d) => d.counted),
        fp,
      ).toHaveLength(1);
    }
    // Every accepted click is written before its answer.
    const rows = await rowsOf(code);
    expect(rows.filter((r) => r.fingerprintHash !== null)).toHaveLength(fingerprints.length);
    expect(rows.filter((r) => r.flagged && r.fingerprintHash === null)).toHaveLength(6);

    // Repeats later in the day: not counted, on either instance, and nothing more stored.
    for (const app of [ctx.app, b.app]) {
      for (const fp of fingerprints.slice(0, 3)) {
        expect(body<Answer>(await click(app, `adChannelCode=${code}&fingerprint=${fp}`)).data).toEqual({
          counted: false,
          flagged: false,
        });
      }
    }
    expect((await rowsOf(code)).filter((r) => r.fingerprintHash !== null)).toHaveLength(fingerprints.length);
  });

  it('a fingerprint counted on one instance is not counted again on the other', async () => {
    const fp = `cross-${Date.now().toString(36)}`;
    const qs = `adChannelCode=demo-skin15&fingerprint=${fp}`;
    expect(body<Answer>(await click(ctx.app, qs)).data).toEqual({ counted: true, flagged: false });
    expect(body<Answer>(await click(b.app, qs)).data).toEqual({ counted: false, flagged: false });
    expect(body<Answer>(await click(ctx.app, qs)).data).toEqual({ counted: false, flagged: false });
  });

  it('an unknown channel answers 404 and stores nothing, in a burst too', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        click(i % 2 ? b.app : ctx.app, `adChannelCode=ghost-burst&fingerprint=g${i}`),
      ),
    );
    for (const res of answers) {
      expect(res.statusCode).toBe(404);
      expect(body(res)).toMatchObject({ code: 404, msg: '渠道不存在' });
    }
    expect(await rowsOf('ghost-burst')).toHaveLength(0);
  });

  it(`keeps the per-IP cap of ${CLICKS_PER_IP_PER_HOUR} exactly under concurrent clicks on both instances`, async () => {
    const ip = newIp();
    const over = 12;
    const statuses: number[] = [];
    // Bursts of 60 at once, alternating instances, so batches hold the same IP many times.
    for (let i = 0; i < CLICKS_PER_IP_PER_HOUR + over; i += 60) {
      const n = Math.min(60, CLICKS_PER_IP_PER_HOUR + over - i);
      const res = await Promise.all(
        Array.from({ length: n }, (_, k) =>
          click(k % 2 ? b.app : ctx.app, `adChannelCode=demo-skin16&fingerprint=cap-${i + k}`, ip),
        ),
      );
      statuses.push(...res.map((r) => r.statusCode));
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(CLICKS_PER_IP_PER_HOUR);
    expect(statuses.filter((s) => s === 429)).toHaveLength(over);
    const refused = await click(b.app, 'adChannelCode=demo-skin16&fingerprint=cap-late', ip);
    expect(refused.statusCode).toBe(429);
    expect(body(refused).msg).toMatch(/^点击上报过于频繁，请.+后再试$/);
  });
});
