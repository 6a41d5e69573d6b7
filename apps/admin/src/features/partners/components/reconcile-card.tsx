import { OUTCOME_STATUSES } from '@lm/shared/outcomes';
import {
  FILE_STATUS_LABELS,
  ourStatusText,
  RECONCILE_COLUMNS,
  RECONCILE_KIND_LABELS,
  RECONCILE_KINDS,
  RECONCILE_MAX_LISTED,
  type ReconcileKind,
  yuanText,
} from '@lm/shared/reconcile';
import type { ReconcileData, ReconcileDisagreement } from '@lm/shared/schemas/reconcile';
import { formatShanghai } from '@lm/shared/time';
import {
  Alert,
  Button,
  Card,
  Col,
  DatePicker,
  Input,
  Row,
  Space,
  Statistic,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
  Upload,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '@/lib/api-client';
import { type CsvColumn, downloadCsv, toCsv } from '@/lib/csv';
import { useReconcilePartnerOutcomes } from '../api/reconcile-partner-outcomes';
import { decodeCsvBytes } from '../reconcile-file';

const KIND_COLOURS: Record<ReconcileKind, string> = {
  unknown_lead: 'purple',
  status_differs: 'red',
  amount_differs: 'orange',
  missing_in_file: 'blue',
  bad_row: 'default',
};

const KIND_TOTAL: Record<ReconcileKind, keyof ReconcileData['totals']> = {
  unknown_lead: 'unknownLead',
  status_differs: 'statusDiffers',
  amount_differs: 'amountDiffers',
  missing_in_file: 'missingInFile',
  bad_row: 'badRows',
};

const isOurStatus = (s: string | null): s is (typeof OUTCOME_STATUSES)[number] =>
  s !== null && (OUTCOME_STATUSES as readonly string[]).includes(s);

/** The file's side of a disagreement in words. */
function theirsText(d: ReconcileDisagreement): string {
  if (!d.theirs) return '文件中没有';
  const parts = [
    d.theirs.status
      ? FILE_STATUS_LABELS[d.theirs.status]
      : d.theirs.statusText
        ? `「${d.theirs.statusText}」`
        : '（无状态）',
  ];
  if (d.theirs.amountFen !== null) parts.push(yuanText(d.theirs.amountFen));
  if (d.theirs.occurredAt) parts.push(formatShanghai(d.theirs.occurredAt));
  return parts.join(' · ');
}

/** Our side of a disagreement in words. */
function oursText(d: ReconcileDisagreement): string {
  if (!d.ours) return '无此线索';
  const status = isOurStatus(d.ours.status) ? d.ours.status : null;
  const parts = [ourStatusText(status)];
  if (d.ours.amountFen !== null) parts.push(yuanText(d.ours.amountFen));
  return parts.join(' · ');
}

const EXPORT_COLUMNS: CsvColumn<ReconcileDisagreement>[] = [
  { title: '类型', value: (d) => RECONCILE_KIND_LABELS[d.kind] },
  { title: '行号', value: (d) => d.line ?? '' },
  { title: '线索编号', value: (d) => d.leadId ?? '' },
  { title: '机构文件', value: theirsText },
  { title: '我方记录', value: oursText },
  { title: '说明', value: (d) => d.text },
];

type Source = { name: string; text: string; encoding: string; rows: number } | null;

export interface ReconcileCardProps {
  partnerId: number;
  partnerCode: string;
}

/**
 * 对账 (issue 47.4): the lender's own list of our leads and their statuses (a CSV file read in the browser, or
 * pasted) compared with what it reported to us; the totals and every disagreement in words. Nothing is changed.
 */
export function ReconcileCard({ partnerId, partnerCode }: ReconcileCardProps) {
  const [file, setFile] = useState<Source>(null);
  const [pasted, setPasted] = useState('');
  const [period, setPeriod] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [readProblem, setReadProblem] = useState<string | null>(null);
  const [kinds, setKinds] = useState<ReconcileKind[] | null>(null);
  const run = useReconcilePartnerOutcomes();
  const result = run.data;
  const csv = file?.text ?? pasted;

  const pick = async (picked: File) => {
    setReadProblem(null);
    const read = decodeCsvBytes(new Uint8Array(await picked.arrayBuffer()));
    if ('problem' in read) {
      setFile(null);
      setReadProblem(`${picked.name}：${read.problem}`);
      return;
    }
    setFile({ name: picked.name, ...read });
  };

  const start = () => {
    setKinds(null);
    run.reset();
    const [from, to] = period ?? [null, null];
    void run
      .mutateAsync({
        id: partnerId,
        body: {
          csv,
          ...(from && to ? { from: from.format('YYYY-MM-DD'), to: to.format('YYYY-MM-DD') } : {}),
        },
      })
      .catch(() => undefined);
  };

  const columns: TableColumnsType<ReconcileDisagreement> = [
    {
      title: '类型',
      dataIndex: 'kind',
      width: 120,
      filters: RECONCILE_KINDS.map((k) => ({ text: RECONCILE_KIND_LABELS[k], value: k })),
      filteredValue: kinds,
      onFilter: (value, d) => d.kind === value,
      render: (k: ReconcileKind) => <Tag color={KIND_COLOURS[k]}>{RECONCILE_KIND_LABELS[k]}</Tag>,
    },
    { title: '行号', dataIndex: 'line', width: 70, render: (l: number | null) => l ?? '—' },
    {
      title: '线索编号',
      dataIndex: 'leadId',
      width: 230,
      render: (id: string | null, d) =>
        id === null ? (
          '—'
        ) : d.userId !== null ? (
          <Link to={`/leads/${d.userId}`} title="查看申请人">
            <Typography.Text code style={{ fontSize: 12 }}>
              {id}
            </Typography.Text>
          </Link>
        ) : (
          <Typography.Text code style={{ fontSize: 12 }}>
            {id}
          </Typography.Text>
        ),
    },
    { title: '机构文件', key: 'theirs', width: 200, render: (_, d) => theirsText(d) },
    { title: '我方记录', key: 'ours', width: 200, render: (_, d) => oursText(d) },
    { title: '说明', dataIndex: 'text' },
  ];

  const error = run.error instanceof ApiError ? run.error.msg : run.error ? '对账失败，请稍后再试' : null;

  return (
    <Card
      title="对账"
      style={{ marginTop: 16, marginBottom: 16 }}
      extra={
        result && result.disagreements.length > 0 ? (
          <Button
            size="small"
            onClick={() =>
              downloadCsv(
                `对账不一致-${partnerCode}-${formatShanghai(new Date().toISOString(), 'day')}`,
                toCsv(result.disagreements, EXPORT_COLUMNS),
              )
            }
          >
            导出不一致清单
          </Button>
        ) : null
      }
    >
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        上传机构提供的线索状态清单，与机构通过接口反馈的结果逐条比对，列出不一致之处，供人工核实处理；对账不会修改任何结果。
        文件为 CSV（UTF-8 或 Excel 默认的 GBK 编码，逗号分隔），第一行为表头：
      </Typography.Paragraph>
      <ul style={{ marginTop: 0, paddingLeft: 20, color: 'rgba(0,0,0,0.65)' }}>
        {RECONCILE_COLUMNS.map((c) => (
          <li key={c.name}>
            <Typography.Text code>{c.name}</Typography.Text>（{c.aliases}
            {c.required ? '，必填' : '，可选'}）：{c.text}
          </li>
        ))}
      </ul>
      <Space wrap align="center" style={{ marginBottom: 12 }}>
        <Upload
          accept=".csv,text/csv,text/plain"
          showUploadList={false}
          beforeUpload={(picked) => {
            void pick(picked);
            return false;
          }}
        >
          <Button>选择 CSV 文件</Button>
        </Upload>
        <span>文件覆盖的推送日期（可选）</span>
        <DatePicker.RangePicker
          aria-label="文件覆盖的推送日期"
          value={period}
          onChange={(dates) => setPeriod(dates ? [dates[0], dates[1]] : null)}
        />
        <Button type="primary" disabled={!csv.trim()} loading={run.isPending} onClick={start}>
          开始对账
        </Button>
      </Space>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        填写日期时，该期间推送给机构、但文件中没有的线索都会列为“文件中缺少”；不填时，只列出机构已反馈过结果、但文件中没有的线索。
      </Typography.Paragraph>
      {file ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          message={`已读取 ${file.name}：${file.rows} 行数据${file.encoding === 'gb18030' ? '（按 GBK 编码读取）' : ''}`}
          action={
            <Button size="small" type="link" onClick={() => setFile(null)}>
              清除
            </Button>
          }
        />
      ) : (
        <Input.TextArea
          aria-label="粘贴 CSV 内容"
          rows={4}
          value={pasted}
          onChange={(e) => setPasted(e.target.value)}
          placeholder={
            '或在此粘贴 CSV 内容，例如：\nleadId,status,amount,occurredAt\n<线索编号>,已放款,12345.67,2026-03-01 14:05'
          }
          style={{ marginBottom: 12, fontFamily: 'monospace' }}
        />
      )}
      {readProblem && <Alert type="error" showIcon style={{ marginBottom: 12 }} message={readProblem} />}
      {error && <Alert type="error" showIcon style={{ marginBottom: 12 }} message={error} />}
      {result && (
        <div data-testid="reconcile-result">
          <Row gutter={16} style={{ marginBottom: 12 }}>
            <Col xs={8} md={4}>
              <Statistic title="读取行数" value={result.totals.rows} groupSeparator="," />
            </Col>
            <Col xs={8} md={4}>
              <Statistic
                title="一致"
                value={result.totals.matched}
                groupSeparator=","
                valueStyle={{ color: '#389e0d' }}
              />
            </Col>
            <Col xs={8} md={4}>
              <Statistic
                title="不一致"
                value={result.totals.disagreements}
                groupSeparator=","
                valueStyle={result.totals.disagreements ? { color: '#cf1322' } : undefined}
              />
            </Col>
            <Col xs={24} md={12}>
              <Typography.Text type="secondary">
                {result.period
                  ? `文件覆盖 ${result.period.from} 至 ${result.period.to} 推送的线索`
                  : '未指定推送日期：核对机构已反馈过结果的线索'}
              </Typography.Text>
              <div style={{ marginTop: 8 }}>
                {RECONCILE_KINDS.map((k) => (
                  <Tag
                    key={k}
                    color={result.totals[KIND_TOTAL[k]] ? KIND_COLOURS[k] : 'default'}
                    style={{ cursor: 'pointer', marginBottom: 4 }}
                    onClick={() => setKinds(result.totals[KIND_TOTAL[k]] ? [k] : null)}
                  >
                    {RECONCILE_KIND_LABELS[k]} {result.totals[KIND_TOTAL[k]]}
                  </Tag>
                ))}
              </div>
            </Col>
          </Row>
          {result.truncated && (
            <Alert
              type="warning"
              showIcon
              style={{ marginBottom: 12 }}
              message={`不一致共 ${result.totals.disagreements} 条，下表只列出前 ${RECONCILE_MAX_LISTED} 条；请按日期拆分文件后分别对账。`}
            />
          )}
          {result.totals.disagreements === 0 ? (
            <Alert type="success" showIcon message="文件与机构反馈的结果完全一致" />
          ) : (
            <Table<ReconcileDisagreement>
              size="small"
              rowKey={(d) => `${d.kind}:${d.line ?? ''}:${d.leadId ?? ''}`}
              columns={columns}
              dataSource={result.disagreements}
              onChange={(_, filters) => setKinds((filters.kind as ReconcileKind[] | null) ?? null)}
              pagination={{ pageSize: 10, showSizeChanger: false, showTotal: (n) => `共 ${n} 条` }}
              scroll={{ x: 1000 }}
            />
          )}
        </div>
      )}
    </Card>
  );
}
