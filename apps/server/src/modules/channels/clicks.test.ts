import { describe, expect, it, vi } from 'vitest';
import { ClickRecorder, type ClickRow, compareKeys } from './clicks.ts';

const row = (adChannelCode: string, fingerprintHash: string | null, day = '2026-11-26'): ClickRow => ({
  adChannelCode,
  fingerprintHash,
  day,
  abTestType: null,
  ip: '127.0.0.1',
  at: new Date(),
});

describe('click batches are written in the unique key’s order', () => {
  it('sorts by channel, fingerprint hash, day; rows without a fingerprint last', () => {
    // Two instances writing overlapping clicks in different orders deadlocked on PostgreSQL (CI,
    // 2026-11-26): every batch takes its keys in this one order instead.
    const rows = [
      row('b', 'h1'),
      row('a', null),
      row('a', 'h2'),
      row('a', 'h1', '2026-11-27'),
      row('a', 'h1'),
    ];
    const sorted = [...rows].sort(compareKeys).map((r) => `${r.adChannelCode}/${r.fingerprintHash}/${r.day}`);
    expect(sorted).toEqual([
      'a/h1/2026-11-26',
      'a/h1/2026-11-27',
      'a/h2/2026-11-26',
      'a/null/2026-11-26',
      'b/h1/2026-11-26',
    ]);
    // The same order whatever order the batch arrived in.
    expect([...rows].reverse().sort(compareKeys)).toEqual([...rows].sort(compareKeys));
  });
});

/** A table with the unique index's behaviour: a fingerprint once per channel per day. */
function fakeTable() {
  const stored: ClickRow[] = [];
  const t = {
    stored,
    statements: 0,
    failing: null as Error | null,
    async insertClicks(rows: ClickRow[]) {
      t.statements++;
      await new Promise((r) => setTimeout(r, 1));
      if (t.failing) throw t.failing;
      const out: { ad_channel_code: string; fingerprint_hash: string | null; day: string }[] = [];
      for (const r of rows) {
        const dup =
          r.fingerprintHash !== null &&
          stored.some(
            (s) =>
              s.adChannelCode === r.adChannelCode &&
              s.fingerprintHash === r.fingerprintHash &&
              s.day === r.day,
          );
        if (dup) continue;
        stored.push(r);
        out.push({ ad_channel_code: r.adChannelCode, fingerprint_hash: r.fingerprintHash, day: r.day });
      }
      return out;
    },
  };
  return t;
}

/** Writes happen on timers: wait for them (generously: a busy machine delays timers, not outcomes). */
const WAIT = { timeout: 15_000, interval: 5 };
const fast = { flushDelayMs: 5, retryMs: 5 };

