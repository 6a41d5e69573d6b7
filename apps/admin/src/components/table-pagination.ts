import type { TablePaginationConfig } from 'antd';
import type { SorterResult, SortOrder } from 'antd/es/table/interface';

/** Page sizes offered by the console's lists unless a list says otherwise. */
export const PAGE_SIZE_OPTIONS = [20, 50, 100];

/** The page sizes of antd's default pager (the catalogue lists, partners and products, keep them). */
export const CATALOGUE_PAGE_SIZES = [10, 20, 50, 100];

export interface Paging {
  page: number;
  pageSize: number;
}

/**
 * The pagination of a server-paged table: current page and size from `paging`, the size changer and
 * 「共 N {unit}」. `extra` overrides or adds settings (other page sizes, an onChange).
 */
export function tablePagination(
  paging: Paging,
  total: number | undefined,
  unit: string,
  extra?: TablePaginationConfig,
): TablePaginationConfig {
  return {
    current: paging.page,
    pageSize: paging.pageSize,
    total: total ?? 0,
    showSizeChanger: true,
    pageSizeOptions: PAGE_SIZE_OPTIONS,
    showTotal: (t) => `共 ${t} ${unit}`,
    ...extra,
  };
}

/** The page to show after the pager changed: back to the first page when the page size changed. */
export function nextPaging(prev: Paging, page: number | undefined, pageSize: number | undefined): Paging {
  const size = pageSize ?? prev.pageSize;
  return { page: size !== prev.pageSize ? 1 : (page ?? 1), pageSize: size };
}

/** A column's sort arrow for the list's current `sort` and `order`. */
export function columnSortOrder(sort: string | undefined, order: string | undefined, key: string): SortOrder {
  return sort === key ? (order === 'asc' ? 'ascend' : 'descend') : null;
}

/** The one sorter of a single-sort table's onChange. */
export function singleSorter<T>(sorter: SorterResult<T> | SorterResult<T>[]): SorterResult<T> | undefined {
  return Array.isArray(sorter) ? sorter[0] : sorter;
}

/**
 * The sort and page after a table sorted by column key (`defaultSort` descending when none) changed:
 * back to the first page when the sort or the page size changed.
 */
export function sortedPaging<K extends string, T>(
  prev: Paging & { sort?: K; order?: 'asc' | 'desc' },
  pagination: TablePaginationConfig,
  sorter: SorterResult<T> | undefined,
  defaultSort: K,
): { sort: K | undefined; order: 'asc' | 'desc' | undefined; pageSize: number; page: number } {
  const sort = sorter?.order ? (sorter.columnKey as K) : undefined;
  const order = sorter?.order === 'ascend' ? 'asc' : sorter?.order === 'descend' ? 'desc' : undefined;
  const pageSize = pagination.pageSize ?? prev.pageSize;
  const sortChanged =
    (sort ?? defaultSort) !== (prev.sort ?? defaultSort) || (order ?? 'desc') !== (prev.order ?? 'desc');
  return {
    sort,
    order,
    pageSize,
    page: sortChanged || pageSize !== prev.pageSize ? 1 : (pagination.current ?? 1),
  };
}

/**
 * The filters after a table sorted by column field changed (the catalogue lists): the field and
 * direction of the sorter (descending when none is chosen) and the page as the table has it.
 */
export function fieldSortChange<F extends Paging & { sort?: string; order?: 'asc' | 'desc' }, T>(
  filters: F,
  pagination: TablePaginationConfig,
  sorter: SorterResult<T> | SorterResult<T>[],
): F {
  const s = singleSorter(sorter);
  return {
    ...filters,
    page: pagination.current ?? 1,
    pageSize: pagination.pageSize ?? filters.pageSize,
    sort: s?.order ? (s.field as F['sort']) : undefined,
    order: s?.order === 'ascend' ? 'asc' : 'desc',
  };
}

/**
 * The filter helpers of a list page: `set` changes some filters and goes back to the first page;
 * `sortOrder` is a column's sort state under the current filters.
 */
export function listFilters<F extends { page: number; sort?: string; order?: string }>(
  filters: F,
  onFiltersChange: (next: F) => void,
) {
  return {
    set: (patch: Partial<F>) => onFiltersChange({ ...filters, page: 1, ...patch }),
    sortOrder: (key: string) => columnSortOrder(filters.sort, filters.order, key),
  };
}
