/**
 * Reading list filters from the address and writing them back (defaults left out), so a refreshed or
 * shared link shows the same list. Each page keeps its own parameter names; these are the pieces.
 */
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export type Order = 'asc' | 'desc';

/** A non-empty string parameter. */
export const readString = (q: URLSearchParams, key: string): string | undefined => q.get(key) || undefined;

/** A positive integer parameter, at most `max`. */
export function readInt(q: URLSearchParams, key: string, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const n = Number(q.get(key));
  return Number.isInteger(n) && n > 0 && n <= max ? n : undefined;
}

/** A `YYYY-MM-DD` parameter. */
export function readDate(q: URLSearchParams, key: string): string | undefined {
  const v = q.get(key);
  return v && DATE.test(v) ? v : undefined;
}

/** A parameter that must be one of `values`. */
export function readOneOf<T extends string>(
  q: URLSearchParams,
  key: string,
  values: readonly T[],
): T | undefined {
  return values.find((v) => v === q.get(key));
}

/** `page` (from 1) and `pageSize` (one of `pageSizes`, else 20). */
export function readPaging(
  q: URLSearchParams,
  pageSizes: readonly number[] = [20, 50, 100],
): { page: number; pageSize: number } {
  const pageSize = Number(q.get('pageSize'));
  return { page: readInt(q, 'page') ?? 1, pageSize: pageSizes.includes(pageSize) ? pageSize : 20 };
}

/** `sort` (one of `sorts`) and its `order` (desc unless asc); neither when there is no valid sort. */
export function readSort<S extends string>(
  q: URLSearchParams,
  sorts: readonly S[],
): { sort: S | undefined; order: Order | undefined } {
  const sort = readOneOf(q, 'sort', sorts);
  return { sort, order: sort ? (q.get('order') === 'asc' ? 'asc' : 'desc') : undefined };
}

export interface WriteOptions {
  /** Values left out of the address besides page 1 and pageSize 20. */
  defaults?: Record<string, string | number | boolean>;
  /** Leaves `order` out when there is no `sort`. */
  orderNeedsSort?: boolean;
}

/**
 * Filters → address parameters in the filters' key order: empty values and defaults left out,
 * booleans as 1/0.
 */
export function toSearchParams(filters: object, options: WriteOptions = {}): URLSearchParams {
  const defaults: Record<string, unknown> = { page: 1, pageSize: 20, ...options.defaults };
  const entries = Object.entries(filters);
  const hasSort = entries.some(([k, v]) => k === 'sort' && v !== undefined && v !== null && v !== '');
  const q = new URLSearchParams();
  for (const [k, v] of entries) {
    if (v === undefined || v === null || v === '' || defaults[k] === v) continue;
    if (k === 'order' && options.orderNeedsSort && !hasSort) continue;
    q.set(k, typeof v === 'boolean' ? (v ? '1' : '0') : String(v));
  }
  return q;
}
