/**
 * Matched products kept in sessionStorage between the match and the authorisation pages (spec §3:
 * productMatchInfo, seconedProductMatchInfo, openSecondAuthorize).
 */
export const MATCH_SESSION_KEYS = {
  productMatchInfo: 'productMatchInfo',
  secondProductMatchInfo: 'seconedProductMatchInfo',
  openSecondAuthorize: 'openSecondAuthorize',
} as const;

export interface MatchedProduct {
  id: string;
  productName: string;
  companyType: string | null;
  /** The partner behind a whole-process product (thirdpartyType 7). */
  partnerProductName: string | null;
  thirdpartyTargetUrl: string | null;
  applyStatus: number | null;
}

type Raw = Record<string, unknown>;

const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
const idOf = (v: unknown): string | null =>
  typeof v === 'number' && Number.isFinite(v)
    ? String(v)
    : typeof v === 'string' && v.trim()
      ? v.trim()
      : null;

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
    applyStatus: typeof raw.applyStatus === 'number' ? raw.applyStatus : null,
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

/** Reads and parses a stored match; [] when absent or not JSON. */
export function readMatchedProducts(
  key: string,
  store: Pick<Storage, 'getItem'> | null = safeSession(),
): MatchedProduct[] {
  const raw = store?.getItem(key);
  if (!raw) return [];
  try {
    return parseMatchedProducts(JSON.parse(raw));
  } catch {
    return [];
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
