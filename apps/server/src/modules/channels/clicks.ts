import { LineQueue } from '../../lib/line-queue.ts';
import { clickCopyLine } from './click-copy.ts';
import type { Claim, ClaimGate, ClickLedger, Refused } from './click-ledger.ts';
import { ClickKeySet } from './key-set.ts';
import type { ChannelRepository, InsertedClick } from './repository.ts';

export interface ClickRow {
  adChannelCode: string;
  /** Keyed hash of the fingerprint; null: flagged, never counted. */
  fingerprintHash: string | null;
  /** Shanghai day of the click. */
  day: string;
  abTestType: number | null;
  ip: string;
  /** When the click came (stored as the row's `created_at`; a write-behind row is written later). */
  at: Date;
}

interface Pending {
  row: ClickRow;
  /** Absent for a write-behind click: it was answered already. */
  resolve?(inserted: boolean): void;
  reject?(err: unknown): void;
}

export interface ClickRecorderOptions {
  maxBatch: number;
  maxInFlight: number;
  /** Today's keys kept in memory at most (one more ends write-behind for the day: memory no longer has them all). */
  maxKnown: number;
  /** Write-behind clicks wait this long for company before their batch is written. */
  flushDelayMs: number;
  /** Write-behind clicks queued at most; beyond it a click waits for its row again (back-pressure). */
  maxPending: number;
  /** A failed write-behind batch is tried again after this long (doubling up to 30 s). */
  retryMs: number;
}

const DEFAULTS: ClickRecorderOptions = {
  maxBatch: 500,
  maxInFlight: 2,
  maxKnown: 1_000_000,
  flushDelayMs: 20,
  maxPending: 50_000,
  retryMs: 500,
};

/**
 * A limit the click must pass (the per-IP click limit): counted by the ledger's claim itself when the
 * ledger decides the click (one round trip, ADR 035), else by `enforce` (the limiter) before anything
 * is stored. `refuse` throws the limiter's refusal when the ledger's count refused it.
 */
export interface ClickGate {
  rule: ClaimGate;
  enforce(): Promise<void>;
  refuse(retryAfterMs: number): Error;
}

/**
 * Where clicks are written: the repository. With `appendsText` (the embedded PGlite's COPY) the rows written
 * behind are kept as COPY text until written (ADR 052) and handed over with `appendClickText`.
 */
export type ClickStore = Pick<ChannelRepository, 'insertClicks' | 'appendClicks'> &
  Partial<Pick<ChannelRepository, 'appendsText' | 'appendClickText'>>;

const keyOf = (code: string, hash: string, day: string) => `${day}\u0000${code}\u0000${hash}`;

/**
 * Writes clicks to `channel_clicks` in batches and remembers which (channel, fingerprint, day) are
 * already there (issue 17.3, ADR 031 and 033).
 *
 * Three modes:
 * - **Awaited** (PostgreSQL, or a database this process does not own alone): clicks queued within one
 *   turn of the event loop go in one INSERT … ON CONFLICT DO NOTHING RETURNING (at most `maxBatch`
 *   rows; at most `maxInFlight` statements at once, more queue meanwhile). Each caller waits for its own
 *   row; the unique index decides what is counted, so two instances on one database count a fingerprint
 *   once per channel per day. `known` answers a returning visitor from memory.
 * - **Write-behind** (the embedded PGlite, which only this process can open, ADR 033): once
 *   `adopt(day, keys)` has loaded today's stored keys, memory holds every key of the day, so it decides
 *   `counted` itself and the click is answered at once; its row is written with others a few ms later
 *   (`flushDelayMs`), retried until it is stored, and written before the app closes (`settle`). Readers
 *   of the table call `settle` first. A key memory cannot keep (more than `maxKnown` in a day, ADR 038) or a queue of
 *   `maxPending` unwritten clicks (a stuck database) sends clicks back to the awaited path.
 * - **Ledger** (PostgreSQL with Redis, ADR 034): `useLedger` — a shared ledger (Redis) decides
 *   `counted` for every instance (`new`: counted, written behind; `seen`: not counted, nothing written);
 *   when it cannot tell (`unknown`: its copy of the day is incomplete) or fails, the click takes the
 *   awaited path and the unique index decides. Clicks without a fingerprint are written behind.
 */
