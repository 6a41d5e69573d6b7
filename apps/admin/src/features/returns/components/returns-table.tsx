import { RETURN_STATUS_LABELS, RETURN_STATUSES, type ReturnStatus } from '@lm/shared/ledger';
import { fenToYuanText } from '@lm/shared/money';
import type { AdminReturnItem } from '@lm/shared/schemas/returns';
import { formatShanghai } from '@lm/shared/time';
import { Card, Select, Space, type TableColumnsType, Tag, Typography } from 'antd';
import { ListTable, RefreshButton } from '@/components/list-table';
import { nextPaging, tablePagination } from '@/components/table-pagination';
import { type ReturnFilters, useReturns } from '../api/get-returns';
import { ReviewReturn } from './review-return';

const STATUS_COLORS: Record<ReturnStatus, string> = {
  disputed: 'orange',
  accepted: 'green',
  rejected: 'default',
};

/** The status filter: one status, or every one (`all`). */
export type StatusChoice = ReturnStatus | 'all';
const STATUS_OPTIONS = [
  ...RETURN_STATUSES.map((s) => ({ value: s, label: RETURN_STATUS_LABELS[s] })),
  { value: 'all', label: '全部状态' },
];

export interface ReturnsTableProps {
  filters: ReturnFilters;
  onFiltersChange: (next: ReturnFilters) => void;
  partnerOptions: { value: number; label: string }[];
  canChange: boolean;
}

/** Lead returns: by status (待审核 first) and lender; accept or reject a disputed one with a note. */
export function ReturnsTable({ filters, onFiltersChange, partnerOptions, canChange }: ReturnsTableProps) {
  const query = useReturns(filters);
  const shown = query.data?.amountsShown ?? false;
  const columns: TableColumnsType<AdminReturnItem> = [
    { title: '编号', dataIndex: 'id', width: 70 },
    {
      title: '线索',
      key: 'lead',
      width: 200,
      render: (_, r) => (
        <Space direction="vertical" size={0}>
          <Typography.Text copyable style={{ wordBreak: 'break-all', fontSize: 12 }}>
            {r.leadKey}
          </Typography.Text>
          <Typography.Text type="secondary">线索ID {r.leadId}</Typography.Text>
        </Space>
      ),
    },
    { title: '机构', dataIndex: 'partnerName', width: 180, ellipsis: true },
    { title: '产品', dataIndex: 'productName', width: 140, ellipsis: true },
    {
      title: '退回原因',
      key: 'reason',
      width: 200,
      render: (_, r) => (
        <Space direction="vertical" size={0}>
          <span>{r.reasonLabel}</span>
          {r.reasonText && <Typography.Text type="secondary">{r.reasonText}</Typography.Text>}
        </Space>
      ),
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (s: ReturnStatus, r) => <Tag color={STATUS_COLORS[s]}>{r.statusLabel}</Tag>,
    },
    {
      title: '待审核原因',
      dataIndex: 'disputeReason',
      width: 220,
      render: (v: string | null) => v ?? '—',
    },
    {
      title: '退回时间',
      dataIndex: 'requestedAt',
      width: 150,
      render: (v: string) => formatShanghai(v),
    },
    {
      title: '审核',
      key: 'review',
      width: 220,
      render: (_, r) =>
        r.reviewedAt ? (
          <Space direction="vertical" size={0}>
            <span>
              {r.reviewedByName ?? '—'} · {formatShanghai(r.reviewedAt)}
            </span>
            {r.reviewNote && <Typography.Text type="secondary">{r.reviewNote}</Typography.Text>}
          </Space>
        ) : (
          '—'
        ),
    },
    ...(shown
      ? [
          {
            title: '冲减金额',
            dataIndex: 'reversedFen',
            width: 120,
            align: 'right' as const,
            render: (v: number | null | undefined) =>
              v === null || v === undefined ? '—' : fenToYuanText(v, { grouping: true, unit: true }),
          },
        ]
      : []),
    {
      title: '操作',
      key: 'actions',
      fixed: 'right',
      width: 130,
      render: (_, r) => <ReviewReturn item={r} canChange={canChange} />,
    },
  ];

  return (
    <Card>
      <Space wrap style={{ marginBottom: 16 }}>
        <Select
          aria-label="状态"
          style={{ width: 140 }}
          value={(filters.status ?? 'all') as StatusChoice}
          options={STATUS_OPTIONS}
          onChange={(v: StatusChoice) =>
            onFiltersChange({ ...filters, status: v === 'all' ? undefined : v, page: 1 })
          }
        />
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
      </Space>
      <ListTable<AdminReturnItem>
        query={query}
        errorMessage="退回记录加载失败"
        rowKey="id"
        columns={columns}
        scroll={{ x: 1600 }}
        locale={{ emptyText: filters.status === 'disputed' ? '没有待审核的退回' : '没有退回记录' }}
        pagination={tablePagination(filters, query.data?.total, '条', {
          onChange: (page, pageSize) =>
            onFiltersChange({ ...filters, ...nextPaging(filters, page, pageSize) }),
        })}
      />
    </Card>
  );
}
