/**
 * Partner addresses a person may be sent to (spec §7 "Products"; ADR 019): one rule for every partner
 * redirect — offers, consents, product lists, joint logins and the console's checks.
 */

/**
 * A partner page the person may be sent to: an absolute http(s) URL without credentials whose host is
 * one of the partner's allowed hosts (case-insensitive, exact: no subdomains). Anything else: null.
 */
export function partnerTargetUrl(
  url: string | null | undefined,
  allowedHosts: readonly string[],
): string | null {
  const value = url?.trim();
  if (!value) return null;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  if (parsed.username || parsed.password) return null;
  const host = parsed.hostname.toLowerCase();
  return allowedHosts.some((h) => h.trim().toLowerCase() === host) ? value : null;
}

/**
 * Whether `url` may be opened for this partner: `partnerTargetUrl` (http(s), no credentials, the host
 * exactly one of the partner's allowed hosts; no subdomains).
 */
export function isAllowedPartnerUrl(
  url: string | null | undefined,
  allowedHosts: readonly string[],
): boolean {
  return partnerTargetUrl(url, allowedHosts) !== null;
}
