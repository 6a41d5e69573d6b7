import type { PARTNER_SORTS, PRODUCT_SORTS, ProductStatusValue } from '@lm/shared/schemas/admin-catalog';
import { and, asc, count, desc, eq, ilike, inArray, not, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { partners, productCounters, products, productTotals } from '../../db/schema.ts';
import type { Actor } from '../../lib/actor.ts';
import { type AuditInput, recordAudit } from '../audit/service.ts';
import { type CapCount, todayCounters } from '../caps/slots.ts';

export type PartnerRow = typeof partners.$inferSelect;
export type PartnerInsert = typeof partners.$inferInsert;
export type ProductRow = typeof products.$inferSelect;
export type ProductInsert = typeof products.$inferInsert;

/** A product with its lender and today's / total cap counters (the console's list and detail). */
export interface ProductListRow {
  product: ProductRow;
  partnerName: string;
  partnerStatus: PartnerRow['status'];
  allowedHosts: string[];
  todayCount: number;
  totalCount: number;
}

export interface Page {
  page: number;
  pageSize: number;
}

export interface PartnerFilter {
  /** Matched (case-insensitively, as a substring) against legal name, code and licence number. */
  q?: string | undefined;
  status?: PartnerRow['status'] | undefined;
}

export interface ProductFilter {
  /** Matched (case-insensitively, as a substring) against product name and code. */
  q?: string | undefined;
  partnerId?: number | undefined;
  status?: ProductRow['status'] | undefined;
  linkType?: ProductRow['linkType'] | undefined;
}

export type Order = 'asc' | 'desc';

const escapeLike = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function partnerWhere(f: PartnerFilter): SQL | undefined {
  const conds: SQL[] = [];
  if (f.q) {
    const like = escapeLike(f.q);
    conds.push(
      or(ilike(partners.legalName, like), ilike(partners.code, like), ilike(partners.licenceNumber, like))!,
    );
  }
  if (f.status) conds.push(eq(partners.status, f.status));
  return conds.length ? and(...conds) : undefined;
}

function productWhere(f: ProductFilter): SQL | undefined {
  const conds: SQL[] = [];
  if (f.q) {
    const like = escapeLike(f.q);
    conds.push(or(ilike(products.productName, like), ilike(products.code, like))!);
  }
  if (f.partnerId) conds.push(eq(products.partnerId, f.partnerId));
  if (f.status) conds.push(eq(products.status, f.status));
  if (f.linkType) conds.push(eq(products.linkType, f.linkType));
  return conds.length ? and(...conds) : undefined;
}

/** Partners and products for the console (issue 7): their queries; the rules are the services'. */
export class AdminCatalogRepository {
  constructor(private readonly db: Db) {}

  /** Runs `fn` in one transaction, with this repository bound to it. */
  transaction<T>(fn: (tx: AdminCatalogRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new AdminCatalogRepository(tx as unknown as Db)));
  }

  /** An audit entry in this repository's transaction (the change and its record commit together). */
  recordAudit(actor: Actor, input: AuditInput): Promise<void> {
    return recordAudit(this.db, actor, input);
  }

  /* —— partners —— */

  /** How many products each of these partners has. */
  async productCountsByPartner(ids: number[]): Promise<Map<number, number>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .select({ partnerId: products.partnerId, n: count() })
      .from(products)
      .where(inArray(products.partnerId, ids))
      .groupBy(products.partnerId);
    return new Map(rows.map((r) => [r.partnerId, Number(r.n)]));
  }

  /** One page of partners (ties broken by id in the same direction) and how many match. */
  async listPartners(
    filter: PartnerFilter,
    sort: (typeof PARTNER_SORTS)[number],
    order: Order,
    page: Page,
  ): Promise<{ total: number; rows: PartnerRow[] }> {
    const where = partnerWhere(filter);
    const column = {
      id: partners.id,
      legalName: partners.legalName,
      updatedAt: partners.updatedAt,
      createdAt: partners.createdAt,
    }[sort];
    const dir = order === 'asc' ? asc : desc;
    const [totalRow] = await this.db.select({ n: count() }).from(partners).where(where);
    const rows = await this.db
      .select()
      .from(partners)
      .where(where)
      .orderBy(dir(column), dir(partners.id))
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize);
    return { total: Number(totalRow?.n ?? 0), rows };
  }

  async findPartner(id: number): Promise<PartnerRow | undefined> {
    const [row] = await this.db.select().from(partners).where(eq(partners.id, id)).limit(1);
    return row;
  }

  async partnerCodeTaken(code: string): Promise<boolean> {
    const [dup] = await this.db
      .select({ id: partners.id })
      .from(partners)
      .where(eq(partners.code, code))
      .limit(1);
    return Boolean(dup);
  }

  async insertPartner(values: PartnerInsert): Promise<PartnerRow> {
    const [created] = await this.db.insert(partners).values(values).returning();
    return created!;
  }

  async updatePartner(id: number, values: Partial<PartnerInsert>): Promise<PartnerRow> {
    const [after] = await this.db.update(partners).set(values).where(eq(partners.id, id)).returning();
    return after!;
  }

  /* —— products —— */

  private productRows(where: SQL | undefined, day: string) {
    return this.db
      .select({
        product: products,
        partnerName: partners.legalName,
        partnerStatus: partners.status,
        allowedHosts: partners.allowedHosts,
        todayCount: sql<number>`coalesce(${productCounters.count}, 0)`,
        totalCount: sql<number>`coalesce(${productTotals.count}, 0)`,
      })
      .from(products)
      .innerJoin(partners, eq(products.partnerId, partners.id))
      .leftJoin(
        productCounters,
        and(eq(productCounters.productId, products.id), eq(productCounters.day, day)),
      )
      .leftJoin(productTotals, eq(productTotals.productId, products.id))
      .where(where);
  }

  /**
   * One page of products with their counters on `day` (nulls of the sort column last, ties broken by
   * id in the same direction) and how many match.
   */
  async listProducts(
    filter: ProductFilter,
    sort: (typeof PRODUCT_SORTS)[number],
    order: Order,
    page: Page,
    day: string,
  ): Promise<{ total: number; rows: ProductListRow[] }> {
    const where = productWhere(filter);
    const column = {
      id: products.id,
      priority: products.priority,
      aprBps: products.aprBps,
      priceFen: products.priceFen,
      updatedAt: products.updatedAt,
    }[sort];
    const dir = order === 'asc' ? asc : desc;
    const [totalRow] = await this.db.select({ n: count() }).from(products).where(where);
    const rows = await this.productRows(where, day)
      .orderBy(
        order === 'asc' ? sql`${column} asc nulls last` : sql`${column} desc nulls last`,
        dir(products.id),
      )
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize);
    return { total: Number(totalRow?.n ?? 0), rows };
  }

  /** One product with its lender and its counters on `day`. */
  async findProductWithCounters(id: number, day: string): Promise<ProductListRow | undefined> {
    const [r] = await this.productRows(eq(products.id, id), day).limit(1);
    return r;
  }

  async findProduct(id: number): Promise<ProductRow | undefined> {
    const [row] = await this.db.select().from(products).where(eq(products.id, id)).limit(1);
    return row;
  }

  async findProductWithPartner(
    id: number,
  ): Promise<{ product: ProductRow; partner: PartnerRow } | undefined> {
    const [r] = await this.db
      .select({ product: products, partner: partners })
      .from(products)
      .innerJoin(partners, eq(products.partnerId, partners.id))
      .where(eq(products.id, id))
      .limit(1);
    return r;
  }

  async productCodeTaken(code: string): Promise<boolean> {
    const [dup] = await this.db
      .select({ id: products.id })
      .from(products)
      .where(eq(products.code, code))
      .limit(1);
    return Boolean(dup);
  }

  async insertProduct(values: ProductInsert): Promise<ProductRow> {
    const [created] = await this.db.insert(products).values(values).returning();
    return created!;
  }

  async updateProduct(id: number, values: Partial<ProductInsert>): Promise<ProductRow> {
    const [after] = await this.db.update(products).set(values).where(eq(products.id, id)).returning();
    return after!;
  }

  async setProductStatus(id: number, status: ProductStatusValue, at: Date): Promise<void> {
    await this.db.update(products).set({ status, updatedAt: at }).where(eq(products.id, id));
  }

  /** Products that are not live: not published, or of a lender that is not active. */
  notLiveProducts(): Promise<
    { product: ProductRow; legalName: string; partnerStatus: PartnerRow['status'] }[]
  > {
    return this.db
      .select({ product: products, legalName: partners.legalName, partnerStatus: partners.status })
      .from(products)
      .innerJoin(partners, eq(products.partnerId, partners.id))
      .where(not(and(eq(products.status, 'published'), eq(partners.status, 'active'))!));
  }

  /** Today's cap counters per product (the caps module's query, on this handle). */
  todayCounters(day: string): Promise<Record<string, CapCount>> {
    return todayCounters(this.db, day);
  }
}
