import {
  COMPANY_TYPES,
  H5_LINK_TYPES,
  type ProductDetail,
  type ProductEventInput,
  type ProductItem,
  type ProductListQuery,
  type ProductPage,
} from '@lm/shared/schemas/product';
import { shanghaiDate, shanghaiDayBounds } from '@lm/shared/time';
import { appError } from '../../lib/errors.ts';
import { partnerTargetUrl } from '../../lib/partner-url.ts';
import type { Limiter } from '../limits/limiter.ts';
import type { CatalogRepository, ListedFilter, ProductEventKind } from './repository.ts';
import {
  applyVerdict,
  COLUMN_NAMES,
  isListed,
  mergeTodayApplies,
  PRODUCT_NOT_FOUND_MSG,
  pageOffset,
  type TodayApplyHit,
  toProductDetail,
  toProductItem,
} from './rules.ts';

/** Exposure reports per client IP per hour (a list page reports every product it shows). */
export const EXPOSURES_PER_IP_PER_HOUR = 2000;

export interface CatalogServiceDeps {
  repo: CatalogRepository;
  limiter: Limiter;
}

/** Spec §7 "Products": the catalogue shown to people, applies and the product events. */
export class CatalogService {
  constructor(private readonly d: CatalogServiceDeps) {}

  private find(productId: number) {
    return this.d.repo.findWithPartner(productId);
  }

  /** productList: one page of the catalogue, filtered. */
  async page(q: ProductListQuery): Promise<ProductPage> {
    const filter: ListedFilter = {
      amountFen: q.amount !== undefined ? q.amount * 100 : undefined,
      termMonths: q.termMonths,
      companyType: q.companyType,
      institutionType: q.institutionType,
      linkType: q.linkType,
    };
    const [rows, total] = await Promise.all([
      this.d.repo.listListed(filter, {
        order: 'catalogue',
        limit: q.pageSize,
        offset: pageOffset(q.pageNum, q.pageSize),
      }),
      this.d.repo.countListed(filter),
    ]);
    return {
      list: rows.map((r) => toProductItem(r.product, r.partner)),
      total,
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    };
  }

  /** topRecommend: the first `size` products of the catalogue. */
  async top(size: number): Promise<ProductItem[]> {
    const rows = await this.d.repo.listListed({}, { order: 'catalogue', limit: size });
    return rows.map((r) => toProductItem(r.product, r.partner));
  }

  /** columnRecommendProductList: one column per company type, each in catalogue order. */
  async columns(size: number) {
    return Promise.all(
      COMPANY_TYPES.map(async (columnCode) => {
        const rows = await this.d.repo.listListed(
          { companyType: columnCode },
          { order: 'catalogue', limit: size },
        );
        return {
          columnCode,
          columnName: COLUMN_NAMES[columnCode],
          list: rows.map((r) => toProductItem(r.product, r.partner)),
        };
      }),
    );
  }

  /** randomRecommend: any listed product (uniformly), or null when there is none. */
  async random(excludeProductId?: number): Promise<ProductItem | null> {
    const [row] = await this.d.repo.listListed(
      { excludeId: excludeProductId },
      { order: 'random', limit: 1 },
    );
    return row ? toProductItem(row.product, row.partner) : null;
  }

  /** detail: a listed product; anything else (unknown, draft, paused, suspended lender) is NOT_FOUND. */
  async detail(productId: number): Promise<ProductDetail> {
    const row = await this.find(productId);
    if (!row || !isListed(row.product, row.partner)) {
      throw appError('NOT_FOUND', `${PRODUCT_NOT_FOUND_MSG}或已下架`, { productId: String(productId) });
    }
    return toProductDetail(row.product, row.partner);
  }

  /** h5product/union: listed H5 products (link types 1 and 4) whose page is on an allowed host. */
  async union(): Promise<ProductItem[]> {
    const rows = await this.d.repo.listListed({ linkTypesWithTarget: H5_LINK_TYPES }, { order: 'catalogue' });
    return rows
      .filter((r) => partnerTargetUrl(r.product.targetUrl, r.partner.allowedHosts) !== null)
      .map((r) => toProductItem(r.product, r.partner));
  }

