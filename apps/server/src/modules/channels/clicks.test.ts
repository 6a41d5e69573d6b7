import { describe, expect, it, vi } from 'vitest';
import { parseClickCopy } from './click-copy.ts';
import type { Claim, ClaimGate, Refused } from './click-ledger.ts';
import { type ClickGate, ClickRecorder, type ClickRow, compareKeys } from './clicks.ts';

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

/**
 * A table with the unique index's behaviour: a fingerprint once per channel per day. `asText`: it takes
 * write-behind rows as COPY text, as the repository does on the embedded PGlite (ADR 052).
 */
function fakeTable(asText = false) {
  const stored: ClickRow[] = [];
  const t = {
    stored,
    statements: 0,
    /** The COPY texts handed over (`asText`). */
    texts: [] as string[],
    appendsText: asText,
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
    /** The repository's append (COPY, or the insert when a key is there): stored like the insert. */
    async appendClicks(rows: ClickRow[]) {
      await t.insertClicks(rows);
    },
    async appendClickText(text: string) {
      t.texts.push(text);
      await t.insertClicks(parseClickCopy(text));
    },
  };
  return t;
}

/** Writes happen on timers: wait for them (generously: a busy machine delays timers, not outcomes). */
const WAIT = { timeout: 15_000, interval: 5 };
const fast = { flushDelayMs: 5, retryMs: 5 };

describe.each([
  { rowsAs: 'objects', asText: false },
  { rowsAs: 'COPY text', asText: true },
])('clicks answered before their rows are written (ADR 033), rows kept as $rowsAs', ({ asText }) => {
  it('without adopt every click waits for its row', async () => {
    const t = fakeTable(asText);
    const rec = new ClickRecorder(t, fast);
    const answer = rec.report(row('c', 'h1'));
    expect(answer).toBeInstanceOf(Promise);
    expect(await answer).toBe(true);
    expect(await rec.report(row('c', 'h1'))).toBe(false);
    expect(rec.writeBehind).toBe(false);
  });

  it('decides counted from memory at once and writes the burst in one statement', async () => {
    const t = fakeTable(asText);
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
    const t = fakeTable(asText);
    const rec = new ClickRecorder(t, { flushDelayMs: 10 });
    rec.adopt('2026-11-26', []);
    expect(rec.report(row('c', 'h1'))).toBe(true);
    await vi.waitFor(() => expect(t.stored).toHaveLength(1), WAIT);
  });

  it('keeps answered clicks through a failing database and writes each once when it is back', async () => {
    const t = fakeTable(asText);
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
    const t = fakeTable(asText);
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
    const t = fakeTable(asText);
    const rec = new ClickRecorder(t, fast);
    rec.adopt('2026-11-26', [{ adChannelCode: 'c', fingerprintHash: 'h1' }]);
    expect(rec.report(row('c', 'h1', '2026-11-26'))).toBe(false);
    expect(rec.report(row('c', 'h1', '2026-11-27'))).toBe(true);
    expect(rec.report(row('c', 'h1', '2026-11-27'))).toBe(false);
    await rec.settle();
    expect(t.stored).toHaveLength(1);
  });

  it('once memory is full it waits for rows, until the next day', async () => {
    const t = fakeTable(asText);
    const rec = new ClickRecorder(t, { ...fast, maxKnown: 10 });
    rec.adopt(
      '2026-11-26',
      Array.from({ length: 10 }, (_, i) => ({ adChannelCode: 'c', fingerprintHash: `old${i}` })),
    );
    expect(rec.report(row('c', 'n1'))).toBe(true); // the 11th key: not kept, memory no longer has them all
    expect(rec.writeBehind).toBe(false);
    expect(rec.known('c', 'old0', '2026-11-26')).toBe(true); // the keys it holds stay known
    expect(rec.known('c', 'n1', '2026-11-26')).toBe(false);
    await rec.settle();
    // A key memory does not hold goes to the table, which knows it.
    expect(await rec.report(row('c', 'n1'))).toBe(false);
    expect(await rec.report(row('c', 'n2'))).toBe(true);
    await rec.settle();
    expect(rec.report(row('c', 'n2', '2026-11-27'))).toBe(true);
    expect(rec.writeBehind).toBe(true);
  });

  it('adopting more keys than it keeps stays awaited', () => {
    const rec = new ClickRecorder(fakeTable(asText), { ...fast, maxKnown: 2 });
    rec.adopt(
      '2026-11-26',
      ['a', 'b', 'c'].map((h) => ({ adChannelCode: 'c', fingerprintHash: h })),
    );
    expect(rec.writeBehind).toBe(false);
    expect(rec.report(row('c', 'x'))).toBeInstanceOf(Promise);
  });

  it('hands the rows written behind over as COPY text on the embedded database (ADR 052), once each', async () => {
    const t = fakeTable(asText);
    const rec = new ClickRecorder(t, fast);
    rec.adopt('2026-11-26', []);
    t.failing = new Error('database unreachable');
    expect(rec.report(row('c', 'h1'))).toBe(true);
    expect(rec.report(row('c', null))).toBe(false);
    await expect(rec.settle()).rejects.toThrow('database unreachable');
    t.failing = null;
    expect(rec.report(row('c', 'h2'))).toBe(true);
    await vi.waitFor(() => expect(rec.unwritten).toBe(0), WAIT);
    await rec.settle();
    expect(t.stored.map((r) => `${r.adChannelCode}/${r.fingerprintHash}`).sort()).toEqual([
      'c/h1',
      'c/h2',
      'c/null',
    ]);
    if (asText) {
      // The failed batch tried again as it was, then the later row: nothing lost, nothing written twice.
      expect(t.texts.map((x) => parseClickCopy(x).map((r) => r.fingerprintHash))).toEqual([
        ['h1', null],
        ['h1', null],
        ['h2'],
      ]);
    } else expect(t.texts).toEqual([]);
  });
});

