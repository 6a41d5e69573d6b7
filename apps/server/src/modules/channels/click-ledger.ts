import type { Redis } from 'ioredis';
import { RedisScript } from '../../lib/redis-script.ts';
import { TurnBatcher } from '../../lib/turn-batcher.ts';
import { redisRateKey } from '../limits/redis-store.ts';

/**
 * What the shared ledger says of one (channel, fingerprint hash, day):
 * - `new`: nobody had it; this caller now holds it — the click is counted, its row is written behind.
 * - `seen`: somebody had it (stored or about to be) — not counted, nothing to write.
 * - `unknown`: the ledger cannot tell (its copy of the day is not complete, or it failed) — the
 *   database's unique index decides, and the caller waits for it (ADR 025/031).
 */
export type Claim = 'new' | 'seen' | 'unknown';

/**
 * A limit counted in the claim's own script (ADR 035): the per-IP click limit, so a new visitor's click
 * takes one Redis round trip instead of two (the limiter's, then the claim's). Same counter, same rule
 * as the limiter's `consume`: one more in a window of `windowMs` from its first hit; an attempt over
 * `limit` is refused, not counted, and claims nothing.
 */
export interface ClaimGate {
  /** The limiter's key (e.g. `click:ip:<address>`): the counter the limiter itself counts. */
  key: string;
  limit: number;
  windowMs: number;
}

/** The gate refused the click: nothing claimed; its window ends in `retryAfterMs`. */
export interface Refused {
  refused: true;
  retryAfterMs: number;
}

export interface ClickLedger {
  claim(
    adChannelCode: string,
    fingerprintHash: string,
    day: string,
    gate?: ClaimGate,
  ): Promise<Claim | Refused>;
  /**
   * A click the database counted after `claim` failed: its key goes into the ledger as soon as the
   * ledger answers again (until then another instance could count the fingerprint once more).
   */
  stored(adChannelCode: string, fingerprintHash: string, day: string): void;
}

/** A ledger the channel service starts with: it brings a day in completely before it decides that day. */
export interface DayLedger extends ClickLedger {
  /** Makes `day` complete in the ledger (copies it from the database unless it is); never rejects. */
  ensureComplete(day: string): Promise<void>;
}

/** Keys waiting for Redis to answer again, at most (beyond: the day is copied again). */
const MAX_BACKFILL = 100_000;

/** How long a copy waits before reading the table (several write-behind flush delays). */
const COPY_SETTLE_MS = 100;

/** How long a day's keys stay in Redis (the day, and a margin for clocks and time zones). */
export const LEDGER_TTL_SECONDS = 2 * 86_400;

// KEYS[1]: the day's "complete" marker; then per click a pair: its gate's counter (its channel's set
// when it has no gate) and its channel's set of the day. ARGV[1]: the sets' TTL in seconds; ARGV[2]: now
// (ms epoch); then per click three: its gate's limit (-1: no gate), the end of a window starting now
// (ms epoch), its fingerprint hash.
// Answers {complete, status₁, ttl₁, status₂, ttl₂, …}: status 1 claimed, 0 seen, -1 refused by its gate
// (ttl: ms left in the gate's window, 0 unless refused). The gate is the limiter's `consume` (INCR, the
// window's end on the first hit, an attempt over the limit taken back; a counter found without an end
// gets one). A claim is a SADD to the channel's set of the day (a member costs a fraction of a key, and
// no expiry of its own: the set's is renewed once per script). Every click is claimed whether or not
// the day is complete, so a click that the database decides is in Redis before its row, and a copy made
// meanwhile misses nothing.
const CLAIM = new RedisScript(`
local out = {redis.call('EXISTS', KEYS[1])}
local now = tonumber(ARGV[2])
local renewed = {}
for i = 1, (#KEYS - 1) / 2 do
  local limit = tonumber(ARGV[3 * i])
  local status = 1
  local ttl = 0
  if limit >= 0 then
    local counter = KEYS[2 * i]
    local ends = ARGV[3 * i + 1]
    local c = redis.call('INCR', counter)
    if c == 1 then
      redis.call('PEXPIREAT', counter, ends)
    elseif c > limit then
      ttl = redis.call('PTTL', counter)
      if ttl < 0 then redis.call('PEXPIREAT', counter, ends); ttl = tonumber(ends) - now end
      redis.call('DECR', counter)
      status = -1
    end
  end
  if status == 1 then
    local set = KEYS[2 * i + 1]
    if redis.call('SADD', set, ARGV[3 * i + 2]) == 0 then
      status = 0
    elseif not renewed[set] then
      redis.call('EXPIRE', set, ARGV[1])
      renewed[set] = true
    end
  end
  out[2 * i] = status
  out[2 * i + 1] = ttl
end
return out`);

interface Waiting {
  /** The channel's set of the day, and the fingerprint hash (its member). */
  set: string;
  member: string;
  day: string;
  gate: ClaimGate | undefined;
  resolve(claim: Claim | Refused): void;
  reject(err: unknown): void;
}

