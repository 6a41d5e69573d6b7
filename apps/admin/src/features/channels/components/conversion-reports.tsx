import { AD_PLATFORM_LABELS } from '@lm/shared/ad-clicks';
import {
  AD_REPORT_STATUS_LABELS,
  AD_REPORT_STATUSES,
  type AdReportStatus,
  REPORT_STEP_LABELS,
} from '@lm/shared/conversions';
import { type ConversionReportItem, REPORT_STEPS } from '@lm/shared/schemas/conversion-reports';
import { formatShanghai } from '@lm/shared/time';
import {
  Button,
  Card,
  Col,
  Popconfirm,
  Row,
  Select,
  Space,
  Statistic,
  type TableColumnsType,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useState } from 'react';
import { ListTable, RefreshButton } from '@/components/list-table';
import { nextPaging, tablePagination } from '@/components/table-pagination';
import { notifySuccess } from '@/lib/notify';
import { type ConversionReportFilters, useConversionReports } from '../api/get-conversion-reports';
import { useReplayConversionReport } from '../api/replay-conversion-report';
import { answerText, errorText, valueText } from '../conversion-reports-format';

const STATUS_COLORS: Record<AdReportStatus, string> = {
  pending: 'processing',
  sent: 'success',
  dead: 'error',
  late: 'default',
};

const STATUS_OPTIONS = AD_REPORT_STATUSES.map((s) => ({ value: s, label: AD_REPORT_STATUS_LABELS[s] }));
/** Our five steps and the negative signal of an invalid lead. */
const STEP_OPTIONS = REPORT_STEPS.map((s) => ({ value: s, label: REPORT_STEP_LABELS[s] }));

export interface ConversionReportsProps {
  channelId: number;
  /** admin and operator: a dead report can be sent again. */
  canReplay: boolean;
}

/**
 * 回传记录 (issue 47.6): per channel what was reported to its ad platform, what waits and what failed, with
 * the platform's answer; a dead report can be sent again (重新回传, issue 47.3) by admin and operator.
 */
export function ConversionReports({ channelId, canReplay }: ConversionReportsProps) {
  const [filters, setFilters] = useState<ConversionReportFilters>({ page: 1, pageSize: 20 });
  const query = useConversionReports(channelId, filters);
  const counts = query.data?.counts;

  const columns: TableColumnsType<ConversionReportItem> = [
    {
      title: '发生时间',
      dataIndex: 'happenedAt',
      width: 160,
      render: (iso: string) => formatShanghai(iso, 'second'),
    },
    { title: '步骤', dataIndex: 'stepLabel', width: 100 },
    {
      title: '事件编码',
      dataIndex: 'eventCode',
      width: 120,
      render: (code: string, r) => (
        <Tooltip title={AD_PLATFORM_LABELS[r.platform]}>
          <Typography.Text code>{code}</Typography.Text>
        </Tooltip>
      ),
    },
    { title: '金额', dataIndex: 'valueFen', width: 110, align: 'right', render: valueText },
    {
      title: '点击',
      dataIndex: 'clickRef',
      width: 80,
      render: (ref: string) => (
        <Tooltip title="点击参数的末几位（其余已隐藏）">
          <Typography.Text type="secondary">{ref}</Typography.Text>
        </Tooltip>
      ),
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 135,
      render: (status: AdReportStatus, r) => (
        <Space direction="vertical" size={0}>
          <Tag color={STATUS_COLORS[status]}>{AD_REPORT_STATUS_LABELS[status]}</Tag>
          {r.sentAt ? (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {formatShanghai(r.sentAt, 'second')}
            </Typography.Text>
          ) : null}
        </Space>
      ),
    },
    { title: '次数', dataIndex: 'attempts', width: 60, align: 'right' },
    {
      title: '失败原因 / 平台应答',
      key: 'answer',
      render: (_, r) => <AnswerCell report={r} />,
    },
  ];
  if (canReplay)
    columns.push({
      title: '操作',
      key: 'actions',
      width: 100,
      render: (_, r) => <ReplayButton report={r} channelId={channelId} />,
    });

  return (
    <Card
      title="回传记录"
      size="small"
      style={{ marginTop: 16 }}
      data-testid="conversion-reports"
      extra={<RefreshButton query={query} />}
    >
      <Row gutter={16} style={{ marginBottom: 16 }}>
        {AD_REPORT_STATUSES.map((s) => (
          <Col span={6} key={s}>
            <Statistic
              title={AD_REPORT_STATUS_LABELS[s]}
              value={counts?.[s] ?? '—'}
              valueStyle={s === 'dead' && (counts?.dead ?? 0) > 0 ? { color: '#cf1322' } : undefined}
            />
          </Col>
        ))}
      </Row>
      <Space wrap style={{ marginBottom: 12 }}>
        <Select<AdReportStatus>
          aria-label="回传状态"
          allowClear
          placeholder="全部状态"
          style={{ width: 160 }}
          value={filters.status}
          options={STATUS_OPTIONS}
          onChange={(status) => setFilters((f) => ({ ...f, status, page: 1 }))}
        />
        <Select<string>
          aria-label="回传步骤"
          allowClear
          placeholder="全部步骤"
          style={{ width: 200 }}
          value={filters.step}
          options={STEP_OPTIONS}
          onChange={(step) => setFilters((f) => ({ ...f, step, page: 1 }))}
        />
        {canReplay ? null : (
          <Typography.Text type="secondary">只读：管理员和运营可以重新回传失败的记录。</Typography.Text>
        )}
      </Space>
      <ListTable<ConversionReportItem>
        query={query}
        errorMessage="回传记录加载失败"
        size="small"
        columns={columns}
        tableLayout="fixed"
        scroll={{ x: 1120 }}
        locale={{
          emptyText:
            filters.status || filters.step
              ? '没有符合条件的回传记录'
              : '还没有回传记录：用户从该渠道的广告点击进入并完成开启回传的步骤后，这里列出回传给广告平台的事件',
        }}
        pagination={tablePagination(filters, query.data?.total, '条', {
          onChange: (page, pageSize) => setFilters((f) => ({ ...f, ...nextPaging(f, page, pageSize) })),
        })}
      />
    </Card>
  );
}