/** A shared ledger (Redis in production): a key claimed once; `complete` false answers `unknown`. */
function fakeLedger() {
  const keys = new Set<string>();
  const l = {
    keys,
    complete: true,
    failing: null as Error | null,
    claims: 0,
    backfilled: [] as string[],
    /** The gates' counters, as the ledger's script keeps them (ADR 035). */
    counters: new Map<string, number>(),
    async claim(code: string, hash: string, day: string, gate?: ClaimGate): Promise<Claim | Refused> {
      l.claims++;
      await new Promise((r) => setTimeout(r, 1));
      if (l.failing) throw l.failing;
      if (gate) {
        const count = (l.counters.get(gate.key) ?? 0) + 1;
        if (count > gate.limit) return { refused: true, retryAfterMs: gate.windowMs };
        l.counters.set(gate.key, count);
      }
      const key = `${day}/${code}/${hash}`;
      const isNew = !keys.has(key);
      keys.add(key);
      return l.complete ? (isNew ? 'new' : 'seen') : 'unknown';
    },
    stored(code: string, hash: string, day: string) {
      l.backfilled.push(`${day}/${code}/${hash}`);
    },
  };
  return l;
}

describe('clicks decided by a shared ledger (ADR 034)', () => {
  it('counts what the ledger claimed new and writes it behind; a repeat writes nothing', async () => {
    const t = fakeTable();
    const ledger = fakeLedger();
    const rec = new ClickRecorder(t, fast);
    rec.useLedger(ledger);
    expect(rec.ledgerMode).toBe(true);
    const answers = await Promise.all([
      rec.report(row('c', 'h1')),
      rec.report(row('c', 'h1')),
      rec.report(row('d', 'h1')),
    ]);
    expect(answers).toEqual([true, false, true]);
    expect(t.stored).toHaveLength(0); // answered before written
    await rec.settle();
    expect(t.stored.map((r) => `${r.adChannelCode}/${r.fingerprintHash}`).sort()).toEqual(['c/h1', 'd/h1']);
    // Nothing kept in memory: every click asks the ledger, which counts the per-IP limit in the same
    // call (ADR 035), so a key in memory would save no round trip.
    expect(rec.known('c', 'h1', '2026-11-26')).toBe(false);
    expect(rec.knownSize).toBe(0);
  });

  it('a fingerprint another instance claimed is not counted here', async () => {
    const t = fakeTable();
    const ledger = fakeLedger();
    ledger.keys.add('2026-11-26/c/h9'); // claimed elsewhere
    const rec = new ClickRecorder(t, fast);
    rec.useLedger(ledger);
    expect(await rec.report(row('c', 'h9'))).toBe(false);
    await rec.settle();
    expect(t.stored).toHaveLength(0);
  });

  it('when the ledger cannot tell, the table decides and the click waits for its row', async () => {
    const t = fakeTable();
    t.stored.push(row('c', 'old')); // stored before Redis lost its copy
    const ledger = fakeLedger();
    ledger.complete = false;
    const rec = new ClickRecorder(t, fast);
    rec.useLedger(ledger);
    expect(await rec.report(row('c', 'old'))).toBe(false);
    const fresh = rec.report(row('c', 'fresh'));
    expect(fresh).toBeInstanceOf(Promise);
    expect(await fresh).toBe(true);
    expect(t.stored).toHaveLength(2); // written before the answer
    expect(ledger.keys.has('2026-11-26/c/fresh')).toBe(true); // claimed all the same
  });

  it('when the ledger fails, the table decides and the ledger learns the counted click later', async () => {
    const t = fakeTable();
    const ledger = fakeLedger();
    ledger.failing = new Error('redis unreachable');
    const rec = new ClickRecorder(t, fast);
    rec.useLedger(ledger);
    expect(await rec.report(row('c', 'h1'))).toBe(true);
    expect(t.stored).toHaveLength(1);
    expect(ledger.backfilled).toEqual(['2026-11-26/c/h1']);
    // A repeat the table refuses is not handed to the ledger again.
    expect(await rec.report(row('c', 'h1'))).toBe(false);
    expect(ledger.backfilled).toHaveLength(1);
  });

  it('clicks without a fingerprint are stored flagged behind their answers, without a claim', async () => {
    const t = fakeTable();
    const ledger = fakeLedger();
    const rec = new ClickRecorder(t, fast);
    rec.useLedger(ledger);
    expect(rec.report(row('c', null))).toBe(false);
    expect(rec.report(row('c', null))).toBe(false);
    expect(ledger.claims).toBe(0);
    await rec.settle();
    expect(t.stored).toHaveLength(2);
  });

  it('keeps claimed clicks through a failing database; back-pressure past maxPending', async () => {
    const t = fakeTable();
    const ledger = fakeLedger();
    const rec = new ClickRecorder(t, { ...fast, maxPending: 2 });
    rec.useLedger(ledger);
    t.failing = new Error('stuck');
    expect(await rec.report(row('c', 'h1'))).toBe(true);
    expect(await rec.report(row('c', 'h2'))).toBe(true);
    expect(rec.unwritten).toBe(2);
    // The third waits for its row (and the database's error); its key is claimed all the same.
    await expect(rec.report(row('c', 'h3'))).rejects.toThrow('stuck');
    expect(ledger.keys.has('2026-11-26/c/h3')).toBe(true);
    t.failing = null;
    await vi.waitFor(() => expect(rec.unwritten).toBe(0), WAIT);
    expect(t.stored.map((r) => r.fingerprintHash).sort()).toEqual(['h1', 'h2']);
  });
});

