/**
 * Whether /inline-page may frame a partner URL (spec §2 /inline-page; issue 4: only allowed partner
 * hosts). Only https (the page's CSP frames nothing else), and only a host equal to one of the
 * channel's allowed hosts (the server's rule for redirect targets too) or exactly one of the
 * `vouchedUrls`: lender pages our own server named in this session (consent-result.ts explains why
 * that is safe).
 */
export type InlineUrlCheck =
  | { ok: true; url: string; host: string }
  | { ok: false; reason: 'missing' | 'invalid' | 'insecure' | 'not-allowed'; host?: string };

export function checkInlineUrl(
  raw: string | null | undefined,
  allowedHosts: readonly string[],
  vouchedUrls: readonly string[] = [],
): InlineUrlCheck {
  let value = raw?.trim() ?? '';
  if (!value) return { ok: false, reason: 'missing' };
  // Links may carry the target encoded once more than the query encoding.
  if (!/^[a-z][a-z0-9+.-]*:/i.test(value) && /%3A/i.test(value)) {
    try {
      value = decodeURIComponent(value);
    } catch {
      return { ok: false, reason: 'invalid' };
    }
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (url.protocol !== 'https:') {
    return { ok: false, reason: url.protocol === 'http:' ? 'insecure' : 'invalid', host: url.hostname };
  }
  if (url.username || url.password) return { ok: false, reason: 'invalid', host: url.hostname };
  const host = url.hostname.toLowerCase();
  const allowed =
    allowedHosts.some((entry) => entry.trim().toLowerCase() === host) || vouchedUrls.includes(url.href);
  return allowed ? { ok: true, url: url.href, host } : { ok: false, reason: 'not-allowed', host };
}
