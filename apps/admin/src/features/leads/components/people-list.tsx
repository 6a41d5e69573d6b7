import { Card, Space, type TableColumnsType } from 'antd';
import type { ReactNode } from 'react';
import { ListExportButton } from '@/components/csv-export-button';
import { DateRangeFilter } from '@/components/date-range-filter';
import { SearchFilter } from '@/components/list-filters';
import { type ListQuery, RefreshButton, SortedListTable } from '@/components/list-table';
import type { Paging } from '@/components/table-pagination';
import type { CsvColumn } from '@/lib/csv';
import type { PageOf } from '@/lib/fetch-all-pages';

interface ListFilters extends Paging {
  sort?: 'createdAt' | (string & {}) | undefined;
  order?: 'asc' | 'desc' | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/** A list page's state: its query and its filters (kept in the address by the route). */
export interface ListState<T, F> {
  query: ListQuery<T> & { data?: { list: readonly T[]; total: number } | undefined };
  filters: F;
  onFiltersChange: (next: F) => void;
}

export interface PeopleListProps<T extends object, F extends ListFilters> {
  list: ListState<T, F>;
  /** What the rows are (「线索」, 「用户」): the error, the empty list and the CSV file are named after it. */
  noun: string;
  /** The empty list's words when not 「暂无符合条件的{noun}」. */
  emptyText?: string | undefined;
  /** The pager's 「共 N {unit}」. */
  unit: string;
  /** What the day range filters (「创建日期」, 「注册日期」). */
  dateLabel: string;
  /** One page of the list for the current filters, for the CSV export. */
  fetchPage: (query: F & { page: number; pageSize: number }) => Promise<PageOf<T>>;
  columns: TableColumnsType<T>;
  csvColumns: readonly CsvColumn<T>[];
  /** The table's width before it scrolls. */
  width: number;
  /** The list's own filters, before the day range, 刷新 and 导出 CSV. */
  children: ReactNode;
}

/**
 * The frame of the people and lead lists: the filter bar (the list's filters, the day range, 刷新,
 * 导出 CSV with the row count) above the table, sorted by `createdAt` while no column is chosen.
 */
export function PeopleList<T extends object, F extends ListFilters>({
  list: { query, filters, onFiltersChange },
  noun,
  emptyText,
  unit,
  dateLabel,
  fetchPage,
  columns,
  csvColumns,
  width,
  children,
}: PeopleListProps<T, F>) {
  return (
    <Card>
      <Space wrap style={{ marginBottom: 16 }}>
        {children}
        <DateRangeFilter
          label={dateLabel}
          from={filters.from}
          to={filters.to}
          onChange={(range) => onFiltersChange({ ...filters, page: 1, ...range })}
        />
        <RefreshButton query={query} />
        <ListExportButton
          fetchPage={fetchPage}
          filters={filters}
          columns={csvColumns}
          name={noun}
          total={query.data?.total}
          notifyCount
        />
      </Space>
      <SortedListTable<T, F>
        query={query}
        errorMessage={`${noun}列表加载失败`}
        columns={columns}
        scroll={{ x: width }}
        locale={{ emptyText: emptyText ?? `暂无符合条件的${noun}` }}
        filters={filters}
        onFiltersChange={onFiltersChange}
        defaultSort="createdAt"
        unit={unit}
      />
    </Card>
  );
}

/** The channel-code search of the people and lead lists. */
export function ChannelCodeFilter(props: {
  value: string | undefined;
  onSearch: (code: string | undefined) => void;
}) {
  return <SearchFilter aria-label="渠道码" placeholder="渠道码" style={{ width: 160 }} {...props} />;
}
