/**
 * Where a login returns to (issue 16.4): a page that needs a session sends the visitor to
 * /getQuota with `returnTo` (its own path and query), and the login goes back there. Only a path of
 * this site is followed (no open redirect): anything else — another origin, `//host`, a backslash or
 * a control character browsers would read as one, the login pages themselves — is ignored and the
 * post-login decision runs instead.
 */
export const RETURN_TO_PARAM = 'returnTo';

/** Pages that are the login (returning there would only show the form again). */
const LOGIN_PAGES = new Set(['/', '/download', '/login', '/getQuota', '/h5']);

const MAX_LENGTH = 2000;
const PROBE_ORIGIN = 'https://return-to.invalid';

/** `raw` as an internal path with its query and hash, or null when it is not one to follow. */
export function safeReturnTo(raw: string | null | undefined): string | null {
  if (!raw || raw.length > MAX_LENGTH) return null;
  if (!raw.startsWith('/') || raw.startsWith('//')) return null;
  // A backslash counts as a slash in URLs; tabs and newlines are dropped by the parser ("/\t/evil").
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\\\u0000-\u001f\u007f]/.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, PROBE_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PROBE_ORIGIN) return null;
  const page = url.pathname.replace(/\/+$/, '') || '/';
  if (LOGIN_PAGES.has(page)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** A login page's URL (`/getQuota` by default) with the channel code and the page to return to. */
export function loginPathFor(
  adChannelCode: string | null | undefined,
  returnTo?: string | null,
  page = '/getQuota',
): string {
  const query = new URLSearchParams();
  if (adChannelCode) query.set('adChannelCode', adChannelCode);
  const back = safeReturnTo(returnTo);
  if (back) query.set(RETURN_TO_PARAM, back);
  const qs = query.toString();
  return qs ? `${page}?${qs}` : page;
}

/** The safe `returnTo` of a login page's query string, or null. */
export function returnToOf(search: string): string | null {
  return safeReturnTo(new URLSearchParams(search).get(RETURN_TO_PARAM));
}
