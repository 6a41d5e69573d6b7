import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DbCounterStore } from '../src/modules/limits/db-store.ts';
import { Limiter } from '../src/modules/limits/limiter.ts';
import { RedisCounterStore } from '../src/modules/limits/redis-store.ts';
import { BACKEND, createTestApp, type TestContext } from './helpers.ts';

/**
 * The limiter's "several limits at once" (the SMS send caps: per IP, per phone per minute / hour /
 * day, per device) against the store this backend uses: the database always, Redis when the run
 * has one. All or nothing: a refused attempt counts against none of the limits.
 */
let ctx: TestContext;
const stores: [string, () => Limiter][] = [];
beforeAll(async () => {
  ctx = await createTestApp();
  stores.push([
    'database',
    () => new Limiter(new DbCounterStore(ctx.app.database.db, `t${rand()}:`), 'database'),
  ]);
  if (ctx.app.redis) {
    stores.push(['redis', () => new Limiter(new RedisCounterStore(ctx.app.redis!, `t${rand()}:`), 'redis')]);
  }
});
afterAll(async () => ctx?.close());

const rand = () => randomBytes(4).toString('hex');
const HOUR = { ms: 3600_000 };

describe(`limiter: several limits at once (${BACKEND})`, () => {
  it('counts every limit once per allowed attempt, and none for a refused one', async () => {
    for (const [name, make] of stores) {
      const limiter = make();
      const rules = [
        { key: 'ip', limit: 5, window: HOUR, reason: 'ip' },
        { key: 'phone', limit: 2, window: { ms: 60_000 }, reason: 'phone per minute' },
        { key: 'device', limit: 5, window: HOUR, reason: 'device' },
      ];
      // Allowed: each key's count after the attempt, in the order of the rules.
      expect(await limiter.consumeAll(rules), name).toEqual({ allowed: true, counts: [1, 1, 1] });
      expect(await limiter.consumeAll(rules), name).toEqual({ allowed: true, counts: [2, 2, 2] });
      const refused = await limiter.consumeAll(rules);
      expect(refused, name).toMatchObject({ allowed: false, reason: 'phone per minute' });
      // The wait is the phone window's remaining time (about a minute), not the hour of the others.
      expect(refused.allowed === false && refused.retryAfterMs, name).toBeGreaterThan(50_000);
      expect(refused.allowed === false && refused.retryAfterMs, name).toBeLessThanOrEqual(60_000);
      // The refusal counted against none of them: 2 each.
      for (const key of ['ip', 'phone', 'device']) {
        expect((await limiter.store.get(key))?.count, `${name} ${key}`).toBe(2);
      }
      // Other phones from the same IP and device still pass, until the IP's 5.
      const withPhone = (phone: string) => rules.map((r) => (r.key === 'phone' ? { ...r, key: phone } : r));
      for (const phone of ['p2', 'p3', 'p4']) {
        expect(await limiter.consumeAll(withPhone(phone)), name).toMatchObject({ allowed: true });
      }
      expect(await limiter.consumeAll(withPhone('p5')), name).toMatchObject({ allowed: false, reason: 'ip' });
      expect((await limiter.store.get('ip'))?.count, name).toBe(5);
      expect((await limiter.store.get('p5'))?.count ?? 0, name).toBe(0);
    }
  });

  it('lets exactly the limit through when attempts race, whatever order their keys come in', async () => {
    for (const [name, make] of stores) {
      const limiter = make();
      // 40 concurrent attempts sharing two keys listed in opposite orders (a store that locked them
      // in list order could deadlock); the shared IP allows 12.
      const attempts = Array.from({ length: 40 }, (_, i) => {
        const rules = [
          { key: 'shared-ip', limit: 12, window: HOUR, reason: 'ip' },
          { key: 'shared-device', limit: 100, window: HOUR, reason: 'device' },
          { key: `phone-${i}`, limit: 1, window: HOUR, reason: 'phone' },
        ];
        return limiter.consumeAll(i % 2 ? rules : [...rules].reverse());
      });
      const results = await Promise.all(attempts);
      expect(results.filter((r) => r.allowed).length, name).toBe(12);
      expect((await limiter.store.get('shared-ip'))?.count, name).toBe(12);
      expect((await limiter.store.get('shared-device'))?.count, name).toBe(12);
    }
  });

  it('reserve-then-settle: racing reservations get distinct counts, exactly one sees the limit reached', async () => {
    for (const [name, make] of stores) {
      const limiter = make();
      // 40 password tries at once on one account from one address (staff login, issue 15).
      const results = await Promise.all(
        Array.from({ length: 40 }, () =>
          limiter.consumeAll([
            { key: 'pair', limit: 5, window: { ms: 900_000 }, reason: 'pair' },
            { key: 'account', limit: 100, window: HOUR, reason: 'account' },
          ]),
        ),
      );
      const allowed = results.flatMap((r) => (r.allowed ? [r.counts] : []));
      expect(allowed.map((c) => c[0]).sort(), name).toEqual([1, 2, 3, 4, 5]);
      expect(allowed.map((c) => c[1]).sort(), name).toEqual([1, 2, 3, 4, 5]);
      // Refusals counted against neither: the five reserved units are what remains.
      expect((await limiter.store.get('pair'))?.count, name).toBe(5);
      expect((await limiter.store.get('account'))?.count, name).toBe(5);
    }
  });

  it('answers several counters in the order asked, each with its own window', async () => {
    for (const [name, make] of stores) {
      const { store } = make();
      const now = Date.now();
      await store.increment('b', new Date(now + 60_000));
      const hits = await store.incrementMany!([
        { key: 'c', expiresAt: new Date(now + 3600_000) },
        { key: 'b', expiresAt: new Date(now + 3600_000) },
        { key: 'a', expiresAt: new Date(now + 120_000) },
      ]);
      expect(
        hits.map((h) => h.count),
        name,
      ).toEqual([1, 2, 1]);
      // 'b' keeps the end of the window its first hit started.
      expect(Math.abs(hits[1]!.resetAt.getTime() - (now + 60_000)), name).toBeLessThan(2000);
      expect(Math.abs(hits[2]!.resetAt.getTime() - (now + 120_000)), name).toBeLessThan(2000);
    }
  });
});

describe(`limiter counts after Redis forgot its scripts (${BACKEND})`, () => {
  it('a Redis restarted (SCRIPT FLUSH) still counts each hit once, single and in a batch', async () => {
    for (const [name, make] of stores) {
      const limiter = make();
      const store = limiter.store;
      const ends = new Date(Date.now() + 60_000);
      expect((await store.increment('a', ends)).count, name).toBe(1);
      // A Redis that restarted (or flushed its script cache) answers NOSCRIPT to the script's SHA.
      if (name === 'redis') await ctx.app.redis!.script('FLUSH');
      expect((await store.increment('a', ends)).count, name).toBe(2);
      if (name === 'redis') await ctx.app.redis!.script('FLUSH');
      const many = await store.incrementMany!([
        { key: 'a', expiresAt: ends },
        { key: 'b', expiresAt: ends },
      ]);
      expect(
        many.map((h) => h.count),
        name,
      ).toEqual([3, 1]);
      for (const h of many) {
        expect(h.resetAt.getTime(), name).toBeGreaterThan(Date.now() + 50_000);
        expect(h.resetAt.getTime(), name).toBeLessThanOrEqual(ends.getTime() + 1_000);
      }
    }
  });
});
