import { shanghaiDay } from '@lm/shared/time';

/** Rows fetched for one CSV export at most. */
export const EXPORT_LIMIT = 10_000;
/** Page size used to fetch an export (the api's maximum). */
export const EXPORT_PAGE_SIZE = 200;

export interface PageOf<T> {
  list: readonly T[];
  total: number;
}

/** Every row of a paged list, page by page, up to `limit` rows. */
export async function fetchAllPages<T>(
  fetchPage: (page: number, pageSize: number) => Promise<PageOf<T>>,
  limit = EXPORT_LIMIT,
): Promise<T[]> {
  const rows: T[] = [];
  for (let page = 1; rows.length < limit; page++) {
    const data = await fetchPage(page, EXPORT_PAGE_SIZE);
    rows.push(...data.list);
    if (data.list.length < EXPORT_PAGE_SIZE || rows.length >= data.total) break;
  }
  return rows;
}

/** `prefix-YYYY-MM-DD` (today in Shanghai), the name of a dated export. */
export function datedFileName(prefix: string, now: number = Date.now()): string {
  return `${prefix}-${shanghaiDay(now)}`;
}
