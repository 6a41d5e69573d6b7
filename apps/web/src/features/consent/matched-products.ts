/**
 * Matched products kept in sessionStorage between the match and the authorisation pages (spec §3:
 * productMatchInfo, seconedProductMatchInfo, openSecondAuthorize).
 *
 * The server's shapes are `matchResultSchema` / `productOfferSchema` of @lm/shared (issue 4). The
 * parsing here is lenient on purpose (links carry results as JSON in the query, older stored
 * values lack the lender fields): a product needs only an id and a name; every lender detail the
 * consent page shows is read when present.
 */
import type { MatchResultData } from '@lm/shared/schemas/matching';
import { groupThousands } from '@/lib/number';

export { MATCH_SESSION_KEYS } from '@/config/constants';

/** The lender behind an offer, as the consent page names it (PIPL art. 23). */
export interface MatchedLender {
  legalName: string;
  licenceNumber: string | null;
  contactName: string | null;
  /** Masked by the server. */
  contactPhone: string | null;
}

export interface MatchedProduct {
  id: string;
  productName: string;
  companyType: string | null;
  /** The partner behind a whole-process product (thirdpartyType 7). */
  partnerProductName: string | null;
  thirdpartyTargetUrl: string | null;
  applyStatus: number | null;
  linkType: number | null;
  lender: MatchedLender | null;
  /** Why the data is shared. */
  purpose: string | null;
  /** Fields the lender receives if the person consents, with their Chinese labels. */
  sharedFields: { key: string; label: string }[];
  aprBps: number | null;
  amountMinFen: number | null;
  amountMaxFen: number | null;
  termMinMonths: number | null;
  termMaxMonths: number | null;
  agreement: { id: string; version: string; title: string } | null;
}

/** A stored match: the run it came from (consented against with matchId) and its offers. */
export interface ParsedMatch {
  matchId: number | null;
  /** The run's opaque name for links (issue 16.8). */
  matchKey: string | null;
  /** 0 sold out, 1 matched, 2 already registered; null nothing matched. */
  applyStatus: number | null;
  /** The top offer's company type (spec §4 second authorisation). */
  companyType: string | null;
  products: MatchedProduct[];
}

type Raw = Record<string, unknown>;

const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const idOf = (v: unknown): string | null =>
  typeof v === 'number' && Number.isFinite(v)
    ? String(v)
    : typeof v === 'string' && v.trim()
      ? v.trim()
      : null;

function lenderOf(raw: unknown): MatchedLender | null {
  if (!isObject(raw)) return null;
  const legalName = str(raw.legalName);
  if (!legalName) return null;
  return {
    legalName,
    licenceNumber: str(raw.licenceNumber),
    contactName: str(raw.contactName),
    contactPhone: str(raw.contactPhone),
  };
}

function sharedFieldsOf(raw: unknown): { key: string; label: string }[] {
  if (!Array.isArray(raw)) return [];
  const out: { key: string; label: string }[] = [];
  for (const f of raw) {
    if (!isObject(f)) continue;
    const key = str(f.key);
    const label = str(f.label);
    if (key && label) out.push({ key, label });
  }
  return out;
}

function agreementOf(raw: unknown): MatchedProduct['agreement'] {
  if (!isObject(raw)) return null;
  const id = str(raw.id);
  const title = str(raw.title);
  if (!id || !title) return null;
  return { id, title, version: str(raw.version) ?? '' };
}

function toProduct(raw: Raw): MatchedProduct | null {
  const id = idOf(raw.id);
  const productName = str(raw.productName);
  if (!id || !productName) return null;
  const bump = isObject(raw.yqlWholeProcessBumpVO) ? raw.yqlWholeProcessBumpVO : null;
  return {
    id,
    productName,
    companyType: str(raw.companyType),
    partnerProductName:
      str(raw.partnerProductName) ?? (raw.thirdpartyType === 7 ? str(bump?.partnerProductName) : null),
    thirdpartyTargetUrl: str(raw.thirdpartyTargetUrl),
    applyStatus: int(raw.applyStatus),
    linkType: int(raw.linkType),
    lender: lenderOf(raw.lender),
    purpose: str(raw.purpose),
    sharedFields: sharedFieldsOf(raw.sharedFields),
    aprBps: int(raw.aprBps),
    amountMinFen: int(raw.amountMinFen),
    amountMaxFen: int(raw.amountMaxFen),
    termMinMonths: int(raw.termMinMonths),
    termMaxMonths: int(raw.termMaxMonths),
    agreement: agreementOf(raw.agreement),
  };
}

