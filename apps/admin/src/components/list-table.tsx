import { Button, Table, type TableColumnType, type TableProps, Tooltip, Typography } from 'antd';
import { QueryError } from './query-error';

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

/** The 「刷新」 button of a list page. */
export function RefreshButton({ query }: { query: Pick<ListQuery<unknown>, 'isFetching' | 'refetch'> }) {
  return (
    <Button loading={query.isFetching} onClick={() => void query.refetch()}>
      刷新
    </Button>
  );
}

/**
 * The table of a catalogue list (partners, products): the rows stay with a 重试 banner above them
 * when a refresh fails; loading whenever the list is fetched.
 */
export function CatalogueTable<T extends object>({ query, errorMessage, ...table }: ListTableProps<T>) {
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
        {...table}
      />
    </>
  );
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
