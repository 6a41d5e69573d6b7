import { fenToYuanText } from '@lm/shared/money';
import type { SpendImportSummary } from '@lm/shared/schemas/spend-imports';
import { formatShanghai } from '@lm/shared/time';
import { Card, Table, type TableColumnsType } from 'antd';
import { QueryErrorResult } from '@/components/query-error';
import { useSpendImports } from '../api/get-spend-imports';

/** 导入记录 (issue 48.2): who imported which file when, the rows taken and skipped, the total (not for a viewer). */
export function SpendImportsTable() {
  const imports = useSpendImports();
  const data = imports.data;
  const columns: TableColumnsType<SpendImportSummary> = [
    { title: '导入时间', dataIndex: 'createdAt', width: 170, render: (t: string) => formatShanghai(t) },
    { title: '文件名', dataIndex: 'fileName' },
    { title: '导入人', dataIndex: 'createdByName', render: (n: string | null) => n ?? '（已删除的账号）' },
    { title: '数据行', dataIndex: 'rowsTotal', align: 'right' },
    { title: '已导入', dataIndex: 'rowsImported', align: 'right' },
    { title: '已拒绝', dataIndex: 'rowsRejected', align: 'right' },
    ...(data?.amountsShown
      ? [
          {
            title: '消耗合计',
            dataIndex: 'totalFen',
            align: 'right' as const,
            render: (f: number | undefined) =>
              f === undefined ? '—' : fenToYuanText(f, { grouping: true, unit: true }),
          },
        ]
      : []),
  ];
  return (
    <Card title="导入记录" data-testid="spend-imports-list">
      {imports.isError ? (
        <QueryErrorResult title="导入记录加载失败" error={imports.error} onRetry={() => imports.refetch()} />
      ) : (
        <Table<SpendImportSummary>
          rowKey="id"
          size="small"
          loading={imports.isLoading}
          columns={columns}
          dataSource={data?.list ?? []}
          pagination={{ pageSize: 20, showSizeChanger: false }}
          locale={{ emptyText: '尚无导入记录' }}
          scroll={{ x: 'max-content' }}
        />
      )}
    </Card>
  );
}
