import type { ChannelRepository, InsertedClick } from './repository.ts';

export interface ClickRow {
  adChannelCode: string;
  /** Keyed hash of the fingerprint; null: flagged, never counted. */
  fingerprintHash: string | null;
  /** Shanghai day of the click. */
  day: string;
  abTestType: number | null;
  ip: string;
}

interface Pending {
  row: ClickRow;
  resolve(inserted: boolean): void;
  reject(err: unknown): void;
}

const keyOf = (code: string, hash: string, day: string) => `${day}\u0000${code}\u0000${hash}`;

/**
 * Writes clicks to `channel_clicks` in batches and remembers which (channel, fingerprint, day) are
 * already there (issue 17.3).
 *
 * - Clicks queued within one turn of the event loop go in one multi-row INSERT … ON CONFLICT DO NOTHING
 *   RETURNING (at most `maxBatch` rows; at most `maxInFlight` statements at once, more queue meanwhile).
 *   Each caller waits for its own row: nothing is answered before it is written, and a failed statement
 *   fails every click of its batch. The unique index decides what is counted, so two instances on one
 *   database still count a fingerprint once per channel per day.
 * - A fingerprint seen twice in one batch is written once; the later clicks are the repeats they would be.
 * - `known` answers "already in the table today" from memory for a fingerprint this instance has written
 *   or found written, so a returning visitor costs no query. Clicks are never deleted, so a remembered
 *   key stays true; a key it does not know goes to the database as before. The memory is today's keys,
 *   at most `maxKnown` (oldest forgotten first).
 */
export class ClickRecorder {
  private queue: Pending[] = [];
  private scheduled = false;
  private inFlight = 0;
  private readonly knownKeys = new Set<string>();
  private knownDay = '';

  constructor(
    private readonly repo: Pick<ChannelRepository, 'insertClicks'>,
    private readonly opts: { maxBatch: number; maxInFlight: number; maxKnown: number } = {
      maxBatch: 500,
      maxInFlight: 2,
      maxKnown: 200_000,
    },
  ) {}

  /** Whether this fingerprint's click on this channel is known to be stored for `day`. */
  known(adChannelCode: string, fingerprintHash: string, day: string): boolean {
    return day === this.knownDay && this.knownKeys.has(keyOf(adChannelCode, fingerprintHash, day));
  }

  get knownSize(): number {
    return this.knownKeys.size;
  }

  /** Stores one click; true when its row was inserted (a fingerprint's first click of the day). */
  record(row: ClickRow): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ row, resolve, reject });
      this.schedule();
    });
  }

  private remember(key: string, day: string): void {
    if (day !== this.knownDay) {
      if (day < this.knownDay) return; // a batch of yesterday finishing after midnight
      this.knownKeys.clear();
      this.knownDay = day;
    }
    if (this.knownKeys.size >= this.opts.maxKnown) {
      // Forget the oldest tenth (a Set iterates in insertion order).
      let n = Math.ceil(this.opts.maxKnown / 10);
      for (const k of this.knownKeys) {
        this.knownKeys.delete(k);
        if (--n === 0) break;
      }
    }
    this.knownKeys.add(key);
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.opts.maxInFlight || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.queue.length > 0 && this.inFlight < this.opts.maxInFlight) {
      const batch = this.queue.splice(0, this.opts.maxBatch);
      this.inFlight++;
      void this.write(batch).finally(() => {
        this.inFlight--;
        this.schedule();
      });
    }
  }

  private async write(batch: Pending[]): Promise<void> {
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
      // One multi-row statement (ChannelRepository.insertClicks).
      inserted = await this.repo.insertClicks(rows);
    } catch (err) {
      for (const p of batch) p.reject(err);
      return;
    }
    const insertedKeys = new Set<string>();
    for (const r of inserted) {
      if (r.fingerprint_hash !== null) insertedKeys.add(keyOf(r.ad_channel_code, r.fingerprint_hash, r.day));
    }
    for (const p of batch) {
      const { fingerprintHash: hash } = p.row;
      if (hash === null) {
        p.resolve(true);
        continue;
      }
      const key = keyOf(p.row.adChannelCode, hash, p.row.day);
      this.remember(key, p.row.day);
      p.resolve(first.get(key) === p && insertedKeys.has(key));
    }
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
