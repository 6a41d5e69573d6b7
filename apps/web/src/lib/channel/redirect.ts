/**
 * Open-redirect defence for the plan target URL of a route code: follow it only to this site or to a
 * host the channel allows (h5Config `allowedHosts`).
 */
export type RedirectTarget =
  | { kind: 'same-origin' /** path + search + hash, for the router */; path: string }
  | { kind: 'external'; url: string };

function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++)
    if (value.charCodeAt(i) < 0x20 || value.charCodeAt(i) === 0x7f) return true;
  return false;
}

export function resolveRedirect(
  target: string | null | undefined,
  current: { origin: string; allowedHosts: readonly string[] },
): RedirectTarget | null {
  const value = target?.trim();
  if (!value) return null;
  // Protocol-relative ("//evil") and backslash tricks are not paths.
  if (/^[/\\]{2}/.test(value) || hasControlCharacter(value)) return null;
  let url: URL;
  try {
    url = new URL(value, current.origin);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password) return null;
  if (url.origin === current.origin)
    return { kind: 'same-origin', path: `${url.pathname}${url.search}${url.hash}` };
  const host = url.hostname.toLowerCase();
  return current.allowedHosts.some((h) => h.trim().toLowerCase() === host)
    ? { kind: 'external', url: url.href }
    : null;
}