describe('clicks answered before their rows are written (ADR 033)', () => {
  it('without adopt every click waits for its row', async () => {
    const t = fakeTable();
    const rec = new ClickRecorder(t, fast);
    const answer = rec.report(row('c', 'h1'));
    expect(answer).toBeInstanceOf(Promise);
    expect(await answer).toBe(true);
    expect(await rec.report(row('c', 'h1'))).toBe(false);
    expect(rec.writeBehind).toBe(false);
  });

  it('decides counted from memory at once and writes the burst in one statement', async () => {
    const t = fakeTable();
    const rec = new ClickRecorder(t, fast);
    // Yesterday's process had stored h0 today.
    rec.adopt('2026-11-26', [{ adChannelCode: 'c', fingerprintHash: 'h0' }]);
    expect(rec.report(row('c', 'h0'))).toBe(false);
    expect(rec.report(row('c', 'h1'))).toBe(true);
    expect(rec.report(row('c', 'h1'))).toBe(false);
    expect(rec.report(row('d', 'h1'))).toBe(true);
    expect(rec.report(row('c', null))).toBe(false); // flagged: stored, never counted
    expect(t.stored).toHaveLength(0);
    expect(rec.unwritten).toBe(3);
    await rec.settle();
    expect(t.statements).toBe(1);
    expect(t.stored.map((r) => `${r.adChannelCode}/${r.fingerprintHash}`).sort()).toEqual([
      'c/h1',
      'c/null',
      'd/h1',
    ]);
    expect(rec.unwritten).toBe(0);
  });

  it('writes on its own after flushDelayMs, without anyone waiting', async () => {
    const t = fakeTable();
    const rec = new ClickRecorder(t, { flushDelayMs: 10 });
    rec.adopt('2026-11-26', []);
    expect(rec.report(row('c', 'h1'))).toBe(true);
    await vi.waitFor(() => expect(t.stored).toHaveLength(1), WAIT);
  });

  it('keeps answered clicks through a failing database and writes each once when it is back', async () => {
    const t = fakeTable();
    const errors: number[] = [];
    const rec = new ClickRecorder(t, fast, (_err, rows) => errors.push(rows));
    rec.adopt('2026-11-26', []);
    t.failing = new Error('database unreachable');
    expect(rec.report(row('c', 'h1'))).toBe(true);
    expect(rec.report(row('c', 'h2'))).toBe(true);
    await expect(rec.settle()).rejects.toThrow('database unreachable');
    expect(errors[0]).toBe(2);
    expect(rec.unwritten).toBe(2);
    // Still known while unwritten: a repeat is not counted twice.
    expect(rec.report(row('c', 'h1'))).toBe(false);
    t.failing = null;
    await vi.waitFor(() => expect(t.stored).toHaveLength(2), WAIT);
    await rec.settle();
    expect(rec.unwritten).toBe(0);
    expect(t.stored.map((r) => r.fingerprintHash).sort()).toEqual(['h1', 'h2']);
  });

  it('a click waits for its row again once maxPending clicks are unwritten (back-pressure)', async () => {
    const t = fakeTable();
    const rec = new ClickRecorder(t, { ...fast, maxPending: 2 });
    rec.adopt('2026-11-26', []);
    t.failing = new Error('stuck');
    expect(rec.report(row('c', 'h1'))).toBe(true);
    expect(rec.report(row('c', 'h2'))).toBe(true);
    const third = rec.report(row('c', 'h3'));
    expect(third).toBeInstanceOf(Promise);
    await expect(third).rejects.toThrow('stuck');
    t.failing = null;
    await vi.waitFor(() => expect(rec.unwritten).toBe(0), WAIT);
    expect(t.stored).toHaveLength(2);
  });

  it('a new Shanghai day starts with nothing counted', async () => {
    const t = fakeTable();
    const rec = new ClickRecorder(t, fast);
    rec.adopt('2026-11-26', [{ adChannelCode: 'c', fingerprintHash: 'h1' }]);
    expect(rec.report(row('c', 'h1', '2026-11-26'))).toBe(false);
    expect(rec.report(row('c', 'h1', '2026-11-27'))).toBe(true);
    expect(rec.report(row('c', 'h1', '2026-11-27'))).toBe(false);
    await rec.settle();
    expect(t.stored).toHaveLength(1);
  });

  it('once memory forgets keys it waits for rows, until the next day', async () => {
    const t = fakeTable();
    const rec = new ClickRecorder(t, { ...fast, maxKnown: 10 });
    rec.adopt(
      '2026-11-26',
      Array.from({ length: 10 }, (_, i) => ({ adChannelCode: 'c', fingerprintHash: `old${i}` })),
    );
    expect(rec.report(row('c', 'n1'))).toBe(true); // the 11th key: the oldest are forgotten
    expect(rec.writeBehind).toBe(false);
    await rec.settle();
    // A forgotten key goes to the table, which knows it.
    t.stored.push(row('c', 'old0'));
    expect(await rec.report(row('c', 'old0'))).toBe(false);
    expect(await rec.report(row('c', 'n2'))).toBe(true);
    await rec.settle();
    expect(rec.report(row('c', 'n2', '2026-11-27'))).toBe(true);
    expect(rec.writeBehind).toBe(true);
  });

  it('adopting more keys than it keeps stays awaited', () => {
    const rec = new ClickRecorder(fakeTable(), { ...fast, maxKnown: 2 });
    rec.adopt(
      '2026-11-26',
      ['a', 'b', 'c'].map((h) => ({ adChannelCode: 'c', fingerprintHash: h })),
    );
    expect(rec.writeBehind).toBe(false);
    expect(rec.report(row('c', 'x'))).toBeInstanceOf(Promise);
  });
});
