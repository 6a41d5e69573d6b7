import type { Redis } from 'ioredis';
import type { ChannelRepository } from './repository.ts';

/** One click on a channel's link, as `channel_clicks` stores it. */
export interface ClickRow {
  adChannelCode: string;
  /** Keyed hash of the fingerprint; null: flagged, never counted. */
  fingerprintHash: string | null;
  /** Shanghai day of the click. */
  day: string;
  abTestType: number | null;
  ip: string;
  /** When the click came (the row's `created_at`). */
  at: Date;
}

/**
 * Where clicks are stored and "the first click of this fingerprint on this channel today" is decided (issue 45.3,
 * ADR 063). The per-address limit is the app's limiter (Redis, or the database), counted before this is asked.
 */
export interface ClickStore {
  /**
   * Stores the click (a repeat of a fingerprint's click that day is not stored again). True when it is counted:
   * the first of its fingerprint on its channel that Shanghai day. A click without a fingerprint is stored
   * (flagged) and never counted. Resolves once the row is in the database.
   */
  record(row: ClickRow): Promise<boolean>;
}

/**
 * The database decides: `INSERT … ON CONFLICT DO NOTHING RETURNING` on the unique index of (channel, fingerprint
 * hash, day), so any number of instances on one database count a fingerprint once a day.
 */
export class DatabaseClickStore implements ClickStore {
  constructor(private readonly repo: Pick<ChannelRepository, 'insertClick'>) {}

  async record(row: ClickRow): Promise<boolean> {
    const inserted = await this.repo.insertClick(row);
    return row.fingerprintHash !== null && inserted;
  }
}

/** A fingerprint's claim on a channel's day is kept two days (longer than any Shanghai day it names). */
export const CLICK_CLAIM_TTL_MS = 2 * 24 * 3600_000;

/**
 * Redis answers a returning visitor: `SET key NX PX` per (day, channel, fingerprint hash) — a key that exists is a
 * repeat, and nothing is written. A new key's row goes to the database, whose unique index still decides (so a
 * Redis that lost its keys never counts a fingerprint twice). Redis failing (down, timeout): the database decides.
 */
export class RedisClickStore implements ClickStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly database: ClickStore,
    /** Told when Redis failed and the database decided. */
    private readonly onRedisError: (err: unknown) => void = () => {},
  ) {}

  private keyOf(row: ClickRow, hash: string): string {
    return `${this.prefix}click:${row.day}:${row.adChannelCode}:${hash}`;
  }

  async record(row: ClickRow): Promise<boolean> {
    const hash = row.fingerprintHash;
    if (hash === null) return this.database.record(row);
    const key = this.keyOf(row, hash);
    let claimed: boolean;
    try {
      claimed = (await this.redis.set(key, '1', 'PX', CLICK_CLAIM_TTL_MS, 'NX')) === 'OK';
    } catch (err) {
      this.onRedisError(err);
      return this.database.record(row);
    }
    if (!claimed) return false;
    try {
      return await this.database.record(row);
    } catch (err) {
      // The row is not stored: the claim goes too, so the visitor's next click is counted.
      await this.redis.del(key).catch(() => {});
      throw err;
    }
  }
}
