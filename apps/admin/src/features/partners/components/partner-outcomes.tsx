import {
  OUTCOME_DETAIL_LABELS,
  OUTCOME_LABELS,
  type OutcomeStatus,
  outcomeTermsText,
  outcomeYuan,
} from '@lm/shared/outcomes';
import type { OutcomeLatency, PartnerOutcomeItem } from '@lm/shared/schemas/partner-outcomes';
import { addDays, formatShanghai, shanghaiDay } from '@lm/shared/time';
import {
  Card,
  Col,
  Descriptions,
  Empty,
  Row,
  Skeleton,
  Space,
  Statistic,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Link } from 'react-router';
import { QueryError } from '@/components/query-error';
import { ReportRange } from '@/components/report-filters';
import { type PartnerOutcomesRange, usePartnerOutcomes } from '../api/get-partner-outcomes';
import { latencyText } from '../format';

/** The server's defaults: the last 30 days, at most 92 (schemas/partner-outcomes.ts). */
const DEFAULT_DAYS = 30;
const MAX_DAYS = 92;

const OUTCOME_COLOR: Record<OutcomeStatus | 'pending', string> = {
  pending: 'default',
  received: 'processing',
  duplicate: 'warning',
  approved: 'cyan',
  declined: 'error',
  funded: 'success',
};

/** 已授信（授信通过）: the person's word, and the lender's where the two differ. */
function outcomeName(key: OutcomeStatus | 'pending'): string {
  const label = OUTCOME_LABELS[key];
  const detail = OUTCOME_DETAIL_LABELS[key];
  return label === detail ? label : `${label}（${detail}）`;
}

const initialRange = (): PartnerOutcomesRange => {
  const today = shanghaiDay();
  return { from: addDays(today, -(DEFAULT_DAYS - 1)), to: today };
};

function LatencyText({ value }: { value: OutcomeLatency }) {
  if (value.count === 0) return <Typography.Text type="secondary">暂无</Typography.Text>;
  return (
    <span>
      中位数 <strong>{latencyText(value.medianSeconds)}</strong> · 90% 在{' '}
      <strong>{latencyText(value.p90Seconds)}</strong> 内
      <Typography.Text type="secondary">（{value.count} 条线索）</Typography.Text>
    </span>
  );
}

const columns: TableColumnsType<PartnerOutcomeItem> = [
  {
    title: '收到时间',
    dataIndex: 'receivedAt',
    width: 160,
    render: (v: string) => formatShanghai(v, 'second'),
  },
  {
    title: '线索',
    key: 'lead',
    width: 170,
    render: (_, o) => (
      <Link to={`/leads/${o.userId}?lead=${o.leadId}`}>
        #{o.leadId} · {o.leadKeyShort}…
      </Link>
    ),
  },
  { title: '产品', dataIndex: 'productName', width: 130, ellipsis: true },
  {
    title: '反馈',
    dataIndex: 'status',
    width: 150,
    render: (v: OutcomeStatus) => <Tag color={OUTCOME_COLOR[v]}>{outcomeName(v)}</Tag>,
  },
  { title: '额度 / 金额', key: 'amount', width: 230, render: (_, o) => outcomeTermsText(o) },
  {
    title: '原因',
    dataIndex: 'reason',
    ellipsis: true,
    render: (v: string | null) => v ?? '—',
  },
  {
    title: '是否更新线索',
    key: 'applied',
    width: 150,
    render: (_, o) => (
      <Space size={4} wrap>
        {o.applied ? <Tag color="success">已更新</Tag> : <Tag>仅记录</Tag>}
        {o.repeated ? <Tag color="gold">重复</Tag> : null}
        {o.late ? <Tag color="orange">迟到</Tag> : null}
      </Space>
    ),
  },
];

/**
 * 机构反馈 (issue 47.6): what the lender reported about the leads it was sent in a range of Shanghai days —
 * counts by outcome, amounts approved and lent, how long it takes to report, and its latest reports.
 */
export function PartnerOutcomes({ partnerId }: { partnerId: number }) {
  const [range, setRange] = useState<PartnerOutcomesRange>(initialRange);
  const query = usePartnerOutcomes(partnerId, range);
  const today = dayjs(shanghaiDay());
  const data = query.data;
  const count = (key: OutcomeStatus | 'pending') => data?.counts.find((c) => c.key === key)?.count ?? 0;

  return (
    <Card
      title="机构反馈"
      style={{ marginBottom: 16 }}
      data-testid="partner-outcomes"
      extra={
        <ReportRange
          from={range.from}
          to={range.to}
          today={today}
          maxDays={MAX_DAYS}
          presets={[
            { label: '近 7 天', value: [today.subtract(6, 'day'), today] },
            { label: '近 30 天', value: [today.subtract(29, 'day'), today] },
            { label: '近 90 天', value: [today.subtract(89, 'day'), today] },
          ]}
          onChange={setRange}
        />
      }
    >
      {query.isError && !data ? (
        <QueryError message="机构反馈加载失败" error={query.error} onRetry={() => void query.refetch()} />
      ) : !data ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : (
        <>
          <Typography.Paragraph type="secondary">
            {data.from} 至 {data.to}
            （上海时间）送达该机构的线索，按机构最新一次反馈统计；时效从线索送达算到收到机构反馈。
          </Typography.Paragraph>
          <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
            <Col xs={12} md={4}>
              <Statistic title="送达线索" value={data.delivered} suffix="条" />
            </Col>
            <Col xs={12} md={4}>
              {/* A funded lead was approved first: both count here (the tags below split them). */}
              <Statistic title="已授信（含已放款）" value={count('approved') + count('funded')} suffix="条" />
            </Col>
            <Col xs={12} md={4}>
              <Statistic title="已放款" value={count('funded')} suffix="条" />
            </Col>
            <Col xs={12} md={6}>
              <Statistic title="授信额度合计" value={outcomeYuan(data.approvedFen)} />
            </Col>
            <Col xs={12} md={6}>
              <Statistic title="放款金额合计" value={outcomeYuan(data.fundedFen)} />
            </Col>
          </Row>
          <Space wrap style={{ marginBottom: 16 }} aria-label="按反馈结果">
            {data.counts.map((c) => (
              <Tag key={c.key} color={OUTCOME_COLOR[c.key]} style={{ fontSize: 13, padding: '2px 8px' }}>
                {outcomeName(c.key)} {c.count}
              </Tag>
            ))}
          </Space>
          <Descriptions
            size="small"
            bordered
            column={1}
            style={{ marginBottom: 16 }}
            styles={{ label: { width: 180, whiteSpace: 'nowrap' } }}
          >
            <Descriptions.Item label="送达 → 首次反馈">
              <LatencyText value={data.latency.firstOutcome} />
            </Descriptions.Item>
            <Descriptions.Item label="送达 → 授信">
              <LatencyText value={data.latency.approved} />
            </Descriptions.Item>
            <Descriptions.Item label="送达 → 放款">
              <LatencyText value={data.latency.funded} />
            </Descriptions.Item>
          </Descriptions>
          <Typography.Title level={5}>最近反馈（最多 50 条）</Typography.Title>
          <Table<PartnerOutcomeItem>
            rowKey="id"
            size="small"
            columns={columns}
            dataSource={data.latest}
            loading={query.isFetching}
            pagination={false}
            scroll={{ x: 1100 }}
            locale={{ emptyText: <Empty description="所选日期内机构没有反馈" /> }}
          />
        </>
      )}
    </Card>
  );
}
