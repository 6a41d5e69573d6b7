import type { AdminLeadItem } from '@lm/shared/schemas/admin-leads';
import { Button, Card, Select, Space, type TableColumnsType } from 'antd';
import { ListExportButton } from '@/components/csv-export-button';
import { ListTable, lastErrorColumn, RefreshButton } from '@/components/list-table';
import { nextPaging, tablePagination } from '@/components/table-pagination';
import type { CsvColumn } from '@/lib/csv';
import { type DeadLetterFilters, getDeadLetters, useDeadLetters } from '../api/get-dead-letters';
import { useDeliverySummary } from '../api/get-summary';
import { formatShanghai } from '../format';
import { LeadActions } from './lead-actions';

const CSV_COLUMNS: CsvColumn<AdminLeadItem>[] = [
  { title: '线索ID', value: (r) => r.id },
  { title: '用户ID', value: (r) => r.userId },
  { title: '手机号（脱敏）', value: (r) => r.phoneMasked },
  { title: '机构', value: (r) => r.partnerName },
  { title: '产品', value: (r) => r.productName },
  { title: '发送次数', value: (r) => r.attempts },
  { title: '最近错误', value: (r) => r.lastError },
  { title: '创建时间', value: (r) => formatShanghai(r.createdAt) },
  { title: '停止时间', value: (r) => formatShanghai(r.updatedAt) },
];

export interface DeadLetterTableProps {
  filters: DeadLetterFilters;
  onFiltersChange: (next: DeadLetterFilters) => void;
  canChange: boolean;
  onOpen: (leadId: number) => void;
}

/** Dead letters (delivery gave up): who, which lender, how many tries, the last error; retry or discard. */
export function DeadLetterTable({ filters, onFiltersChange, canChange, onOpen }: DeadLetterTableProps) {
  const query = useDeadLetters(filters);
  const summary = useDeliverySummary();
  const partnerOptions = (summary.data?.list ?? []).map((p) => ({
    value: p.partnerId,
    label: `${p.partnerName}（${p.dead}）`,
  }));

  const columns: TableColumnsType<AdminLeadItem> = [
    {
      title: '线索ID',
      dataIndex: 'id',
      width: 90,
      render: (id: number) => (
        <Button type="link" size="small" style={{ padding: 0 }} onClick={() => onOpen(id)}>
          {id}
        </Button>
      ),
    },
    { title: '用户', dataIndex: 'phoneMasked', width: 130 },
    { title: '机构', dataIndex: 'partnerName', width: 200, ellipsis: true },
    { title: '产品', dataIndex: 'productName', width: 150, ellipsis: true },
    { title: '次数', dataIndex: 'attempts', width: 70 },
    lastErrorColumn(200),
    { title: '停止时间', dataIndex: 'updatedAt', width: 150, render: (v: string) => formatShanghai(v) },
    {
      title: '操作',
      key: 'actions',
      fixed: 'right',
      width: 170,
      render: (_, r) => <LeadActions lead={r} canChange={canChange} />,
    },
  ];

  return (
    <Card title="死信（发送失败）">
      <Space wrap style={{ marginBottom: 16 }}>
        <Select
          aria-label="机构"
          allowClear
          showSearch
          optionFilterProp="label"
          placeholder="全部机构"
          style={{ width: 260 }}
          value={filters.partnerId}
          options={partnerOptions}
          onChange={(partnerId?: number) => onFiltersChange({ ...filters, partnerId, page: 1 })}
        />
        <RefreshButton query={query} />
        <ListExportButton
          fetchPage={getDeadLetters}
          filters={filters}
          columns={CSV_COLUMNS}
          name="死信"
          total={query.data?.total}
          notifyCount
        />
      </Space>
      <ListTable<AdminLeadItem>
        query={query}
        errorMessage="死信加载失败"
        columns={columns}
        scroll={{ x: 1200 }}
        locale={{ emptyText: '没有死信，全部线索都在正常发送' }}
        pagination={tablePagination(filters, query.data?.total, '条', {
          onChange: (page, pageSize) =>
            onFiltersChange({ ...filters, ...nextPaging(filters, page, pageSize) }),
        })}
      />
    </Card>
  );
}
