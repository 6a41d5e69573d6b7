import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { productPrices, products, staff } from '../../db/schema.ts';
import type { Actor } from '../../lib/actor.ts';
import { type AuditInput, recordAudit } from '../audit/service.ts';

export type ProductPriceRow = typeof productPrices.$inferSelect;
/** A price row with the name of who added it (null: an account since deleted). */
export type ProductPriceWithWho = ProductPriceRow & { createdByName: string | null };

/** Lead prices per product (`product_prices`, issue 48.1): rows are only added. */
export class PricingRepository {
  constructor(private readonly db: Db) {}

  /** Runs `fn` in one transaction, with this repository bound to it. */
  transaction<T>(fn: (tx: PricingRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new PricingRepository(tx as unknown as Db)));
  }

  recordAudit(actor: Actor, input: AuditInput): Promise<void> {
    return recordAudit(this.db, actor, input);
  }

  /** The product's id, code and name; null when there is no such product. */
  async product(id: number): Promise<{ id: number; code: string; productName: string } | null> {
    const [row] = await this.db
      .select({ id: products.id, code: products.code, productName: products.productName })
      .from(products)
      .where(eq(products.id, id));
    return row ?? null;
  }

  /** Every price of a product, with who added it (in no particular order). */
  async prices(productId: number): Promise<ProductPriceWithWho[]> {
    const rows = await this.db
      .select({ p: productPrices, createdByName: staff.name })
      .from(productPrices)
      .leftJoin(staff, eq(staff.id, productPrices.createdBy))
      .where(eq(productPrices.productId, productId));
    return rows.map((r) => ({ ...r.p, createdByName: r.createdByName }));
  }

  /** Adds a price; null when the product already has one of this model from this instant (the unique index). */
  async insert(values: typeof productPrices.$inferInsert): Promise<ProductPriceRow | null> {
    const [row] = await this.db.insert(productPrices).values(values).onConflictDoNothing().returning();
    return row ?? null;
  }
}
