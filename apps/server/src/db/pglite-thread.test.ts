import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, isConnectionError, openDatabase, rowsOf } from './client.ts';
import { PGliteThread } from './pglite-thread.ts';
import { channels } from './schema.ts';

/** A promise and the function that fulfils it: a step of one test waits for a step of another. */
function deferred(): [Promise<void>, () => void] {
  let fulfil!: () => void;
  const promise = new Promise<void>((resolve) => {
    fulfil = resolve;
  });
  return [promise, fulfil];
}

/** The embedded database on its own thread (ADR 047), as the app uses it: drizzle, COPY, transactions. */
describe('the embedded database on a thread of its own', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({});
  });
  afterAll(async () => {
    await database.close();
  });

  it('answers drizzle as PGlite does: identity ids, JSON, timestamps and dates as PostgreSQL writes them', async () => {
    const { db } = database;
    const [row] = await db
      .insert(channels)
      .values({ adChannelCode: 'thread-a', name: '线程', allowedHosts: ['a.example'] })
      .returning();
    expect(row?.id).toEqual(expect.any(Number));
    expect(row?.allowedHosts).toEqual(['a.example']);
    const [read] = await db.select().from(channels).where(eq(channels.adChannelCode, 'thread-a'));
    expect(read?.name).toBe('线程');
    expect(read?.createdAt).toBeInstanceOf(Date);
    const raw = rowsOf<{ at: string; day: string; n: number }>(
      await db.execute(
        sql`select timestamptz '2026-11-29 08:00:00+08' as at, date '2026-11-29' as day, 42 as n`,
      ),
    );
    expect(raw).toEqual([{ at: '2026-11-29 00:00:00+00', day: '2026-11-29', n: 42 }]);
  });

  it("passes PostgreSQL's error on with its code, constraint and detail", async () => {
    const { db } = database;
    await db.insert(channels).values({ adChannelCode: 'thread-dup', name: 'x' });
    const err = await db
      .insert(channels)
      .values({ adChannelCode: 'thread-dup', name: 'y' })
      .then(() => null)
      .catch((e: unknown) => e as { cause?: { code?: string; constraint?: string; detail?: string } });
    expect(err?.cause?.code).toBe('23505');
    expect(err?.cause?.constraint).toBe('channels_ad_channel_code_unique');
    expect(err?.cause?.detail).toContain('thread-dup');
    expect(isConnectionError(err)).toBe(false);
  });

  it('commits a transaction that resolves and rolls back one that throws, passing its error on', async () => {
    const { db } = database;
    await db.transaction(async (tx) => {
      await tx.insert(channels).values({ adChannelCode: 'thread-commit', name: 'c' });
    });
    const failure = new Error('the caller changed its mind');
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(channels).values({ adChannelCode: 'thread-rollback', name: 'r' });
        throw failure;
      }),
    ).rejects.toBe(failure);
    // A nested transaction (a savepoint) rolled back alone.
    await db.transaction(async (tx) => {
      await tx.insert(channels).values({ adChannelCode: 'thread-outer', name: 'o' });
      await tx
        .transaction(async (inner) => {
          await inner.insert(channels).values({ adChannelCode: 'thread-inner', name: 'i' });
          throw new Error('inner only');
        })
        .catch(() => {});
    });
    const codes = (await db.select({ code: channels.adChannelCode }).from(channels)).map((r) => r.code);
    expect(codes).toContain('thread-commit');
    expect(codes).toContain('thread-outer');
    expect(codes).not.toContain('thread-rollback');
    expect(codes).not.toContain('thread-inner');
  });

  it('keeps a statement outside a transaction waiting until the transaction ends', async () => {
    const { db } = database;
    const order: string[] = [];
    const [held, release] = deferred();
    const [inside, begun] = deferred();
    const tx = db.transaction(async (t) => {
      await t.insert(channels).values({ adChannelCode: 'thread-held', name: 'h' });
      begun();
      await held;
      order.push('commit');
    });
    await inside;
    const outside = db
      .select({ code: channels.adChannelCode })
      .from(channels)
      .where(eq(channels.adChannelCode, 'thread-held'))
      .then((rows) => {
        order.push('read');
        return rows;
      });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(order).toEqual([]);
    release();
    await tx;
    expect(await outside).toEqual([{ code: 'thread-held' }]); // it saw the committed row
    expect(order).toEqual(['commit', 'read']);
  });

  it('leaves the event loop free while a long statement runs', async () => {
    const gaps: number[] = [];
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      gaps.push(now - last);
      last = now;
    }, 2);
    const started = performance.now();
    // A statement of a few hundred ms in PGlite's WebAssembly.
    await database.db.execute(sql`select count(*) from generate_series(1, 2000000) g where g % 7 = 3`);
    const took = performance.now() - started;
    clearInterval(timer);
    expect(took).toBeGreaterThan(100);
    // In the API's thread the timer would not have run until the statement ended (one gap of `took`).
    expect(gaps.length).toBeGreaterThan(5);
    expect(Math.max(...gaps)).toBeLessThan(took / 2);
  });
});