export class ClickRecorder {
  private queue: Pending[] = [];
  /**
   * Write-behind rows as COPY lines (ADR 052), when the store takes them so: no object per row on the heap while
   * it waits for its batch. Written before `queue`'s awaited clicks: their keys were decided first.
   */
  private readonly behindText: LineQueue | null;
  /** Batches of `behindText` whose write failed, to be tried again first. */
  private retryText: { text: string; rows: number }[] = [];
  private retryTextRows = 0;
  private scheduled = false;
  private timer: NodeJS.Timeout | undefined;
  private inFlight = 0;
  /** The stored (channel, fingerprint hash) pairs of `knownDay` (compact: 32–64 bytes a key). */
  private readonly knownKeys = new ClickKeySet();
  private knownDay = '';
  /** Write-behind: memory holds every stored key of `knownDay`. */
  private complete = false;
  /** `adopt` was called: this process alone writes the table (a new day may start write-behind again). */
  private behindCapable = false;
  private pendingBehind = 0;
  /** Awaited clicks in `queue` (they are written at the next turn, not after `flushDelayMs`). */
  private awaitedQueued = 0;
  private failures = 0;
  private lastError: unknown;
  private readonly idle: (() => void)[] = [];
  private readonly opts: ClickRecorderOptions;
  private ledger: ClickLedger | null = null;

  constructor(
    private readonly repo: ClickStore,
    opts: Partial<ClickRecorderOptions> = {},
    /** Told when a write-behind batch failed (it is tried again). */
    private readonly onWriteError: (err: unknown, rows: number) => void = () => {},
  ) {
    this.opts = { ...DEFAULTS, ...opts };
    this.behindText = repo.appendsText && repo.appendClickText ? new LineQueue() : null;
  }

  /** Clicks queued to be written (awaited ones and write-behind rows, as objects or as COPY lines). */
  private get queued(): number {
    return this.queue.length + (this.behindText?.length ?? 0) + this.retryTextRows;
  }

  /** Whether this fingerprint's click on this channel is known to be stored (or queued) for `day`. */
  known(adChannelCode: string, fingerprintHash: string, day: string): boolean {
    return day === this.knownDay && this.knownKeys.has(adChannelCode, fingerprintHash);
  }

  get knownSize(): number {
    return this.knownKeys.size;
  }

  /** Whether clicks are answered before their rows are written (memory decides: the embedded database). */
  get writeBehind(): boolean {
    return this.complete;
  }

  /** Whether a shared ledger decides what is counted (ADR 034). */
  get ledgerMode(): boolean {
    return this.ledger !== null;
  }

  /** From now on `ledger` decides what is counted, and decided clicks are written behind (ADR 034). */
  useLedger(ledger: ClickLedger): void {
    this.ledger = ledger;
  }

  /** Clicks answered and not yet written. */
  get unwritten(): number {
    return this.pendingBehind;
  }

  /**
   * Write-behind from now on: `keys` are every (channel, fingerprint hash) stored for `day` (read when
   * nothing else writes the table: at start-up, before the app serves). Too many keys: stays awaited.
   */
  adopt(day: string, keys: Iterable<{ adChannelCode: string; fingerprintHash: string }>): void {
    this.behindCapable = true;
    this.knownKeys.clear();
    this.knownDay = day;
    for (const k of keys) {
      if (this.knownKeys.size >= this.opts.maxKnown) {
        this.complete = false;
        return;
      }
      this.knownKeys.add(k.adChannelCode, k.fingerprintHash);
    }
    this.complete = true;
  }

  /**
   * Stores one click. `true` when it is counted: its row is (or, write-behind, will be) the first of
   * its fingerprint on its channel that day. A boolean when memory decided (write-behind), else a
   * promise settled once the row is written. With a `gate`, the click passes it first (rejects with its
   * refusal otherwise): in the ledger's claim when the ledger decides, else through `gate.enforce`.
   */
  report(row: ClickRow, gate?: ClickGate): boolean | Promise<boolean> {
    if (gate && this.ledger && !this.complete && row.fingerprintHash !== null) {
      return this.viaLedger(this.ledger, row, row.fingerprintHash, gate);
    }
    if (gate) return gate.enforce().then(() => this.report(row));
    if (
      !this.complete &&
      this.behindCapable &&
      row.day > this.knownDay &&
      this.queued === 0 &&
      this.inFlight === 0
    ) {
      // Memory had forgotten keys of an earlier day; nothing is stored for this one yet.
      this.knownKeys.clear();
      this.knownDay = row.day;
      this.complete = true;
    }
    if (this.complete && row.day >= this.knownDay && this.pendingBehind < this.opts.maxPending) {
      if (row.day !== this.knownDay) {
        // A new Shanghai day: nothing is stored for it yet (only this process writes the table).
        this.knownKeys.clear();
        this.knownDay = row.day;
      }
      let counted = true;
      if (row.fingerprintHash !== null) {
        if (this.knownKeys.has(row.adChannelCode, row.fingerprintHash)) return false;
        this.remember(row.adChannelCode, row.fingerprintHash, row.day);
      } else counted = false;
      this.queueBehind(row);
      return counted;
    }
    if (this.ledger && !this.complete) {
      if (row.fingerprintHash !== null) return this.viaLedger(this.ledger, row, row.fingerprintHash);
      if (this.pendingBehind < this.opts.maxPending) {
        // Flagged: never counted, nothing to decide; stored with the others.
        this.queueBehind(row);
        return false;
      }
    }
    return this.record(row);
  }