  /**
   * listTodayApplyProduct: listed products the person applied to (product/apply) or consented to
   * share data with today (Shanghai day), most recent first, with the day's first time.
   */
  async todayApplied(userId: number, now = new Date()) {
    const day = shanghaiDate(now);
    const { start, end } = shanghaiDayBounds(day);
    const [applies, consented] = await Promise.all([
      this.d.repo.appliesOn(userId, day),
      this.d.repo.consentsBetween(userId, start, end),
    ]);
    const hits: TodayApplyHit[] = [
      ...applies.map((a) => ({ ...a, source: 'apply' as const })),
      ...consented.map((c) => ({ ...c, source: 'consent' as const })),
    ];
    const merged = mergeTodayApplies(hits);
    if (merged.length === 0) return [];
    const rows = await this.d.repo.listListed({ ids: merged.map((m) => m.productId) }, { order: 'none' });
    const byId = new Map(rows.map((r) => [r.product.id, r]));
    return merged.flatMap((m) => {
      const row = byId.get(m.productId);
      if (!row) return [];
      return [
        {
          ...toProductItem(row.product, row.partner),
          appliedAt: m.firstAt.toISOString(),
          sources: m.sources,
        },
      ];
    });
  }

  /**
   * product/apply: checks the product (listed, target URL on the partner's allowed hosts), records
   * one apply event per person, product and placement a day, and answers where to go.
   */
  async apply(userId: number, input: ProductEventInput, now = new Date()) {
    const row = await this.find(input.productId);
    if (!row) throw appError('NOT_FOUND', PRODUCT_NOT_FOUND_MSG, { productId: String(input.productId) });
    const verdict = applyVerdict(row.product, row.partner, now);
    if (!verdict.ok) throw appError(verdict.kind, verdict.msg, { productId: String(input.productId) });
    await this.recordOnce('apply', userId, input, shanghaiDate(now), true);
    return { thirdpartyTargetUrl: verdict.thirdpartyTargetUrl, linkType: row.product.linkType };
  }

  /** apiH5JumpUrlSuccessFlag: the partner page opened; once per person and product a day. */
  async jumpSuccess(userId: number, input: ProductEventInput, now = new Date()) {
    const row = await this.find(input.productId);
    if (!row) throw appError('NOT_FOUND', PRODUCT_NOT_FOUND_MSG, { productId: String(input.productId) });
    const recorded = await this.recordOnce('jump_success', userId, input, shanghaiDate(now), false);
    return { recorded };
  }

  /**
   * reportProductExposure: a logged-in person's exposure is stored once per product and placement a
   * day; anonymous ones are all stored (no identity to de-duplicate on), under a per-IP hourly cap.
   * An existing product that is no longer listed is not stored (recorded false).
   */
  async exposure(userId: number | null, input: ProductEventInput, ip: string, now = new Date()) {
    await this.d.limiter.enforce(
      `exposure:ip:${ip}`,
      EXPOSURES_PER_IP_PER_HOUR,
      { ms: 3600_000 },
      '曝光上报',
    );
    const row = await this.find(input.productId);
    if (!row) throw appError('NOT_FOUND', PRODUCT_NOT_FOUND_MSG, { productId: String(input.productId) });
    if (!isListed(row.product, row.partner)) return { recorded: false };
    const day = shanghaiDate(now);
    if (userId === null) {
      await this.d.repo.insertEvent({
        userId: null,
        productId: input.productId,
        kind: 'exposure',
        entranceType: input.entranceType,
        appH5: input.appH5,
        day,
      });
      return { recorded: true };
    }
    return { recorded: await this.recordOnce('exposure', userId, input, day, true) };
  }

  /**
   * Stores the event unless the person already has one of this kind for the product today (and, with
   * `byPlacement`, the same placement). An advisory lock on the key makes concurrent reports one row.
   */
  private async recordOnce(
    kind: ProductEventKind,
    userId: number,
    input: ProductEventInput,
    day: string,
    byPlacement: boolean,
  ): Promise<boolean> {
    const key = `product_events:${kind}:${userId}:${input.productId}:${byPlacement ? input.entranceType : '*'}:${day}`;
    return this.d.repo.transaction(async (repo) => {
      await repo.lockKey(key);
      const existing = await repo.hasEvent({
        userId,
        day,
        productId: input.productId,
        kind,
        entranceType: input.entranceType,
        byPlacement,
      });
      if (existing) return false;
      await repo.insertEvent({
        userId,
        productId: input.productId,
        kind,
        entranceType: input.entranceType,
        appH5: input.appH5,
        day,
      });
      return true;
    });
  }
}
