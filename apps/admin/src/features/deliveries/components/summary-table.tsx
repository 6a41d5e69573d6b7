import type { DeliverySummaryItem } from '@lm/shared/schemas/admin-leads';
import {
  Button,
  Card,
  Popconfirm,
  Space,
  Table,
  type TableColumnsType,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { QueryError } from '@/components/query-error';
import { downloadCsv, toCsv } from '@/lib/csv';
import { datedFileName } from '@/lib/fetch-all-pages';
import { notifySuccess } from '@/lib/notify';
import { useDeliverySummary } from '../api/get-summary';
import { useRetryDeadLetters } from '../api/retry-dead';
import { ageText, formatShanghai, OUTCOME_COLOR, OUTCOME_TEXT, STALE_PENDING_SECONDS } from '../format';

function BulkRetry({ item, canChange }: { item: DeliverySummaryItem; canChange: boolean }) {
  const bulk = useRetryDeadLetters();
  if (item.dead === 0) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Popconfirm
      title={`重新发送「${item.partnerName}」的全部 ${item.dead} 条死信？`}
      description="用户已撤回授权或已注销的线索会跳过。"
      okText="全部重发"
      cancelText="取消"
      disabled={!canChange}
      onConfirm={() =>
        bulk
          .mutateAsync({ partnerId: item.partnerId })
          .then((r) =>
            notifySuccess(
              `已重新排队 ${r.retried} 条${r.skipped ? `，跳过 ${r.skipped} 条（已撤回或已注销）` : ''}${
                r.remaining ? `，还有 ${r.remaining} 条请再次操作` : ''
              }`,
              4,
            ),
          )
      }
    >
      <Tooltip title={canChange ? undefined : '仅管理员和运营可以操作'}>
        <Button size="small" type="link" disabled={!canChange} loading={bulk.isPending}>
          全部重发
        </Button>
      </Tooltip>
    </Popconfirm>
  );
}

export interface SummaryTableProps {
  canChange: boolean;
  /** Shows the partner's dead letters below. */
  onShowDead: (partnerId: number) => void;
}

/** Queue state per partner: pending, due, leased, delivered today, dead, discarded, awaiting callback. */
export function SummaryTable({ canChange, onShowDead }: SummaryTableProps) {
  const query = useDeliverySummary();
  const list = query.data?.list ?? [];

  const exportCsv = () =>
    downloadCsv(
      datedFileName('线索发送'),
      toCsv(list, [
        { title: '机构ID', value: (r) => r.partnerId },
        { title: '机构', value: (r) => r.partnerName },
        { title: '机构状态', value: (r) => (r.partnerStatus === 'active' ? '合作中' : '已暂停') },
        { title: '待发送', value: (r) => r.pending },
        { title: '到期待发', value: (r) => r.dueNow },
        { title: '发送中', value: (r) => r.leased },
        { title: '今日送达', value: (r) => r.deliveredToday },
        { title: '死信', value: (r) => r.dead },
        { title: '已放弃', value: (r) => r.discarded },
        { title: '等待回调', value: (r) => r.awaitingCallback },
        { title: '最早待发送', value: (r) => formatShanghai(r.oldestPendingAt) },
        { title: '最近一次结果', value: (r) => (r.lastAttempt ? OUTCOME_TEXT[r.lastAttempt.outcome] : '') },
        { title: '最近一次时间', value: (r) => formatShanghai(r.lastAttempt?.at) },
        { title: '最近一次错误', value: (r) => r.lastAttempt?.error },
      ]),
    );

  const columns: TableColumnsType<DeliverySummaryItem> = [
    {
      title: '机构',
      dataIndex: 'partnerName',
      width: 200,
      fixed: 'left',
      render: (v: string, r) => (
        <Space direction="vertical" size={0}>
          <span>{v}</span>
          {r.partnerStatus === 'suspended' ? <Tag>已暂停</Tag> : null}
        </Space>
      ),
    },
    { title: '待发送', dataIndex: 'pending', width: 80 },
    { title: '到期待发', dataIndex: 'dueNow', width: 90 },
    { title: '发送中', dataIndex: 'leased', width: 80 },
    { title: '今日送达', dataIndex: 'deliveredToday', width: 90 },
    {
      title: '死信',
      dataIndex: 'dead',
      width: 80,
      render: (v: number, r) =>
        v > 0 ? (
          <Button
            type="link"
            danger
            size="small"
            style={{ padding: 0 }}
            onClick={() => onShowDead(r.partnerId)}
          >
            {v}
          </Button>
        ) : (
          0
        ),
    },
    { title: '已放弃', dataIndex: 'discarded', width: 80 },
    { title: '等待回调', dataIndex: 'awaitingCallback', width: 90 },
    {
      title: '最早待发送',
      dataIndex: 'oldestPendingAgeSeconds',
      width: 130,
      render: (v: number | null, r) => (
        <Tooltip title={formatShanghai(r.oldestPendingAt)}>
          <Typography.Text type={v !== null && v > STALE_PENDING_SECONDS ? 'danger' : undefined}>
            {v === null ? '—' : `${ageText(v)}前`}
          </Typography.Text>
        </Tooltip>
      ),
    },
    {
      title: '最近一次发送',
      key: 'last',
      width: 260,
      render: (_, r) =>
        r.lastAttempt ? (
          <Space size={4} wrap>
            <Tag color={OUTCOME_COLOR[r.lastAttempt.outcome]}>{OUTCOME_TEXT[r.lastAttempt.outcome]}</Tag>
            <span>{formatShanghai(r.lastAttempt.at)}</span>
            {r.lastAttempt.error ? (
              <Typography.Text type="danger">{r.lastAttempt.error}</Typography.Text>
            ) : null}
          </Space>
        ) : (
          '—'
        ),
    },
    {
      title: '操作',
      key: 'actions',
      width: 100,
      fixed: 'right',
      render: (_, r) => <BulkRetry item={r} canChange={canChange} />,
    },
  ];

  return (
    <Card
      title="各机构发送队列"
      extra={
        <Space>
          {query.data ? (
            <Typography.Text type="secondary">
              更新于 {formatShanghai(query.data.generatedAt)}
            </Typography.Text>
          ) : null}
          <Button loading={query.isFetching} onClick={() => void query.refetch()}>
            刷新
          </Button>
          <Button disabled={list.length === 0} onClick={exportCsv}>
            导出 CSV
          </Button>
        </Space>
      }
    >
      {query.isError && !query.data ? (
        <QueryError message="发送队列加载失败" error={query.error} />
      ) : (
        <Table<DeliverySummaryItem>
          rowKey="partnerId"
          size="middle"
          loading={query.isPending}
          columns={columns}
          dataSource={list}
          pagination={false}
          scroll={{ x: 1300 }}
          onRow={(r) => (r.dead > 0 ? { style: { background: '#fff1f0' } } : {})}
          locale={{ emptyText: '还没有合作机构' }}
        />
      )}
    </Card>
  );
}
