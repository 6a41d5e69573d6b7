import type { TableColumnType } from 'antd';
import { columnSortOrder } from '@/components/table-pagination';
import { formatShanghai } from '../format';

interface SortState {
  sort?: string | undefined;
  order?: string | undefined;
}

/**
 * A column the server sorts by, keyed by its field; the people and lead lists are sorted by
 * `createdAt` while no column is chosen.
 */
export function sortedColumn<T>(
  filters: SortState,
  column: TableColumnType<NoInfer<T>> & { dataIndex: string },
): TableColumnType<T> {
  return {
    key: column.dataIndex,
    sorter: true,
    sortOrder: columnSortOrder(filters.sort ?? 'createdAt', filters.order, column.dataIndex),
    ...column,
  };
}

/** A sorted time column (Asia/Shanghai, to the minute; none → 「—」). */
export function sortedTimeColumn<T>(
  filters: SortState,
  title: string,
  dataIndex: string,
): TableColumnType<T> {
  return sortedColumn<T>(filters, {
    title,
    dataIndex,
    width: 150,
    render: (v: string | null) => formatShanghai(v),
  });
}