  private queueBehind(row: ClickRow): void {
    this.pendingBehind++;
    if (this.behindText) this.behindText.push(clickCopyLine(row));
    else this.queue.push({ row });
    this.schedule(false);
  }

  private async viaLedger(
    ledger: ClickLedger,
    row: ClickRow,
    hash: string,
    gate?: ClickGate,
  ): Promise<boolean> {
    let claim: Claim | Refused;
    try {
      claim = await ledger.claim(row.adChannelCode, hash, row.day, gate?.rule);
    } catch {
      // The ledger did not answer: the limiter counts the gate (its own fallback when Redis is down),
      // the database decides, and the ledger learns it once it answers.
      await gate?.enforce();
      const inserted = await this.record(row);
      if (inserted) ledger.stored(row.adChannelCode, hash, row.day);
      return inserted;
    }
    if (typeof claim === 'object')
      throw gate ? gate.refuse(claim.retryAfterMs) : new Error('the ledger refused a click without a gate');
    // The claim put the key in the ledger whatever it answered: a row the table takes below is known there.
    if (claim === 'unknown') return this.record(row);
    if (claim === 'seen') return false;
    // Ours to count. Past `maxPending` unwritten clicks (a stuck database) it waits for its row again.
    if (this.pendingBehind >= this.opts.maxPending) return this.record(row);
    this.queueBehind(row);
    return true;
  }

