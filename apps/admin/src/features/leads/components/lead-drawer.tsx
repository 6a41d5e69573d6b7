import { outcomeTermsText } from '@lm/shared/outcomes';
import type { AdminLeadAttempt, AdminLeadDetail, AdminLeadOutcome } from '@lm/shared/schemas/admin-leads';
import {
  Alert,
  Descriptions,
  Drawer,
  Empty,
  Skeleton,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useLead } from '../api/get-lead';
import {
  ATTEMPT_OUTCOME_TEXT,
  fieldText,
  formatShanghai,
  LEAD_MODE_TEXT,
  LEAD_OUTCOME_COLOR,
  LEAD_STATUS_COLOR,
  LEAD_STATUS_TEXT,
  outcomeText,
} from '../format';

const OUTCOME_COLOR: Record<string, string> = {
  delivered: 'success',
  duplicate: 'success',
  retry: 'warning',
  dead: 'error',
};

const attemptColumns: TableColumnsType<AdminLeadAttempt> = [
  { title: '次序', dataIndex: 'attempt', width: 60 },
  {
    title: '开始时间',
    dataIndex: 'startedAt',
    width: 160,
    render: (v: string) => formatShanghai(v, 'second'),
  },
  { title: '耗时', dataIndex: 'durationMs', width: 80, render: (v: number) => `${v} ms` },
  { title: 'HTTP', dataIndex: 'httpStatus', width: 70, render: (v: number | null) => v ?? '—' },
  {
    title: '结果',
    dataIndex: 'outcome',
    width: 140,
    render: (v: string) => <Tag color={OUTCOME_COLOR[v]}>{ATTEMPT_OUTCOME_TEXT[v] ?? v}</Tag>,
  },
  {
    // Our reason only (the partner's answer is not stored); the server sends it to administrators.
    title: '失败原因',
    dataIndex: 'error',
    render: (v: string | null) => (v ? <Typography.Text type="danger">{v}</Typography.Text> : '—'),
  },
];

const outcomeColumns: TableColumnsType<AdminLeadOutcome> = [
  {
    title: '收到时间',
    dataIndex: 'receivedAt',
    width: 160,
    render: (v: string) => formatShanghai(v, 'second'),
  },
  {
    title: '反馈',
    dataIndex: 'status',
    width: 150,
    render: (v: AdminLeadOutcome['status']) => <Tag color={LEAD_OUTCOME_COLOR[v]}>{outcomeText(v)}</Tag>,
  },
  { title: '额度 / 金额', key: 'terms', width: 200, render: (_, o) => outcomeTermsText(o) },
  { title: '原因', dataIndex: 'reason', render: (v: string | null) => v ?? '—' },
  {
    title: '更新线索',
    dataIndex: 'applied',
    width: 90,
    render: (v: boolean) => (v ? <Tag color="success">是</Tag> : <Tag>仅记录</Tag>),
  },
];

