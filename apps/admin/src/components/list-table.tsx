import { formatShanghai } from '@lm/shared/time';
import { Button, Table, type TableColumnType, type TableProps, Tooltip, Typography } from 'antd';
import type { SortOrder } from 'antd/es/table/interface';
import { QueryError } from './query-error';
import {
  CATALOGUE_PAGE_SIZES,
  fieldSortChange,
  type Paging,
  singleSorter,
  sortedPaging,
  tablePagination,
} from './table-pagination';

/** What a console list page uses of its (React Query) list query. */
export interface ListQuery<T> {
  data?: { list: readonly T[] } | undefined;
  isError: boolean;
  isPending: boolean;
  isFetching: boolean;
  isPlaceholderData: boolean;
  error: Error | null;
  refetch: () => unknown;
}

export type ListTableProps<T> = Omit<TableProps<T>, 'dataSource' | 'loading'> & {
  query: ListQuery<T>;
  /** Shown instead of the table when the list failed and no earlier rows are there, e.g. 「线索列表加载失败」. */
  errorMessage: string;
};

/**
 * The table of a server-paged console list (people, leads, queues, logs): the query's rows keyed by
 * `id`; loading while the first page, or a page of new filters, is on its way (earlier rows stay
 * meanwhile); the error in their place when the list failed with none to show.
 */
export function ListTable<T extends object>({ query, errorMessage, ...table }: ListTableProps<T>) {
  if (query.isError && !query.data) return <QueryError message={errorMessage} error={query.error} />;
  return (
    <Table<T>
      rowKey="id"
      size="middle"
      loading={query.isPending || (query.isFetching && query.isPlaceholderData)}
      dataSource={query.data?.list ?? []}
      {...table}
    />
  );
}

export type SortedListTableProps<T, F extends { sort?: string | undefined }> = Omit<
  ListTableProps<T>,
  'query' | 'pagination' | 'onChange'
> & {
  query: ListQuery<T> & { data?: { list: readonly T[]; total: number } | undefined };
  filters: F;
  onFiltersChange: (next: F) => void;
  /** The column key the server sorts by (descending) while none is chosen. */
  defaultSort: NonNullable<F['sort']>;
  /** The pager's 「共 N {unit}」. */
  unit: string;
};

/**
 * A ListTable sorted by column key and paged through the list's filters (people, leads): back to the
 * first page when the sort or the page size changes.
 */
export function SortedListTable<
  T extends object,
  F extends Paging & { sort?: string | undefined; order?: 'asc' | 'desc' | undefined },
>({ filters, onFiltersChange, defaultSort, unit, ...table }: SortedListTableProps<T, F>) {
  return (
    <ListTable<T>
      {...table}
      onChange={(pagination, _f, sorter) =>
        onFiltersChange({
          ...filters,
          ...sortedPaging(filters, pagination, singleSorter(sorter), defaultSort),
        })
      }
      pagination={tablePagination(filters, table.query.data?.total, unit)}
    />
  );
}

/** The 「刷新」 button of a list page. */
export function RefreshButton({ query }: { query: Pick<ListQuery<unknown>, 'isFetching' | 'refetch'> }) {
  return (
    <Button loading={query.isFetching} onClick={() => void query.refetch()}>
      刷新
    </Button>
  );
}

export type CatalogueTableProps<T, F> = Omit<ListTableProps<T>, 'query' | 'pagination' | 'onChange'> & {
  query: ListQuery<T> & { data?: { list: readonly T[]; total: number } | undefined };
  filters: F;
  onFiltersChange: (next: F) => void;
  /** The pager's 「共 N {unit}」. */
  unit: string;
};

/**
 * The table of a catalogue list (partners, products): the rows stay with a 重试 banner above them
 * when a refresh fails; loading whenever the list is fetched; paged (antd's default page sizes) and
 * sorted by column field through the list's filters.
 */
export function CatalogueTable<
  T extends object,
  F extends Paging & { sort?: string; order?: 'asc' | 'desc' },
>({ query, errorMessage, filters, onFiltersChange, unit, ...table }: CatalogueTableProps<T, F>) {
  return (
    <>
      {query.isError && (
        <QueryError message={errorMessage} onRetry={() => query.refetch()} style={{ marginBottom: 16 }} />
      )}
      <Table<T>
        rowKey="id"
        size="middle"
        dataSource={query.data?.list ?? []}
        loading={query.isFetching}
        pagination={tablePagination(filters, query.data?.total, unit, {
          pageSizeOptions: CATALOGUE_PAGE_SIZES,
        })}
        onChange={(pagination, _f, sorter) => onFiltersChange(fieldSortChange(filters, pagination, sorter))}
        {...table}
      />
    </>
  );
}

/** The sortable 「编号」 column of a catalogue list (channels, partners, products). */
export function idColumn<T>(sortOrder: (key: string) => SortOrder): TableColumnType<T> {
  return { title: '编号', dataIndex: 'id', width: 72, sorter: true, sortOrder: sortOrder('id') };
}

/** The sortable 「更新时间」 column of a catalogue list, to the second (Asia/Shanghai). */
export function updatedAtColumn<T>(sortOrder: (key: string) => SortOrder): TableColumnType<T> {
  return {
    title: '更新时间',
    dataIndex: 'updatedAt',
    width: 170,
    sorter: true,
    sortOrder: sortOrder('updatedAt'),
    render: (iso: string) => formatShanghai(iso, 'second'),
  };
}

/** The 「最近错误」 column of a delivery list: the error in red, whole in a tooltip; none → 「—」. */
export function lastErrorColumn<T>(width: number): TableColumnType<T> {
  return {
    title: '最近错误',
    dataIndex: 'lastError',
    width,
    ellipsis: { showTitle: false },
    render: (v: string | null) =>
      v ? (
        <Tooltip title={v} placement="topLeft">
          <Typography.Text type="danger">{v}</Typography.Text>
        </Tooltip>
      ) : (
        '—'
      ),
  };
}