export interface RedisClickLedgerOptions {
  /** Every (channel, fingerprint hash) stored in the database for `day` (the copy into Redis). */
  storedKeys(day: string): Promise<{ adChannelCode: string; fingerprintHash: string }[]>;
  /** Told when a copy of a day failed (clicks stay with the database meanwhile). */
  onCopyError?(err: unknown, day: string): void;
  /** Told when a copy of a day finished. */
  onCopied?(day: string, keys: number, ms: number): void;
  /** Claims sent in one script at most. */
  maxBatch?: number;
  /**
   * Scripts sent at once; claims queue meanwhile and go in the next (a busy Redis gets bigger scripts,
   * fewer round trips per click, as the limiter's batches).
   */
  maxInFlight?: number;
  /** A day found incomplete is copied at most this often by one instance. */
  copyRetryMs?: number;
}

/**
 * Which fingerprints are counted today, in Redis, shared by every API instance on PostgreSQL (ADR 034):
 * a click is counted by the instance whose `SET NX` took its key, so the answer needs no database round
 * trip and the row is written behind with others.
 *
 * Redis keeps the keys in memory only (and may lose them: a restart, a flush). So Redis decides only a
 * day it holds completely — marked by a key written after every key stored in the database for that day
 * was copied in. Without the marker (a new day, an emptied Redis, a backfill that overflowed) claims
 * answer `unknown` and the database decides, while one instance (a lock) copies the day. A click the
 * database counted because Redis did not answer is written into Redis once it does (`stored`, backfill).
 * Claims of one turn of the event loop go to Redis in one script.
 */
export class RedisClickLedger implements DayLedger {
  /** Claims in scripts of one day each, at most `maxBatch` a script, at most `maxInFlight` at once. */
  private readonly claims: TurnBatcher<Waiting>;
  /** Keys the database counted while Redis did not answer (written into Redis once it does). */
  private backfill: { set: string; member: string }[] = [];
  private backfillTimer: NodeJS.Timeout | undefined;
  /** Days whose backfill overflowed: their marker is dropped once Redis answers (a fresh copy follows). */
  private readonly recopy = new Set<string>();
  private readonly copying = new Map<string, Promise<void>>();
  private readonly lastCopyAttempt = new Map<string, number>();
  private readonly copyTimers = new Map<string, NodeJS.Timeout>();
  private readonly copyRetryMs: number;

  constructor(
    private readonly redis: Redis,
    /** Prefix of every key (the app's Redis prefix and its limiter prefix). */
    private readonly prefix: string,
    private readonly opts: RedisClickLedgerOptions,
  ) {
    this.claims = new TurnBatcher(
      (batch) => this.send(batch[0]!.day, batch),
      opts.maxBatch ?? 500,
      opts.maxInFlight ?? 2,
      (first, other) => other.day === first.day,
    );
    this.copyRetryMs = opts.copyRetryMs ?? 1_000;
  }

  // One hash tag per day: a day's keys and its marker live in one Redis Cluster slot (one script).
  private dayTag(day: string): string {
    return `${this.prefix}clicks:{${day}}`;
  }

  private markerKey(day: string): string {
    return `${this.dayTag(day)}:complete`;
  }

  private lockKey(day: string): string {
    return `${this.dayTag(day)}:copying`;
  }

  /** The set of a channel's counted fingerprint hashes on `day`. */
  setKey(day: string, adChannelCode: string): string {
    return `${this.dayTag(day)}:ch:${adChannelCode}`;
  }

  claim(
    adChannelCode: string,
    fingerprintHash: string,
    day: string,
    gate?: ClaimGate,
  ): Promise<Claim | Refused> {
    return new Promise((resolve, reject) => {
      this.claims.push({
        set: this.setKey(day, adChannelCode),
        member: fingerprintHash,
        day,
        gate,
        resolve,
        reject,
      });
    });
  }

  /** Whether Redis holds `day` completely (the marker is there). */
  async complete(day: string): Promise<boolean> {
    return (await this.redis.exists(this.markerKey(day))) === 1;
  }

  /**
   * Copies `day`'s stored keys into Redis unless it is complete already or another instance copies it
   * now; resolves when this instance's copy (if any) is done. Never rejects (`onCopyError`).
   */
  ensureComplete(day: string): Promise<void> {
    const running = this.copying.get(day);
    if (running) return running;
    const copy = this.copy(day).finally(() => this.copying.delete(day));
    this.copying.set(day, copy);
    return copy;
  }

  private send(day: string, batch: Waiting[]): Promise<void> {
    const now = Date.now();
    const keys = [this.markerKey(day)];
    const args: (string | number)[] = [LEDGER_TTL_SECONDS, now];
    for (const w of batch) {
      keys.push(w.gate ? redisRateKey(this.prefix, w.gate.key) : w.set, w.set);
      args.push(w.gate ? w.gate.limit : -1, w.gate ? now + w.gate.windowMs : 0, w.member);
    }
    return (CLAIM.run(this.redis, keys, args) as Promise<number[]>).then(
      ([complete, ...answers]) => {
        for (const [i, w] of batch.entries()) {
          const status = answers[2 * i];
          if (status === -1) w.resolve({ refused: true, retryAfterMs: Math.max(answers[2 * i + 1]!, 0) });
          else w.resolve(complete === 1 ? (status === 1 ? 'new' : 'seen') : 'unknown');
        }
        if (complete !== 1) this.copySoon(day);
      },
      (err: unknown) => {
        for (const w of batch) w.reject(err);
      },
    );
  }

