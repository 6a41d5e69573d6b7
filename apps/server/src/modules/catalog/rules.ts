import type { AgentData, CompanyType, ProductDetail, ProductItem } from '@lm/shared/schemas/product';
import { H5_LINK_TYPES } from '@lm/shared/schemas/product';
import { partnerTargetUrl } from '../../lib/partner-url.ts';
import { isWithinActiveHours } from '../matching/match.ts';
import { type PartnerRow, type ProductRow, productHead } from '../matching/product-row.ts';

/** Pure rules of the product catalogue (spec §7 "Products"): mapping, URL check, apply refusal. */

/** The partner fields the catalogue needs. */
export type CatalogPartner = Pick<PartnerRow, 'legalName' | 'licenceNumber' | 'allowedHosts' | 'status'>;

/** Refusal texts (toasts). */
export const PRODUCT_NOT_FOUND_MSG = '产品不存在';
export const PRODUCT_UNAVAILABLE_MSG = '该产品已下架，暂不可申请';
export const TARGET_URL_NOT_ALLOWED_MSG =
  '该产品的申请地址不在合作机构登记的域名内，暂不可申请，请选择其他产品';
export const TARGET_URL_MISSING_MSG = '该产品暂未配置申请地址，暂不可申请，请选择其他产品';

export function isH5LinkType(linkType: number): boolean {
  return (H5_LINK_TYPES as readonly number[]).includes(linkType);
}

/** A product as listed. The target URL only for H5 link types, and only when its host is allowed. */
export function toProductItem(row: ProductRow, partner: CatalogPartner): ProductItem {
  return {
    ...productHead(row),
    linkType: row.linkType,
    amountMinFen: row.amountMinFen,
    amountMaxFen: row.amountMaxFen,
    termMinMonths: row.termMinMonths,
    termMaxMonths: row.termMaxMonths,
    aprBps: row.aprBps,
    lenderLegalName: partner.legalName,
    thirdpartyTargetUrl: isH5LinkType(row.linkType)
      ? partnerTargetUrl(row.targetUrl, partner.allowedHosts)
      : null,
  };
}

export function toProductDetail(row: ProductRow, partner: CatalogPartner): ProductDetail {
  return {
    ...toProductItem(row, partner),
    lenderLicenceNumber: partner.licenceNumber,
    sharedFields: [...row.sharedFields],
    activeHours: row.activeHours ? { ...row.activeHours } : null,
  };
}

/** Whether a product is shown to people at all: published, of an active partner. */
export function isListed(row: Pick<ProductRow, 'status'>, partner: Pick<CatalogPartner, 'status'>): boolean {
  return row.status === 'published' && partner.status === 'active';
}

export type ApplyVerdict =
  | { ok: true; thirdpartyTargetUrl: string | null }
  | { ok: false; kind: 'NOT_FOUND' | 'FORBIDDEN'; msg: string };

/** "该产品仅在每日09:00–21:00受理申请…" (a window across midnight reads "22:00–次日06:00"). */
export function outsideHoursMessage(hours: { from: string; to: string }): string {
  const to = hours.to < hours.from ? `次日${hours.to}` : hours.to;
  return `该产品仅在每日${hours.from}–${to}受理申请，请在受理时间内再试`;
}

/**
 * May the person apply at `now`, and where do they go? Refused, in this order:
 * - an unpublished product or one of a suspended lender: NOT_FOUND "已下架";
 * - outside the product's active hours (Shanghai): FORBIDDEN naming the hours;
 * - a target URL off the lender's allowed hosts, or an H5 product (link types 1, 4) without one:
 *   FORBIDDEN.
 * A product without a target URL (API, CRM, callback … link types) answers null: its leads go
 * through the application form and the per-lender consent.
 */
export function applyVerdict(row: ProductRow, partner: CatalogPartner, now: Date): ApplyVerdict {
  if (!isListed(row, partner)) return { ok: false, kind: 'NOT_FOUND', msg: PRODUCT_UNAVAILABLE_MSG };
  if (row.activeHours && !isWithinActiveHours(row.activeHours, now)) {
    return { ok: false, kind: 'FORBIDDEN', msg: outsideHoursMessage(row.activeHours) };
  }
  if (row.targetUrl === null || row.targetUrl.trim() === '') {
    if (isH5LinkType(row.linkType)) return { ok: false, kind: 'FORBIDDEN', msg: TARGET_URL_MISSING_MSG };
    return { ok: true, thirdpartyTargetUrl: null };
  }
  const url = partnerTargetUrl(row.targetUrl, partner.allowedHosts);
  if (url === null) return { ok: false, kind: 'FORBIDDEN', msg: TARGET_URL_NOT_ALLOWED_MSG };
  return { ok: true, thirdpartyTargetUrl: url };
}

/** Offset of a page (pageNum from 1). */
export function pageOffset(pageNum: number, pageSize: number): number {
  return (pageNum - 1) * pageSize;
}

export type ApplySource = 'apply' | 'consent';
export interface TodayApplyHit {
  productId: number;
  at: Date;
  source: ApplySource;
}

/**
 * Merges today's applies and consents into one entry per product: the first time of the day and
 * the sources seen; the most recent product first (then by id).
 */
export function mergeTodayApplies(
  hits: readonly TodayApplyHit[],
): { productId: number; firstAt: Date; lastAt: Date; sources: ApplySource[] }[] {
  const byProduct = new Map<
    number,
    { productId: number; firstAt: Date; lastAt: Date; sources: ApplySource[] }
  >();
  for (const h of hits) {
    const entry = byProduct.get(h.productId);
    if (!entry) {
      byProduct.set(h.productId, {
        productId: h.productId,
        firstAt: h.at,
        lastAt: h.at,
        sources: [h.source],
      });
      continue;
    }
    if (h.at < entry.firstAt) entry.firstAt = h.at;
    if (h.at > entry.lastAt) entry.lastAt = h.at;
    if (!entry.sources.includes(h.source)) entry.sources.push(h.source);
  }
  const order: ApplySource[] = ['apply', 'consent'];
  return [...byProduct.values()]
    .map((e) => ({ ...e, sources: order.filter((s) => e.sources.includes(s)) }))
    .sort((a, b) => b.lastAt.getTime() - a.lastAt.getTime() || a.productId - b.productId);
}

export const COLUMN_NAMES: Record<CompanyType, string> = {
  KAInstitution: '大机构精选',
  RegionInstitution: '地方机构推荐',
};

/** The customer service: the same hours for every channel (Shanghai time). */
export const AGENT_NAME = '在线客服';
export const AGENT_SERVICE_HOURS = { from: '09:00', to: '21:00' } as const;

/**
 * The customer-service contact of a channel: the licensed company operating it (its operator, the
 * company of its footer, ADR 057), the service hours and whether it is within them at `now`.
 */
export function agentFor(
  channel: { adChannelCode: string; footer: readonly { companyName: string; filingNumber: string }[] },
  now: Date,
): AgentData {
  const operator = channel.footer[0] ?? null;
  return {
    adChannelCode: channel.adChannelCode,
    agentName: AGENT_NAME,
    operatorName: operator?.companyName ?? null,
    operatorFilingNumber: operator?.filingNumber ?? null,
    serviceHours: { ...AGENT_SERVICE_HOURS },
    online: isWithinActiveHours(AGENT_SERVICE_HOURS, now),
  };
}
