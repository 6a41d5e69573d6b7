import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { partners, productCounters, products, productTotals } from '../../db/schema.ts';
import type { Counters, Product, ProductCounter } from '../matching/types.ts';
import { toEngineProduct } from './mapping.ts';

/** Published products of active partners, as the matching engine's `Product`s (ordered by id). */
export async function listPublishedForMatching(db: Db): Promise<Product[]> {
  const rows = await db
    .select({ product: products, legalName: partners.legalName })
    .from(products)
    .innerJoin(partners, eq(products.partnerId, partners.id))
    .where(and(eq(products.status, 'published'), eq(partners.status, 'active')))
    .orderBy(products.id);
  return rows.map((r) => toEngineProduct(r.product, r.legalName));
}

/** Leads counted on the Shanghai day `day` (YYYY-MM-DD) and in total, by product id. */
export async function todayCounters(db: Db, day: string): Promise<Counters> {
  const [daily, totals] = await Promise.all([
    db
      .select({ productId: productCounters.productId, count: productCounters.count })
      .from(productCounters)
      .where(eq(productCounters.day, day)),
    db.select({ productId: productTotals.productId, count: productTotals.count }).from(productTotals),
  ]);
  const counters: Record<string, ProductCounter> = {};
  const entry = (id: number) => {
    const key = String(id);
    counters[key] ??= { today: 0, total: 0 };
    return counters[key];
  };
  for (const t of totals) entry(t.productId).total = t.count;
  for (const d of daily) entry(d.productId).today = d.count;
  return counters;
}
