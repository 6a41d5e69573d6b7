import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { partners, products } from '../../db/schema.ts';
import { toEngineProduct } from '../matching/product-row.ts';
import type { Product } from '../matching/types.ts';

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
