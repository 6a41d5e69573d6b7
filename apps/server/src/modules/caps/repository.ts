import { and, eq, inArray, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { matchOffers, productCounters, productTotals } from '../../db/schema.ts';

/*
 * Caps (spec §7 "Products"; ADR 027): a product's daily and total lead caps, counted in
 * product_counters (per Shanghai day) and product_totals. A match reserves one slot of each for every
 * offer it makes; an offer declined, released or not stored gives its slots back.
 */

/** Leads counted for one product: today and in total (the matching engine's ProductCounter). */
export interface CapCount {
  today: number;
  total: number;
}

/** What a reservation needs of a product: its id and caps (null: no cap). */
export interface Capped {
  id: string;
  dailyCap: number | null;
  totalCap: number | null;
}

/** A reserved slot: the product and the Shanghai day it counts on. */
export interface Slot {
  productId: number;
  capDay: string;
}

/** Cap counters (product_counters, product_totals) and the offers' slots (match_offers). */
export class CapsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Closes the person's open offers (all, or those of `runId` / `productIds`) as `status` and answers
   * their cap slots, to give back with `giveBackSlots` once the closing transaction has committed.
   */
  async closeOffers(
    userId: number,
    status: 'released' | 'declined',
    filter: { runId?: number; productIds?: number[] } = {},
  ): Promise<Slot[]> {
    const conds = [eq(matchOffers.userId, userId), eq(matchOffers.status, 'offered')];
    if (filter.runId !== undefined) conds.push(eq(matchOffers.runId, filter.runId));
    if (filter.productIds) {
      if (filter.productIds.length === 0) return [];
      conds.push(inArray(matchOffers.productId, filter.productIds));
    }
    return this.db
      .update(matchOffers)
      .set({ status, decidedAt: new Date() })
      .where(and(...conds))
      .returning({ productId: matchOffers.productId, capDay: matchOffers.capDay });
  }

  /** Gives cap slots back, one short statement each (no counter row stays locked for long). */
  async giveBackSlots(slots: Slot[]): Promise<void> {
    for (const r of slots) await this.unreserve(r.productId, r.capDay);
  }

  /** closeOffers + giveBackSlots on the same handle; answers the product ids. */
  async releaseOffers(
    userId: number,
    status: 'released' | 'declined',
    filter: { runId?: number; productIds?: number[] } = {},
  ): Promise<number[]> {
    const closed = await this.closeOffers(userId, status, filter);
    await this.giveBackSlots(closed);
    return closed.map((r) => r.productId);
  }

  /**
   * Reserves one daily and one total slot of `p` on `day` in ONE statement (autocommit: the counter
   * rows are locked for that statement only, so parallel matches do not queue behind whole
   * transactions); false when either cap is reached.
   */
  async reserve(p: Capped, day: string): Promise<boolean> {
    const id = Number(p.id);
    const [r] = rowsOf<{ dc: number | null; tc: number | null }>(
      await this.db.execute(sql`
        with d as (
          insert into product_counters (product_id, day, count) values (${id}, ${day}, 1)
          on conflict (product_id, day) do update set count = product_counters.count + 1
          where ${p.dailyCap}::int is null or product_counters.count < ${p.dailyCap}::int
          returning count),
        t as (
          insert into product_totals (product_id, count) select ${id}, 1 where exists (select 1 from d)
          on conflict (product_id) do update set count = product_totals.count + 1
          where ${p.totalCap}::int is null or product_totals.count < ${p.totalCap}::int
          returning count)
        select (select count from d) as dc, (select count from t) as tc`),
    );
    const dailyOk = r?.dc !== null && r?.dc !== undefined && (p.dailyCap === null || r.dc <= p.dailyCap);
    const totalOk = r?.tc !== null && r?.tc !== undefined && (p.totalCap === null || r.tc <= p.totalCap);
    if (dailyOk && totalOk) return true;
    if (r?.dc !== null && r?.dc !== undefined)
      await this.db.execute(
        sql`update product_counters set count = count - 1 where product_id = ${id} and day = ${day} and count > 0`,
      );
    if (r?.tc !== null && r?.tc !== undefined)
      await this.db.execute(
        sql`update product_totals set count = count - 1 where product_id = ${id} and count > 0`,
      );
    return false;
  }

  /** Gives one reserved slot back (an offer that could not be stored). */
  async unreserve(productId: number, day: string): Promise<void> {
    await this.db.execute(
      sql`update product_counters set count = count - 1 where product_id = ${productId} and day = ${day} and count > 0`,
    );
    await this.db.execute(
      sql`update product_totals set count = count - 1 where product_id = ${productId} and count > 0`,
    );
  }

  /** Leads counted on the Shanghai day `day` (YYYY-MM-DD) and in total, by product id. */
  async todayCounters(day: string): Promise<Record<string, CapCount>> {
    const [daily, totals] = await Promise.all([
      this.db
        .select({ productId: productCounters.productId, count: productCounters.count })
        .from(productCounters)
        .where(eq(productCounters.day, day)),
      this.db.select({ productId: productTotals.productId, count: productTotals.count }).from(productTotals),
    ]);
    const counters: Record<string, CapCount> = {};
    const entry = (id: number) => {
      const key = String(id);
      counters[key] ??= { today: 0, total: 0 };
      return counters[key];
    };
    for (const t of totals) entry(t.productId).total = t.count;
    for (const d of daily) entry(d.productId).today = d.count;
    return counters;
  }
}
