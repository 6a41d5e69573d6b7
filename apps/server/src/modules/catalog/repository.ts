import { and, asc, count, desc, eq, gte, inArray, isNotNull, lt, lte, ne, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { consents, partners, productEvents, products } from '../../db/schema.ts';
import type { ProductRow } from '../matching/product-row.ts';
import type { CatalogPartner } from './rules.ts';

export type ProductEventKind = (typeof productEvents.$inferInsert)['kind'];
type NewProductEvent = typeof productEvents.$inferInsert;

/** Which listed products: every condition given must hold. */
export interface ListedFilter {
  /** The amount (fen) lies within the product's range. */
  amountFen?: number | undefined;
  /** The term (months) lies within the product's range. */
  termMonths?: number | undefined;
  companyType?: ProductRow['companyType'] | undefined;
  institutionType?: ProductRow['institutionType'] | undefined;
  linkType?: ProductRow['linkType'] | undefined;
  /** One of these link types, with a target URL. */
  linkTypesWithTarget?: readonly number[] | undefined;
  /** Any product but this one. */
  excludeId?: number | undefined;
  /** Only these products. */
  ids?: number[] | undefined;
}

/** catalogue: priority desc, then price desc, then id; random: uniformly; none: as the database finds them. */
export type ListedOrder = 'catalogue' | 'random' | 'none';

export interface CatalogRow {
  product: ProductRow;
  partner: CatalogPartner;
}

const partnerFields = {
  legalName: partners.legalName,
  licenceNumber: partners.licenceNumber,
  allowedHosts: partners.allowedHosts,
  status: partners.status,
};

/** Published products of active partners. */
const listedCondition = and(eq(products.status, 'published'), eq(partners.status, 'active'))!;
const catalogueOrder = [desc(products.priority), desc(products.priceFen), asc(products.id)];

function listedWhere(f: ListedFilter): SQL {
  const filters: SQL[] = [];
  if (f.amountFen !== undefined) {
    filters.push(lte(products.amountMinFen, f.amountFen), gte(products.amountMaxFen, f.amountFen));
  }
  if (f.termMonths !== undefined) {
    filters.push(lte(products.termMinMonths, f.termMonths), gte(products.termMaxMonths, f.termMonths));
  }
  if (f.companyType !== undefined) filters.push(eq(products.companyType, f.companyType));
  if (f.institutionType !== undefined) filters.push(eq(products.institutionType, f.institutionType));
  if (f.linkType !== undefined) filters.push(eq(products.linkType, f.linkType));
  if (f.linkTypesWithTarget !== undefined) {
    filters.push(inArray(products.linkType, [...f.linkTypesWithTarget]), isNotNull(products.targetUrl));
  }
  if (f.excludeId !== undefined) filters.push(ne(products.id, f.excludeId));
  if (f.ids !== undefined) filters.push(inArray(products.id, f.ids));
  return filters.length > 0 ? and(listedCondition, and(...filters))! : listedCondition;
}

/** The catalogue (products with their partners) and the product events (product_events). */
export class CatalogRepository {
  constructor(private readonly db: Db) {}

  /** Runs `fn` in one transaction; `repo` works on it. */
  transaction<T>(fn: (repo: CatalogRepository, tx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new CatalogRepository(tx as unknown as Db), tx as unknown as Db));
  }

  /** Listed products matching `filter`, in `order`, at most `limit` from `offset`. */
  async listListed(
    filter: ListedFilter,
    page: { order: ListedOrder; limit?: number; offset?: number },
  ): Promise<CatalogRow[]> {
    let query = this.db
      .select({ product: products, partner: partnerFields })
      .from(products)
      .innerJoin(partners, eq(products.partnerId, partners.id))
      .where(listedWhere(filter))
      .$dynamic();
    if (page.order === 'catalogue') query = query.orderBy(...catalogueOrder);
    else if (page.order === 'random') query = query.orderBy(sql`random()`);
    if (page.limit !== undefined) query = query.limit(page.limit);
    if (page.offset !== undefined) query = query.offset(page.offset);
    return query;
  }

  /** How many listed products match `filter`. */
  async countListed(filter: ListedFilter): Promise<number> {
    const [total] = await this.db
      .select({ n: count() })
      .from(products)
      .innerJoin(partners, eq(products.partnerId, partners.id))
      .where(listedWhere(filter));
    return total?.n ?? 0;
  }

  /** A product (listed or not) with its partner. */
  async findWithPartner(productId: number): Promise<CatalogRow | null> {
    const [row] = await this.db
      .select({ product: products, partner: partnerFields })
      .from(products)
      .innerJoin(partners, eq(products.partnerId, partners.id))
      .where(eq(products.id, productId))
      .limit(1);
    return row ?? null;
  }

  /** The person's apply events of the Shanghai day `day`. */
  async appliesOn(userId: number, day: string): Promise<{ productId: number; at: Date }[]> {
    return this.db
      .select({ productId: productEvents.productId, at: productEvents.createdAt })
      .from(productEvents)
      .where(
        and(eq(productEvents.userId, userId), eq(productEvents.kind, 'apply'), eq(productEvents.day, day)),
      );
  }

  /** The person's consents made in [start, end). */
  async consentsBetween(userId: number, start: Date, end: Date): Promise<{ productId: number; at: Date }[]> {
    return this.db
      .select({ productId: consents.productId, at: consents.createdAt })
      .from(consents)
      .where(and(eq(consents.userId, userId), gte(consents.createdAt, start), lt(consents.createdAt, end)));
  }

  async insertEvent(values: NewProductEvent): Promise<void> {
    await this.db.insert(productEvents).values(values);
  }

  /** Takes the transaction's advisory lock on `key` (held until it ends). */
  async lockKey(key: string): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
  }

  /** Whether the person has an event of `kind` for the product on `day` (and placement, when given). */
  async hasEvent(e: {
    userId: number;
    day: string;
    productId: number;
    kind: ProductEventKind;
    entranceType: number;
    byPlacement: boolean;
  }): Promise<boolean> {
    const same = [
      eq(productEvents.userId, e.userId),
      eq(productEvents.day, e.day),
      eq(productEvents.productId, e.productId),
      eq(productEvents.kind, e.kind),
    ];
    if (e.byPlacement) same.push(eq(productEvents.entranceType, e.entranceType));
    const [existing] = await this.db
      .select({ id: productEvents.id })
      .from(productEvents)
      .where(and(...same))
      .limit(1);
    return existing !== undefined;
  }
}