function LeadBody({ lead, actions }: { lead: AdminLeadDetail; actions?: ReactNode }) {
  return (
    <>
      <Descriptions
        column={{ xs: 1, sm: 2 }}
        size="small"
        bordered
        style={{ marginBottom: 16 }}
        styles={{ label: { whiteSpace: 'nowrap' } }}
      >
        <Descriptions.Item label="状态">
          <Tag color={LEAD_STATUS_COLOR[lead.status]}>{LEAD_STATUS_TEXT[lead.status]}</Tag>
        </Descriptions.Item>
        <Descriptions.Item label="发送方式">{LEAD_MODE_TEXT[lead.mode] ?? lead.mode}</Descriptions.Item>
        <Descriptions.Item label="机构反馈" span="filled">
          <Tag color={LEAD_OUTCOME_COLOR[lead.outcome ?? 'pending']}>{outcomeText(lead.outcome)}</Tag>
        </Descriptions.Item>
        <Descriptions.Item label="用户">
          <Link to={`/leads/${lead.userId}`}>
            {lead.phoneMasked}（ID {lead.userId}）
          </Link>
        </Descriptions.Item>
        <Descriptions.Item label="渠道">{lead.channelCode ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="机构">{lead.partnerName}</Descriptions.Item>
        <Descriptions.Item label="产品">{lead.productName}</Descriptions.Item>
        <Descriptions.Item label="发送次数">{lead.attempts}</Descriptions.Item>
        <Descriptions.Item label="下次发送">
          {lead.status === 'pending' ? formatShanghai(lead.nextAttemptAt, 'second') : '—'}
        </Descriptions.Item>
        <Descriptions.Item label="创建时间">{formatShanghai(lead.createdAt, 'second')}</Descriptions.Item>
        <Descriptions.Item label="送达时间">{formatShanghai(lead.deliveredAt, 'second')}</Descriptions.Item>
        <Descriptions.Item label="机构编号">{lead.partnerRef ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="幂等键">
          <Typography.Text copyable style={{ fontSize: 12 }}>
            {lead.idempotencyKey}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label="最近错误" span="filled">
          {lead.lastError ? <Typography.Text type="danger">{lead.lastError}</Typography.Text> : '—'}
        </Descriptions.Item>
        <Descriptions.Item label="授权" span="filled">
          {lead.consent.agreementCode} v{lead.consent.agreementVersion} ·{' '}
          {formatShanghai(lead.consent.createdAt)}
          {lead.consent.withdrawnAt ? (
            <Tag color="default" style={{ marginLeft: 8 }}>
              已于 {formatShanghai(lead.consent.withdrawnAt)} 撤回
            </Tag>
          ) : null}
          <div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              共享字段：{lead.consent.fields.map(fieldText).join('、') || '—'} · 协议摘要{' '}
              {lead.consent.textHash.slice(0, 16)}…
            </Typography.Text>
          </div>
        </Descriptions.Item>
        {lead.callback ? (
          <Descriptions.Item label="机构回调" span="filled">
            <Typography.Text code style={{ wordBreak: 'break-all' }}>
              {JSON.stringify(lead.callback)}
            </Typography.Text>
          </Descriptions.Item>
        ) : null}
      </Descriptions>
      {actions}
      <Typography.Title level={5}>发送记录</Typography.Title>
      <Table<AdminLeadAttempt>
        rowKey="id"
        size="small"
        columns={attemptColumns}
        dataSource={lead.attemptList}
        pagination={false}
        scroll={{ x: 640 }}
        locale={{ emptyText: <Empty description="还没有发送记录" /> }}
      />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        机构的应答内容不保存；每次发送的失败原因仅管理员可见。
      </Typography.Text>
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        机构反馈记录
      </Typography.Title>
      <Table<AdminLeadOutcome>
        rowKey="id"
        size="small"
        columns={outcomeColumns}
        dataSource={lead.outcomeList}
        pagination={false}
        scroll={{ x: 640 }}
        locale={{ emptyText: <Empty description="机构还没有反馈" /> }}
      />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        「仅记录」：迟到或重复的反馈，已保存但没有改变线索的结果。
      </Typography.Text>
    </>
  );
}

export interface LeadDrawerProps {
  leadId: number | null;
  onClose: () => void;
  /** Buttons for the lead (retry / discard), supplied by the page. */
  actions?: (lead: AdminLeadDetail) => ReactNode;
}

/** A lead's detail: state, consent evidence and every delivery attempt (why it failed: administrators). */
export function LeadDrawer({ leadId, onClose, actions }: LeadDrawerProps) {
  const query = useLead(leadId);
  return (
    <Drawer title={leadId ? `线索 #${leadId}` : '线索'} width={760} open={leadId !== null} onClose={onClose}>
      {query.isPending ? (
        <Skeleton active />
      ) : query.isError ? (
        <Alert type="error" showIcon message="线索加载失败" description={query.error.message} />
      ) : (
        <LeadBody lead={query.data} actions={actions?.(query.data)} />
      )}
    </Drawer>
  );
}
