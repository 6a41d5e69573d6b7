import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import type { CounterStore, HitResult } from './limiter.ts';

/**
 * Counters in the `rate_counters` table; shared by every instance on the same database. A window's end is
 * the app's clock plus the window (the limiter computes it), so whether it has ended is asked of the same
 * clock (`now`), not of the database's `now()`: one clock decides both (ADR 047: the embedded database's thread
 * does not share a test's faked clock, and a database server's clock may differ from the app's).
 */
export class DbCounterStore implements CounterStore {
  constructor(
    private readonly db: Db,
    private readonly prefix = '',
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** The app's clock as a statement's parameter. */
  private at() {
    return sql`${new Date(this.now()).toISOString()}::timestamptz`;
  }

  async increment(key: string, expiresAt: Date): Promise<HitResult> {
    const at = this.at();
    const k = this.prefix + key;
    const rows = rowsOf<{ count: number; expires_at: string | Date }>(
      await this.db.execute(sql`
        insert into rate_counters (key, count, expires_at) values (${k}, 1, ${expiresAt.toISOString()})
        on conflict (key) do update set
          count = case when rate_counters.expires_at <= ${at} then 1 else rate_counters.count + 1 end,
          expires_at = case when rate_counters.expires_at <= ${at} then excluded.expires_at else rate_counters.expires_at end
        returning count, expires_at`),
    );
    const row = rows[0]!;
    return { count: Number(row.count), resetAt: new Date(row.expires_at) };
  }

  /**
   * One statement for several keys. Rows are locked in key order, so two requests that share keys
   * (the same IP, the same phone) cannot deadlock.
   */
  async incrementMany(hits: { key: string; expiresAt: Date }[]): Promise<HitResult[]> {
    const at = this.at();
    const sorted = hits
      .map((h) => ({ key: this.prefix + h.key, expiresAt: h.expiresAt.toISOString() }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    // One statement text for any number of keys (array parameters, in key order), no per-key SQL built.
    const rows = rowsOf<{ key: string; count: number; expires_at: string | Date }>(
      await this.db.execute(sql`
        insert into rate_counters (key, count, expires_at)
        select key, 1, expires_at from unnest(
          ${sql.param(sorted.map((h) => h.key))}::text[],
          ${sql.param(sorted.map((h) => h.expiresAt))}::timestamptz[]
        ) with ordinality as hit(key, expires_at, n)
        order by n
        on conflict (key) do update set
          count = case when rate_counters.expires_at <= ${at} then 1 else rate_counters.count + 1 end,
          expires_at = case when rate_counters.expires_at <= ${at} then excluded.expires_at else rate_counters.expires_at end
        returning key, count, expires_at`),
    );
    const byKey = new Map(rows.map((r) => [r.key, r]));
    return hits.map((h) => {
      const row = byKey.get(this.prefix + h.key);
      if (!row) throw new Error(`rate counter ${h.key} was not returned`);
      return { count: Number(row.count), resetAt: new Date(row.expires_at) };
    });
  }

  async decrement(key: string): Promise<void> {
    await this.db.execute(
      sql`update rate_counters set count = count - 1 where key = ${this.prefix + key} and count > 0`,
    );
  }

  async get(key: string): Promise<HitResult | null> {
    const at = this.at();
    const rows = rowsOf<{ count: number; expires_at: string | Date }>(
      await this.db.execute(
        sql`select count, expires_at from rate_counters where key = ${this.prefix + key} and expires_at > ${at}`,
      ),
    );
    const row = rows[0];
    return row ? { count: Number(row.count), resetAt: new Date(row.expires_at) } : null;
  }

  async clear(key: string): Promise<void> {
    await this.db.execute(sql`delete from rate_counters where key = ${this.prefix + key}`);
  }

  /** Deletes windows that ended more than an hour ago. */
  async sweep(): Promise<void> {
    const at = this.at();
    await this.db.execute(sql`delete from rate_counters where expires_at < ${at} - interval '1 hour'`);
  }
}