/**
 * Why it failed (or was not sent), readable, and what the platform answered when that says more — the raw
 * answer in a tooltip.
 */
function AnswerCell({ report: r }: { report: ConversionReportItem }) {
  const reason = r.lastError === null ? null : errorText(r.lastError);
  const error = reason !== null && r.status === 'pending' ? `上次失败：${reason}` : reason;
  const answer = answerText(r.answer);
  const answerSaysMore = r.answer !== null && !(error ?? '').includes(answer);
  return (
    <Space direction="vertical" size={0} style={{ width: '100%' }}>
      {error ? (
        <Typography.Paragraph
          type={r.status === 'dead' ? 'danger' : r.status === 'late' ? 'secondary' : 'warning'}
          ellipsis={{ rows: 2, tooltip: error }}
          style={{ margin: 0 }}
        >
          {error}
        </Typography.Paragraph>
      ) : null}
      {answerSaysMore ? (
        <Typography.Paragraph
          type="secondary"
          style={{ fontSize: 12, margin: 0 }}
          ellipsis={{ rows: 2, tooltip: `平台原始应答：${r.answer}` }}
        >
          平台应答：{answer}
        </Typography.Paragraph>
      ) : null}
      {error === null && !answerSaysMore ? <Typography.Text type="secondary">—</Typography.Text> : null}
      {r.status === 'pending' && r.nextAttemptAt ? (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          下次尝试：{formatShanghai(r.nextAttemptAt, 'second')}
        </Typography.Text>
      ) : null}
    </Space>
  );
}

/** 重新回传 of a dead report, after a confirmation; nothing for the other statuses. */
function ReplayButton({ report, channelId }: { report: ConversionReportItem; channelId: number }) {
  const replay = useReplayConversionReport();
  if (report.status !== 'dead') return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Popconfirm
      title={`重新回传记录 #${report.id}？`}
      description={
        <div style={{ maxWidth: 300 }}>
          记录回到待回传队列，尝试次数清零，立即重新回传。请先确认失败原因已处理（如平台凭据已更正）。操作会记录到操作日志。
        </div>
      }
      okText="重新回传"
      cancelText="取消"
      onConfirm={() =>
        replay
          .mutateAsync({ id: report.id, channelId })
          .then(() => notifySuccess(`回传记录 #${report.id} 已重新排队`))
      }
    >
      <Button size="small" type="link" loading={replay.isPending}>
        重新回传
      </Button>
    </Popconfirm>
  );
}
