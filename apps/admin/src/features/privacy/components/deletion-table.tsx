import type { AdminNoticeItem, NoticeKind, NoticeStatus } from '@lm/shared/schemas/privacy';
import { formatShanghai } from '@lm/shared/time';
import {
  Button,
  Card,
  Popconfirm,
  Select,
  Space,
  type TableColumnsType,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { ListTable, lastErrorColumn, RefreshButton } from '@/components/list-table';
import { listFilters, nextPaging, tablePagination } from '@/components/table-pagination';
import { notifySuccess } from '@/lib/notify';
import { type DeletionFilters, useDeletions } from '../api/get-deletions';
import { useRetryNotice } from '../api/retry-notice';
import {
  NOTICE_KIND_TEXT,
  NOTICE_STATUS_COLOR,
  NOTICE_STATUS_TEXT,
  noticeStatusText,
  retryAction,
  workingDaysText,
} from '../format';

const STATUS_OPTIONS = (Object.keys(NOTICE_STATUS_TEXT) as NoticeStatus[]).map((s) => ({
  value: s,
  label: NOTICE_STATUS_TEXT[s],
}));
const KIND_OPTIONS = (Object.keys(NOTICE_KIND_TEXT) as NoticeKind[]).map((k) => ({
  value: k,
  label: NOTICE_KIND_TEXT[k],
}));
const OVERDUE_OPTIONS = [
  { value: '1', label: '仅逾期' },
  { value: '0', label: '未逾期' },
];

function RetryButton({ item, canRetry }: { item: AdminNoticeItem; canRetry: boolean }) {
  const retry = useRetryNotice();
  const action = retryAction(item);
  if (!action) return <Typography.Text type="secondary">—</Typography.Text>;
  const description =
    action === '重新发送'
      ? '通知将重新进入发送队列，发送次数清零。'
      : '将再次向机构发送删除通知，提醒其尽快完成删除并确认。';
  return (
    <Popconfirm
      title={`${action}通知 #${item.id}？`}
      description={description}
      okText={action}
      cancelText="取消"
      disabled={!canRetry}
      onConfirm={() =>
        retry.mutateAsync({ id: item.id }).then(() => notifySuccess(`通知 #${item.id} 已重新排队发送`))
      }
    >
      <Tooltip title={canRetry ? undefined : '仅管理员和运营可以操作'}>
        <Button
          size="small"
          type="link"
          danger={item.status === 'dead'}
          disabled={!canRetry}
          loading={retry.isPending}
        >
          {action}
        </Button>
      </Tooltip>
    </Popconfirm>
  );
}

export interface DeletionTableProps {
  filters: DeletionFilters;
  onFiltersChange: (next: DeletionFilters) => void;
  /** Staff allowed to re-send notices (admin, operator). */
  canRetry: boolean;
}

/** Notices to lenders after cancellations (and withdrawals): status, due date, working days left, retry. */
export function DeletionTable({ filters, onFiltersChange, canRetry }: DeletionTableProps) {
  const query = useDeletions(filters);
  const { set } = listFilters(filters, onFiltersChange);

  const columns: TableColumnsType<AdminNoticeItem> = [
    { title: '编号', dataIndex: 'id', width: 72 },
    {
      title: '用户',
      key: 'user',
      width: 130,
      render: (_, r) => (
        <Space direction="vertical" size={0}>
          <span>{r.phoneMasked}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            用户ID {r.userId}
          </Typography.Text>
        </Space>
      ),
    },
    { title: '机构', dataIndex: 'partnerName', width: 200 },
    {
      title: '状态',
      dataIndex: 'status',
      width: 160,
      render: (s: NoticeStatus, r) => (
        <Tag color={r.kind === 'withdrawal' && s === 'sent' ? 'success' : NOTICE_STATUS_COLOR[s]}>
          {noticeStatusText(r.kind, s)}
        </Tag>
      ),
    },
    { title: '发起时间', dataIndex: 'createdAt', width: 150, render: (v: string) => formatShanghai(v) },
    {
      title: '截止日期',
      dataIndex: 'dueAt',
      width: 110,
      render: (v: string | null) => formatShanghai(v, 'day'),
    },
    {
      title: '剩余工作日',
      key: 'left',
      width: 130,
      render: (_, r) => (
        <Typography.Text
          type={r.overdue ? 'danger' : r.status === 'confirmed' ? 'success' : undefined}
          strong={r.overdue}
        >
          {workingDaysText(r)}
        </Typography.Text>
      ),
    },
    {
      title: '确认时间',
      dataIndex: 'confirmedAt',
      width: 150,
      render: (v: string | null) => formatShanghai(v),
    },
    { title: '发送次数', dataIndex: 'attempts', width: 90 },
    lastErrorColumn(220),
    {
      title: '操作',
      key: 'actions',
      fixed: 'right',
      width: 110,
      render: (_, r) => <RetryButton item={r} canRetry={canRetry} />,
    },
  ];

  return (
    <Card>
      <Space wrap style={{ marginBottom: 16 }}>
        <Select
          aria-label="通知类型"
          style={{ width: 170 }}
          value={filters.kind}
          options={KIND_OPTIONS}
          onChange={(kind: NoticeKind) => set({ kind })}
        />
        <Select
          aria-label="状态"
          style={{ width: 170 }}
          allowClear
          placeholder="全部状态"
          value={filters.status}
          options={STATUS_OPTIONS}
          onChange={(status?: NoticeStatus) => set({ status })}
        />
        <Select
          aria-label="是否逾期"
          style={{ width: 130 }}
          allowClear
          placeholder="是否逾期"
          value={filters.overdue === undefined ? undefined : filters.overdue ? '1' : '0'}
          options={OVERDUE_OPTIONS}
          onChange={(v?: string) => set({ overdue: v === undefined ? undefined : v === '1' })}
        />
        <RefreshButton query={query} />
      </Space>
      <ListTable<AdminNoticeItem>
        query={query}
        errorMessage="列表加载失败"
        columns={columns}
        scroll={{ x: 1550 }}
        onRow={(r) => (r.overdue ? { style: { background: '#fff1f0' } } : {})}
        locale={{ emptyText: '暂无符合条件的通知' }}
        pagination={tablePagination(filters, query.data?.total, '条', {
          onChange: (page, pageSize) =>
            onFiltersChange({ ...filters, ...nextPaging(filters, page, pageSize) }),
        })}
      />
    </Card>
  );
}