describe('the database thread', () => {
  it('keeps what was written across a close and a new start on the same directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lm-pglite-thread-'));
    try {
      const first = await openDatabase({ dataDir: dir });
      await first.db.insert(channels).values({ adChannelCode: 'thread-kept', name: '留存' });
      await first.close();
      const second = await openDatabase({ dataDir: dir });
      const rows = await second.db.select().from(channels).where(eq(channels.adChannelCode, 'thread-kept'));
      await second.close();
      expect(rows.map((r) => r.name)).toEqual(['留存']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails the calls in flight and every later one as "database unavailable" when an in-memory database\'s thread stops', async () => {
    const thread = await PGliteThread.open();
    const inFlight = thread.query('select count(*) from generate_series(1, 3000000)');
    await thread.kill();
    const err = await inFlight.catch((e: unknown) => e);
    expect(isConnectionError(err)).toBe(true);
    expect(isConnectionError(await thread.query('select 1').catch((e: unknown) => e))).toBe(true);
    await thread.close(); // closing a stopped thread is fine
  });

  it('opens a database on disk again on a new thread when its thread stops, with what was committed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lm-pglite-restart-'));
    const events: string[] = [];
    try {
      const thread = await PGliteThread.open(dir, {
        onStopped: (err) => events.push(`stopped: ${err.message}`),
        onRestarted: () => events.push('restarted'),
      });
      await thread.query('create table kept (v text)');
      await thread.query('insert into kept values ($1)', ['committed']);
      // A transaction open when the thread stops (its number, 1, is the new thread's first one too).
      const [begun, began] = deferred();
      const [later, goOn] = deferred();
      const stale = thread.transaction(async (t) => {
        began();
        await later;
        await t.query('insert into kept values ($1)', ['from a transaction of the stopped thread']);
      });
      await begun;
      const inFlight = thread.query('select count(*) from generate_series(1, 3000000)');
      await thread.kill();
      expect(isConnectionError(await inFlight.catch((e: unknown) => e))).toBe(true);
      expect(thread.serving).toBe(false);
      // Meanwhile calls fail fast as "database unavailable".
      expect(isConnectionError(await thread.query('select 1').catch((e: unknown) => e))).toBe(true);
      const until = Date.now() + 60_000;
      while (!thread.serving && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      expect(thread.serving).toBe(true);
      // The stale transaction's statement fails; it does not run in the new thread's transaction 1.
      await thread.transaction(async (t) => {
        goOn();
        expect(isConnectionError(await stale.catch((e: unknown) => e))).toBe(true);
        await t.query('insert into kept values ($1)', ['new thread']);
      });
      expect((await thread.query<{ v: string }>('select v from kept order by v')).rows).toEqual([
        { v: 'committed' },
        { v: 'new thread' },
      ]);
      expect(events).toEqual([expect.stringMatching(/^stopped: PGlite is closed/), 'restarted']);
      await thread.close();
      expect(thread.serving).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses statements after close, as "database unavailable"', async () => {
    const thread = await PGliteThread.open();
    expect((await thread.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
    await thread.close();
    expect(isConnectionError(await thread.query('select 1').catch((e: unknown) => e))).toBe(true);
  });
});