  /** Stores one click and waits for its row; true when it was inserted (a fingerprint's first of the day). */
  record(row: ClickRow): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ row, resolve, reject });
      this.awaitedQueued++;
      this.schedule(true);
    });
  }

  /**
   * Resolves once every click queued so far is written; rejects with the database's error when a
   * write-behind batch failed meanwhile (its rows stay queued and are tried again).
   */
  settle(): Promise<void> {
    if (this.queued === 0 && this.inFlight === 0) return Promise.resolve();
    const failuresBefore = this.failures;
    return new Promise<void>((resolve, reject) => {
      this.idle.push(() => (this.failures > failuresBefore ? reject(this.lastError) : resolve()));
      this.schedule(true);
    });
  }

  /** Stops the timers (the app is closing; call `settle` first to write what is queued). */
  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private remember(adChannelCode: string, fingerprintHash: string, day: string): void {
    // With a ledger every click asks it (with the per-IP limit in the same script, ADR 035): a key in
    // memory would save no round trip, only cost memory.
    if (this.ledger) return;
    if (day !== this.knownDay) {
      if (day < this.knownDay) return; // a batch of yesterday finishing after midnight
      this.knownKeys.clear();
      this.knownDay = day;
    }
    if (this.knownKeys.size < this.opts.maxKnown) {
      this.knownKeys.add(adChannelCode, fingerprintHash);
    } else if (!this.knownKeys.has(adChannelCode, fingerprintHash)) {
      // Full: this key is not kept, so memory no longer holds every key of the day (the table decides
      // from now on); the keys it holds still spare their returning visitors a statement.
      this.complete = false;
    }
  }

  /** Awaited clicks and `settle` go at the next turn; write-behind ones wait `flushDelayMs` for company. */
  private schedule(now = false): void {
    if (this.scheduled || this.inFlight >= this.opts.maxInFlight || this.queued === 0) {
      this.notifyIdle();
      return;
    }
    const urgent = now || this.idle.length > 0 || this.awaitedQueued > 0 || this.queued >= this.opts.maxBatch;
    if (!urgent) {
      if (this.timer === undefined) {
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.schedule(true);
        }, this.opts.flushDelayMs);
        this.timer.unref();
      }
      return;
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private notifyIdle(): void {
    if (this.queued > 0 || this.inFlight > 0 || this.idle.length === 0) return;
    for (const done of this.idle.splice(0)) done();
  }

  private flush(): void {
    while (this.queued > 0 && this.inFlight < this.opts.maxInFlight) {
      let written: Promise<number>;
      const retry = this.retryText.shift();
      if (retry) {
        this.retryTextRows -= retry.rows;
        written = this.writeText(retry.text, retry.rows);
      } else if (this.behindText !== null && this.behindText.length > 0) {
        const rows = Math.min(this.behindText.length, this.opts.maxBatch);
        written = this.writeText(this.behindText.take(rows), rows);
      } else {
        const batch = this.queue.splice(0, this.opts.maxBatch);
        for (const p of batch) if (p.resolve !== undefined) this.awaitedQueued--;
        written = this.write(batch);
      }
      this.inFlight++;
      void written.then((retryAfter) => {
        this.inFlight--;
        if (retryAfter > 0) {
          // The database failed: tell whoever waits for the queue, then try again later.
          for (const done of this.idle.splice(0)) done();
          clearTimeout(this.timer);
          this.timer = setTimeout(() => {
            this.timer = undefined;
            this.schedule(true);
          }, retryAfter);
          this.timer.unref();
          return;
        }
        this.schedule(this.idle.length > 0);
        this.notifyIdle();
      });
    }
  }

  /** Writes `rows` write-behind rows kept as COPY text; answers how long to wait before trying again (0: written). */
  private async writeText(text: string, rows: number): Promise<number> {
    try {
      await this.repo.appendClickText?.(text);
    } catch (err) {
      // Answered clicks are not lost to a failed statement: tried again before anything queued after them.
      this.retryText.push({ text, rows });
      this.retryTextRows += rows;
      return this.failed(err, rows);
    }
    this.failures = 0;
    this.pendingBehind -= rows;
    return 0;
  }

  /** Notes a failed write-behind batch of `rows` rows; answers the wait before the next try. */
  private failed(err: unknown, rows: number): number {
    this.failures++;
    this.lastError = err;
    this.onWriteError(err, rows);
    return Math.min(this.opts.retryMs * 2 ** Math.min(this.failures - 1, 6), 30_000);
  }

  /** Writes a batch; answers how long to wait before trying its write-behind rows again (0: written). */
  private async write(batch: Pending[]): Promise<number> {
    // The first click of each (channel, fingerprint, day) in the batch is written; the others repeat it.
    const rows: ClickRow[] = [];
    const first = new Map<string, Pending>();
    for (const p of batch) {
      const { fingerprintHash: hash } = p.row;
      if (hash === null) {
        rows.push(p.row);
        continue;
      }
      const key = keyOf(p.row.adChannelCode, hash, p.row.day);
      if (!first.has(key)) {
        first.set(key, p);
        rows.push(p.row);
      }
    }
    // In one order on every instance: two instances inserting overlapping keys in different orders
    // deadlock on PostgreSQL (each holding a key the other waits for); sorted, one waits for the other.
    rows.sort((a, b) => compareKeys(a, b));
    let inserted: InsertedClick[];
    try {
      // One multi-row statement (ChannelRepository.insertClicks) when a caller waits for its row; a
      // write-behind batch (nobody waits, its keys decided already) is appended (COPY on PGlite, ADR 040).
      if (batch.some((p) => p.resolve !== undefined)) inserted = await this.repo.insertClicks(rows, true);
      else {
        await this.repo.appendClicks(rows);
        inserted = [];
      }
    } catch (err) {
      const behind = batch.filter((p) => p.resolve === undefined);
      for (const p of batch) p.reject?.(err);
      if (behind.length === 0) return 0;
      // Answered clicks are not lost to a failed statement: back to the front of the queue.
      this.queue.unshift(...behind);
      return this.failed(err, behind.length);
    }
    this.failures = 0;
    const insertedKeys = new Set<string>();
    for (const r of inserted) {
      if (r.fingerprint_hash !== null) insertedKeys.add(keyOf(r.ad_channel_code, r.fingerprint_hash, r.day));
    }
    for (const p of batch) {
      if (p.resolve === undefined) {
        this.pendingBehind--;
        continue;
      }
      const { fingerprintHash: hash } = p.row;
      if (hash === null) {
        p.resolve(true);
        continue;
      }
      const key = keyOf(p.row.adChannelCode, hash, p.row.day);
      this.remember(p.row.adChannelCode, hash, p.row.day);
      p.resolve(first.get(key) === p && insertedKeys.has(key));
    }
    return 0;
  }
}

const order = (a: string | null, b: string | null) =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1;

/** The unique key's order (channel, fingerprint hash, day), rows without a fingerprint last. */
export function compareKeys(a: ClickRow, b: ClickRow): number {
  return (
    order(a.adChannelCode, b.adChannelCode) ||
    order(a.fingerprintHash, b.fingerprintHash) ||
    order(a.day, b.day)
  );
}
