/**
 * What the person consented to (the answer of PUT /api/user/info/auth, `authData` of
 * @lm/shared/schemas/matching), kept in sessionStorage for the result page, and the partner pages the
 * H5 may open in /inline-page because our own server named them.
 *
 * Why /inline-page may open a URL from this list although its host is not in the channel's
 * `allowedHosts` (h5Config): the demo channels allow only partner.example.com, while each lender's
 * pages are on that lender's own host (partner-a.example.com …). The server already checks a
 * consented H5-redirect product's `thirdpartyTargetUrl` against that partner's allowed hosts before
 * answering it (docs/matching-consent-delivery.md), and an "already registered" match result
 * (applyStatus 2) names the lender's own page. So:
 * - only URLs taken from those answers of our API are added (never from the page's query or from a
 *   link), by exact URL (not by host: a vouched lender page does not vouch for its whole site);
 * - https only (checkInlineUrl still refuses everything else);
 * - the list lives in sessionStorage: per origin and per tab, never readable or writable from a link,
 *   and cleared on logout with the rest of the session's flow state (lib/session.ts).
 * A link crafted elsewhere (`/inline-page?url=https://evil…`) is refused as before.
 */
import { safeSession } from './matched-products';

export const CONSENT_SESSION_KEYS = {
  /** The consents given in this session: ConsentedItem[] (newest answer last). */
  authorizeResult: 'authorizeResult',
  /** Partner page URLs named by our server's answers (string[]). */
  partnerUrls: 'partnerRedirectUrls',
} as const;

/** One consented product of the auth answer. */
export interface ConsentedItem {
  productId: string;
  productName: string;
  /** The lender's legal name and the APR in bps (null: not given). */
  lenderName: string | null;
  aprBps: number | null;
  consentId: number | null;
  /** 'api' delivered by the server; 'h5Redirect' open thirdpartyTargetUrl; others wait for the lender. */
  mode: string;
  thirdpartyTargetUrl: string | null;
}

export interface AuthAnswer {
  submitStatus: number | null;
  consented: ConsentedItem[];
  declined: string[];
}

type Store = Pick<Storage, 'getItem' | 'setItem'>;
type Raw = Record<string, unknown>;

const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
const idOf = (v: unknown): string | null =>
  typeof v === 'number' && Number.isFinite(v) ? String(v) : str(v);

function toItem(raw: unknown): ConsentedItem | null {
  if (!isObject(raw)) return null;
  const productId = idOf(raw.productId);
  if (!productId) return null;
  return {
    productId,
    productName: str(raw.productName) ?? '合作机构',
    lenderName: str(raw.lenderName),
    aprBps: typeof raw.aprBps === 'number' && Number.isInteger(raw.aprBps) ? raw.aprBps : null,
    consentId: typeof raw.consentId === 'number' ? raw.consentId : null,
    mode: str(raw.mode) ?? 'api',
    thirdpartyTargetUrl: str(raw.thirdpartyTargetUrl),
  };
}

/** The auth answer, leniently (a missing list is empty). */
export function parseAuthAnswer(value: unknown): AuthAnswer {
  const raw = isObject(value) ? value : {};
  const consented = Array.isArray(raw.consented)
    ? raw.consented.map(toItem).filter((x): x is ConsentedItem => x !== null)
    : [];
  const declined = Array.isArray(raw.declined)
    ? raw.declined.map(idOf).filter((x): x is string => x !== null)
    : [];
  return {
    submitStatus: typeof raw.submitStatus === 'number' ? raw.submitStatus : null,
    consented,
    declined,
  };
}

/** https URLs only, normalised the way checkInlineUrl compares them; null otherwise. */
export function normalizePartnerUrl(raw: string | null | undefined): string | null {
  if (!raw) return null;
  try {
    const url = new URL(raw.trim());
    if (url.protocol !== 'https:' || url.username || url.password) return null;
    return url.href;
  } catch {
    return null;
  }
}

/** Consented products whose lender's own page continues the application ("去申请"). */
export function redirectTargets(items: readonly ConsentedItem[]): { productName: string; url: string }[] {
  const out: { productName: string; url: string }[] = [];
  for (const item of items) {
    if (item.mode !== 'h5Redirect') continue;
    const url = normalizePartnerUrl(item.thirdpartyTargetUrl);
    if (url) out.push({ productName: item.productName, url });
  }
  return out;
}

function readList<T>(
  store: Pick<Storage, 'getItem'> | null,
  key: string,
  parse: (v: unknown) => T | null,
): T[] {
  const raw = store?.getItem(key);
  if (!raw) return [];
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? value.map(parse).filter((x): x is T => x !== null) : [];
  } catch {
    return [];
  }
}

function writeList(store: Store | null, key: string, list: unknown[]): void {
  try {
    store?.setItem(key, JSON.stringify(list));
  } catch {
    // Storage unavailable: the result page shows the generic text and no partner buttons.
  }
}

/** The partner URLs our server's answers named in this session. */
export function vouchedPartnerUrls(store: Pick<Storage, 'getItem'> | null = safeSession()): string[] {
  return readList(store, CONSENT_SESSION_KEYS.partnerUrls, (v) =>
    typeof v === 'string' ? normalizePartnerUrl(v) : null,
  );
}

/** Adds a URL taken from our server's answer (see the module comment); ignores anything not https. */
export function vouchPartnerUrl(raw: string | null | undefined, store: Store | null = safeSession()): void {
  const url = normalizePartnerUrl(raw);
  if (!url) return;
  const list = vouchedPartnerUrls(store);
  if (!list.includes(url)) writeList(store, CONSENT_SESSION_KEYS.partnerUrls, [...list, url].slice(-20));
}

/** The consents given in this session (first and second authorisation). */
export function readConsents(store: Pick<Storage, 'getItem'> | null = safeSession()): ConsentedItem[] {
  return readList(store, CONSENT_SESSION_KEYS.authorizeResult, toItem);
}

/** Keeps an auth answer for the result page and vouches for its H5-redirect targets. */
export function recordConsent(answer: AuthAnswer, store: Store | null = safeSession()): void {
  const byId = new Map(readConsents(store).map((c) => [c.productId, c]));
  for (const item of answer.consented) byId.set(item.productId, item);
  writeList(store, CONSENT_SESSION_KEYS.authorizeResult, [...byId.values()]);
  for (const target of redirectTargets(answer.consented)) vouchPartnerUrl(target.url, store);
}
