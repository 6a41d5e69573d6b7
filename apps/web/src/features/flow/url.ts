import type { Query } from './decide';

/**
 * `path` with `query` appended (spec §2: options travel as query parameters, object values as JSON).
 * undefined, null and '' are left out; booleans and numbers are written as text ('true', '1').
 */
export function buildNavigationUrl(path: string, query?: Query): string {
  const [base, hash = ''] = path.split('#', 2) as [string, string?];
  const [pathname, existing = ''] = base.split('?', 2) as [string, string?];
  const params = new URLSearchParams(existing);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  const qs = params.toString();
  return `${pathname}${qs ? `?${qs}` : ''}${hash ? `#${hash}` : ''}`;
}

/** Reads a query value written by buildNavigationUrl back as JSON (null when absent or not JSON). */
export function parseJsonQuery<T>(value: string | null): T | null {
  if (value === null) return null;
  try {
    return JSON.parse(value) as T;
  } catch {
    return null;
  }
}
