import { describe, expect, it, vi } from 'vitest';
import { Limiter } from './limiter.ts';
import { type CounterRow, WriteBehindCounterStore } from './write-behind-store.ts';

/** The rate_counters table: rows by key. */
function fakeTable(rows: CounterRow[] = []) {
  const t = {
    rows: new Map(rows.map((r) => [r.key, r])),
    saves: 0,
    failing: null as Error | null,
    async loadPrefix(prefix: string) {
      return [...t.rows.values()].filter(
        (r) => r.key.startsWith(prefix) && r.expiresAt.getTime() > Date.now(),
      );
    },
    async saveMany(rows: CounterRow[]) {
      t.saves++;
      if (t.failing) throw t.failing;
      for (const r of rows) t.rows.set(r.key, { ...r });
    },
  };
  return t;
}

/** Writes happen on timers: wait for them (generously: a busy machine delays timers, not outcomes). */
const WAIT = { timeout: 15_000, interval: 5 };
const fast = { flushDelayMs: 5, retryMs: 5 };
const hour = () => new Date(Date.now() + 3600_000);

describe('per-IP click counters in memory, written behind (ADR 033)', () => {
  it('counts in memory and refuses beyond the limit with the same answer as the database store', async () => {
    const t = fakeTable();
    const store = new WriteBehindCounterStore(t, 'click:ip:', fast);
    const refused: string[] = [];
    const limiter = new Limiter(store, 'database', (k) => refused.push(k));
    for (let i = 1; i <= 3; i++)
      expect((await limiter.consume('click:ip:1.2.3.4', 3, { ms: 3600_000 })).allowed).toBe(true);
    const fourth = await limiter.consume('click:ip:1.2.3.4', 3, { ms: 3600_000 });
    expect(fourth).toMatchObject({ allowed: false, count: 3 });
    expect(fourth.retryAfterMs).toBeGreaterThan(3500_000);
    expect(refused).toEqual(['click:ip:1.2.3.4']);
    // Another address has its own count.
    expect((await limiter.consume('click:ip:5.6.7.8', 3, { ms: 3600_000 })).count).toBe(1);
    // Written a few ms later, the refused attempt given back.
    await vi.waitFor(() => expect(t.rows.get('click:ip:1.2.3.4')?.count).toBe(3), WAIT);
    expect(t.rows.get('click:ip:5.6.7.8')?.count).toBe(1);
    store.stop();
  });

  it('a new process goes on from the stored counts', async () => {
    const t = fakeTable([
      { key: 'click:ip:1.2.3.4', count: 599, expiresAt: hour() },
      { key: 'click:ip:9.9.9.9', count: 5, expiresAt: new Date(Date.now() - 1000) },
      { key: 'sms:ip:1.2.3.4', count: 7, expiresAt: hour() },
    ]);
    const store = new WriteBehindCounterStore(t, 'click:ip:', fast);
    await store.load();
    expect((await store.increment('click:ip:1.2.3.4', hour())).count).toBe(600);
    // An ended window starts again.
    expect((await store.increment('click:ip:9.9.9.9', hour())).count).toBe(1);
    // Keys outside its prefix are not its own.
    expect(() => store.increment('sms:ip:1.2.3.4', hour())).toThrow('not counted by this store');
    await store.flush();
    expect(t.rows.get('click:ip:1.2.3.4')?.count).toBe(600);
    store.stop();
  });

  it('a window ends after its time and a cleared counter is written as ended', async () => {
    const t = fakeTable();
    const store = new WriteBehindCounterStore(t, 'click:ip:', fast);
    // A window's end is kept to the second (ADR 048): one that ends on a whole second, at least 20 ms away.
    const end = Math.ceil((Date.now() + 20) / 1000) * 1000;
    await store.increment('click:ip:a', new Date(end));
    await store.increment('click:ip:b', hour());
    await store.flush();
    await new Promise((r) => setTimeout(r, end - Date.now() + 10));
    expect(await store.get('click:ip:a')).toBeNull();
    expect((await store.increment('click:ip:a', hour())).count).toBe(1);
    await store.clear('click:ip:b');
    expect(await store.get('click:ip:b')).toBeNull();
    await store.flush();
    expect(t.rows.get('click:ip:b')!.expiresAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await t.loadPrefix('click:ip:')).toEqual([
      expect.objectContaining({ key: 'click:ip:a', count: 1 }),
    ]);
    store.stop();
  });

  it('keeps counts through a failing database and writes them when it is back', async () => {
    const t = fakeTable();
    const errors: unknown[] = [];
    const store = new WriteBehindCounterStore(t, 'click:ip:', fast, (err) => errors.push(err));
    t.failing = new Error('database unreachable');
    await store.increment('click:ip:a', hour());
    await store.increment('click:ip:a', hour());
    await expect(store.flush()).rejects.toThrow('database unreachable');
    expect(store.unwritten).toBe(1);
    expect(errors).toHaveLength(1);
    t.failing = null;
    await vi.waitFor(() => expect(t.rows.get('click:ip:a')?.count).toBe(2), WAIT);
    expect(store.unwritten).toBe(0);
    store.stop();
  });

  it('counts below persistFrom stay in memory; a written counter is kept up to date below it too', async () => {
    const t = fakeTable();
    const store = new WriteBehindCounterStore(t, 'click:ip:', { ...fast, persistFrom: 3 });
    await store.increment('click:ip:a', hour());
    await store.increment('click:ip:a', hour());
    await store.increment('click:ip:b', hour());
    await store.flush();
    expect(t.saves).toBe(0);
    expect((await store.get('click:ip:a'))?.count).toBe(2);
    await store.increment('click:ip:a', hour());
    await store.flush();
    expect(t.rows.get('click:ip:a')?.count).toBe(3);
    await store.decrement('click:ip:a');
    await store.flush();
    expect(t.rows.get('click:ip:a')?.count).toBe(2);
    // Loaded counters are written whatever their count.
    const next = new WriteBehindCounterStore(t, 'click:ip:', { ...fast, persistFrom: 3 });
    await next.load();
    await next.increment('click:ip:a', hour());
    await next.flush();
    expect(t.rows.get('click:ip:a')?.count).toBe(3);
    expect(t.rows.has('click:ip:b')).toBe(false);
    store.stop();
    next.stop();
  });

  it('writes a large flush in short statements, a turn of the event loop each (no long stall)', async () => {
    const t = fakeTable();
    const sizes: number[] = [];
    const turns: number[] = [];
    let turn = 0;
    const save = t.saveMany;
    t.saveMany = async (rows) => {
      sizes.push(rows.length);
      turns.push(turn);
      return save(rows);
    };
    const store = new WriteBehindCounterStore(t, 'click:ip:', {
      flushDelayMs: 60_000,
      retryMs: 5,
      maxRowsPerStatement: 100,
    });
    for (let i = 0; i < 250; i++) await store.increment(`click:ip:10.0.${i >> 8}.${i & 255}`, hour());
    // Something else the event loop has to do: it runs between the statements, not after all of them.
    const ticker = setInterval(() => turn++, 0);
    const immediate = () => new Promise<void>((resolve) => setImmediate(resolve));
    const others = (async () => {
      for (let i = 0; i < 20; i++) {
        await immediate();
        turn++;
      }
    })();
    try {
      await store.flush();
    } finally {
      clearInterval(ticker);
    }
    await others;
    expect(sizes).toEqual([100, 100, 50]);
    expect(new Set(turns).size).toBe(3);
    expect(t.rows.size).toBe(250);
    expect(store.unwritten).toBe(0);

    // A statement that fails leaves every key of the flush to be written again.
    for (let i = 0; i < 250; i++) await store.increment(`click:ip:10.0.${i >> 8}.${i & 255}`, hour());
    let calls = 0;
    t.saveMany = async (rows) => {
      calls++;
      if (calls === 2) throw new Error('database gone');
      return save(rows);
    };
    await expect(store.flush()).rejects.toThrow('database gone');
    expect(store.unwritten).toBe(250);
    t.saveMany = save;
    await store.flush();
    expect(store.unwritten).toBe(0);
    expect([...t.rows.values()].every((r) => r.count === 2)).toBe(true);
    store.stop();
  });

  it('sweeps ended windows a shard at a time, and all of them in sweepSteps calls (ADR 048)', async () => {
    const t = fakeTable();
    // persistFrom 3: counts of 1 stay in memory only, as a new visitor's do.
    const store = new WriteBehindCounterStore(t, 'click:ip:', { ...fast, persistFrom: 3 });
    const soon = new Date(Date.now() + 1000);
    for (let i = 0; i < 2000; i++) await store.increment(`click:ip:10.1.${i >> 8}.${i & 255}`, soon);
    for (let i = 0; i < 500; i++) await store.increment(`click:ip:10.2.${i >> 8}.${i & 255}`, hour());
    expect(store.size).toBe(2500);
    const later = Date.now() + 2000;
    // One call walks one shard: some ended windows go, not all of them.
    store.sweep(later);
    expect(store.size).toBeLessThan(2500);
    expect(store.size).toBeGreaterThan(500);
    for (let k = 1; k < store.sweepSteps; k++) store.sweep(later);
    expect(store.size).toBe(500);
    // The live windows go on counting from where they were.
    expect((await store.increment('click:ip:10.2.0.7', hour())).count).toBe(2);
    // A counter not written yet stays until it is written, then goes with the next sweep.
    for (let i = 0; i < 3; i++) await store.increment('click:ip:10.3.0.1', soon);
    for (let k = 0; k < store.sweepSteps; k++) store.sweep(later);
    expect(store.size).toBe(501);
    await store.flush();
    expect(t.rows.get('click:ip:10.3.0.1')?.count).toBe(3);
    for (let k = 0; k < store.sweepSteps; k++) store.sweep(later);
    expect(store.size).toBe(500);
    store.stop();
  });
});