  stored(adChannelCode: string, fingerprintHash: string, day: string): void {
    if (this.backfill.length >= MAX_BACKFILL) {
      // Redis has been away long: rather than hold every key, the day will be copied again from the
      // database (which holds them all) once Redis answers.
      this.recopy.add(day);
      return;
    }
    this.backfill.push({ set: this.setKey(day, adChannelCode), member: fingerprintHash });
    this.scheduleBackfill(0);
  }

  /** Stops the backfill's timer (the app is closing). */
  close(): void {
    clearTimeout(this.backfillTimer);
    this.backfillTimer = undefined;
    for (const t of this.copyTimers.values()) clearTimeout(t);
    this.copyTimers.clear();
  }

  private scheduleBackfill(ms: number): void {
    if (this.backfillTimer !== undefined || (this.backfill.length === 0 && this.recopy.size === 0)) return;
    this.backfillTimer = setTimeout(() => {
      this.backfillTimer = undefined;
      const keys = this.backfill.splice(0, 1_000);
      const days = [...this.recopy];
      const pipeline = this.redis.pipeline();
      for (const k of keys) pipeline.sadd(k.set, k.member).expire(k.set, LEDGER_TTL_SECONDS);
      for (const d of days) pipeline.del(this.markerKey(d));
      pipeline.exec().then(
        (results) => {
          const failed = (results ?? []).some(([err]) => err);
          if (failed) this.backfill.unshift(...keys);
          else for (const d of days) this.recopy.delete(d);
          this.scheduleBackfill(failed ? 1_000 : 0);
        },
        () => {
          this.backfill.unshift(...keys);
          this.scheduleBackfill(1_000);
        },
      );
    }, ms);
    this.backfillTimer.unref();
  }

  /** A copy of `day` now, or once `copyRetryMs` has passed since this instance's last attempt. */
  private copySoon(day: string): void {
    if (this.copying.has(day) || this.copyTimers.has(day)) return;
    const wait = (this.lastCopyAttempt.get(day) ?? 0) + this.copyRetryMs - Date.now();
    if (wait <= 0) {
      void this.ensureComplete(day);
      return;
    }
    const timer = setTimeout(() => {
      this.copyTimers.delete(day);
      void this.ensureComplete(day);
    }, wait);
    timer.unref();
    this.copyTimers.set(day, timer);
  }

  private async copy(day: string): Promise<void> {
    this.lastCopyAttempt.set(day, Date.now());
    for (const [d] of this.lastCopyAttempt) if (d < day) this.lastCopyAttempt.delete(d);
    const started = Date.now();
    try {
      if (await this.complete(day)) return;
      const token = `${process.pid}:${Math.random().toString(36).slice(2)}`;
      // The lock outlives a copy of a busy day; an instance that dies holding it frees the day a minute later.
      if ((await this.redis.set(this.lockKey(day), token, 'PX', 60_000, 'NX')) !== 'OK') return;
      try {
        // Clicks claimed just before Redis lost the day may still sit in an instance's write-behind
        // queue (written within ~20 ms): give them that time to reach the table before it is read.
        await new Promise((resolve) => setTimeout(resolve, COPY_SETTLE_MS));
        // Read after the lock: every click the database decided from now on was claimed in Redis first
        // (the claim script adds to the sets on an incomplete day too), so the copy plus those is the day.
        const stored = await this.opts.storedKeys(day);
        const byChannel = new Map<string, string[]>();
        for (const k of stored) {
          const hashes = byChannel.get(k.adChannelCode) ?? [];
          hashes.push(k.fingerprintHash);
          byChannel.set(k.adChannelCode, hashes);
        }
        for (const [code, hashes] of byChannel) {
          const set = this.setKey(day, code);
          for (let i = 0; i < hashes.length; i += 1_000) {
            const results =
              (await this.redis
                .pipeline()
                .sadd(set, ...hashes.slice(i, i + 1_000))
                .expire(set, LEDGER_TTL_SECONDS)
                .exec()) ?? [];
            const failed = results.find(([err]) => err);
            if (failed) throw failed[0];
          }
        }
        await this.redis.set(this.markerKey(day), '1', 'EX', LEDGER_TTL_SECONDS);
        this.opts.onCopied?.(day, stored.length, Date.now() - started);
      } finally {
        // Only our own lock (a copy slower than its lock's life must not free another's).
        if ((await this.redis.get(this.lockKey(day)).catch(() => null)) === token) {
          await this.redis.del(this.lockKey(day)).catch(() => {});
        }
      }
    } catch (err) {
      this.opts.onCopyError?.(err, day);
    }
  }
}