/** The per-IP limit as the service passes it: `enforce` is the limiter's own count (a map here). */
function gateOf(counters: Map<string, number>, key = 'click:ip:1.2.3.4', limit = 2) {
  const enforced: string[] = [];
  const gate: ClickGate = {
    rule: { key, limit, windowMs: 3_600_000 },
    async enforce() {
      enforced.push(key);
      const count = (counters.get(key) ?? 0) + 1;
      if (count > limit) throw new Error('limited by the limiter');
      counters.set(key, count);
    },
    refuse: (ms) => new Error(`limited by the ledger for ${ms} ms`),
  };
  return { gate, enforced };
}

describe('the per-IP limit counted with the claim (ADR 035)', () => {
  it("a new visitor's click is limited by the claim itself: refused clicks claim and store nothing", async () => {
    const t = fakeTable();
    const ledger = fakeLedger();
    const rec = new ClickRecorder(t, fast);
    rec.useLedger(ledger);
    const { gate, enforced } = gateOf(ledger.counters);
    expect(await rec.report(row('c', 'h1'), gate)).toBe(true);
    expect(await rec.report(row('c', 'h2'), gate)).toBe(true);
    await expect(rec.report(row('c', 'h3'), gate)).rejects.toThrow('limited by the ledger for 3600000 ms');
    expect(enforced).toEqual([]); // one round trip: the ledger counted the limit
    expect(ledger.keys.has('2026-11-26/c/h3')).toBe(false);
    expect(rec.known('c', 'h3', '2026-11-26')).toBe(false);
    await rec.settle();
    expect(t.stored.map((r) => r.fingerprintHash).sort()).toEqual(['h1', 'h2']);
  });

  it('when the ledger fails, the limiter counts the limit before the table decides', async () => {
    const t = fakeTable();
    const ledger = fakeLedger();
    ledger.failing = new Error('redis unreachable');
    const rec = new ClickRecorder(t, fast);
    rec.useLedger(ledger);
    const counters = new Map<string, number>();
    const { gate, enforced } = gateOf(counters);
    expect(await rec.report(row('c', 'h1'), gate)).toBe(true);
    expect(await rec.report(row('c', 'h2'), gate)).toBe(true);
    await expect(rec.report(row('c', 'h3'), gate)).rejects.toThrow('limited by the limiter');
    expect(enforced).toHaveLength(3);
    expect(t.stored.map((r) => r.fingerprintHash).sort()).toEqual(['h1', 'h2']);
  });

  it('without a ledger (or without a fingerprint) the limiter counts the limit first', async () => {
    const t = fakeTable();
    const rec = new ClickRecorder(t, fast);
    const counters = new Map<string, number>();
    const { gate, enforced } = gateOf(counters, 'click:ip:5.6.7.8', 1);
    expect(await rec.report(row('c', 'h1'), gate)).toBe(true);
    await expect(rec.report(row('c', 'h2'), gate)).rejects.toThrow('limited by the limiter');
    expect(enforced).toHaveLength(2);
    expect(t.stored).toHaveLength(1);

    const ledger = fakeLedger();
    const withLedger = new ClickRecorder(fakeTable(), fast);
    withLedger.useLedger(ledger);
    const flagged = gateOf(new Map());
    expect(await withLedger.report(row('c', null), flagged.gate)).toBe(false);
    expect(flagged.enforced).toHaveLength(1);
    expect(ledger.claims).toBe(0);
  });
});