/**
 * The products a stored match offers for authorisation: the matched product itself and its
 * `mayAuthProductList`, from an object, a list, or `{list}` / `{records}`; duplicates and malformed
 * entries dropped.
 */
export function parseMatchedProducts(value: unknown): MatchedProduct[] {
  const out = new Map<string, MatchedProduct>();
  const visit = (item: unknown, depth: number) => {
    if (depth > 3) return;
    if (Array.isArray(item)) {
      for (const x of item) visit(x, depth + 1);
      return;
    }
    if (!isObject(item)) return;
    const product = toProduct(item);
    if (product && !out.has(product.id)) out.set(product.id, product);
    for (const key of ['mayAuthProductList', 'list', 'records'] as const) {
      if (Array.isArray(item[key])) visit(item[key], depth + 1);
    }
  };
  visit(value, 0);
  return [...out.values()];
}

/** A match result (matchResultSchema, or an older/partial shape) with its run id and offers. */
export function parseMatch(value: unknown): ParsedMatch {
  const raw: Partial<MatchResultData> & Raw = isObject(value) ? value : {};
  const matchId = int(raw.matchId);
  return {
    matchId: matchId !== null && matchId > 0 ? matchId : null,
    matchKey: str(raw.matchKey),
    applyStatus: int(raw.applyStatus),
    companyType: str(raw.companyType),
    products: parseMatchedProducts(value),
  };
}

/**
 * The match to authorise: the link's `rqResult` (a re-match, spec §4 step 6) when it has offers, else
 * the stored one. One match only — never a mix: the consent names one match run (matchId).
 */
export function pickMatch(fromLink: unknown, stored: ParsedMatch): ParsedMatch {
  const linked = parseMatch(fromLink);
  return linked.products.length > 0 ? linked : stored;
}

/** Whether a match result has a product (spec §4: "a second match stores its result only if it has an id"). */
export function hasMatchId(value: unknown): boolean {
  return isObject(value) && idOf(value.id) !== null;
}

/** Reads and parses a stored match; [] when absent or not JSON. */
export function readMatchedProducts(
  key: string,
  store: Pick<Storage, 'getItem'> | null = safeSession(),
): MatchedProduct[] {
  return readMatch(key, store).products;
}

/** A stored match result as stored (null when absent or not JSON). */
export function readStoredMatch(
  key: string,
  store: Pick<Storage, 'getItem'> | null = safeSession(),
): unknown {
  const raw = store?.getItem(key);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}

/** Reads a stored match (empty when absent or not JSON). */
export function readMatch(key: string, store: Pick<Storage, 'getItem'> | null = safeSession()): ParsedMatch {
  const raw = store?.getItem(key);
  if (!raw) return parseMatch(null);
  try {
    return parseMatch(JSON.parse(raw));
  } catch {
    return parseMatch(null);
  }
}

export function safeSession(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export function storeMatch(key: string, value: unknown): void {
  try {
    window.sessionStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage unavailable: the next page shows its empty state.
  }
}

/* —— how the consent page writes an offer's terms —— */

/** "年化利率 18.00%" (basis points, two decimals). */
export function formatApr(aprBps: number | null): string | null {
  if (aprBps === null || aprBps < 0) return null;
  return `年化利率 ${(aprBps / 100).toFixed(2)}%`;
}

/** fen → "5,000元" below ten thousand yuan, "1万元", "1.5万元", "20万元" from there. */
export function formatAmountFen(fen: number): string {
  const yuan = fen / 100;
  if (yuan >= 10_000) {
    const wan = Math.round((yuan / 10_000) * 100) / 100;
    return `${wan}万元`;
  }
  return `${groupThousands(yuan)}元`;
}

/** "1,000元–20万元"; one bound when both are equal; null when unknown. */
export function formatAmountRange(minFen: number | null, maxFen: number | null): string | null {
  if (minFen === null || maxFen === null || minFen < 0 || maxFen < minFen) return null;
  if (minFen === maxFen) return formatAmountFen(minFen);
  return `${formatAmountFen(minFen)}–${formatAmountFen(maxFen)}`;
}

/** "3–36个月", "12个月"; null when unknown. */
export function formatTermRange(min: number | null, max: number | null): string | null {
  if (min === null || max === null || min <= 0 || max < min) return null;
  return min === max ? `${min}个月` : `${min}–${max}个月`;
}

/** The labels of the fields shared, each once, in the server's order ("姓名、手机号、…"). */
export function sharedFieldLabels(fields: readonly { label: string }[]): string[] {
  return [...new Set(fields.map((f) => f.label))];
}
