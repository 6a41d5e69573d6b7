import { fenToYuanText } from '@lm/shared/money';
import {
  SPEND_COLUMNS,
  type SpendImportResult,
  type SpendPreviewData,
  type SpendRow,
} from '@lm/shared/schemas/spend-imports';
import { formatShanghai } from '@lm/shared/time';
import {
  Alert,
  Button,
  Card,
  Col,
  Row,
  Space,
  Statistic,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
  Upload,
} from 'antd';
import { useState } from 'react';
import { ApiError } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { useImportSpend } from '../api/import-spend';
import { usePreviewSpendImport } from '../api/preview-spend-import';
import { decodeSpendBytes } from '../spend-file';

const yuan = (fen: number) => fenToYuanText(fen, { grouping: true, unit: true });
const signedYuan = (fen: number) => (fen > 0 ? `+${yuan(fen)}` : fen < 0 ? `−${yuan(-fen)}` : '不变');

type Source = { name: string; text: string; encoding: string } | null;

const columns: TableColumnsType<SpendRow> = [
  { title: '行号', dataIndex: 'line', width: 70 },
  { title: '日期', dataIndex: 'day', width: 120, render: (d: string | null) => d ?? '—' },
  { title: '渠道编码', dataIndex: 'channelCode', width: 140, render: (c: string | null) => c ?? '—' },
  {
    title: '消耗',
    dataIndex: 'amountFen',
    width: 140,
    align: 'right',
    render: (f: number | null) => (f === null ? '—' : yuan(f)),
  },
  {
    title: '本次记账',
    key: 'delta',
    width: 140,
    align: 'right',
    render: (_, r) => (r.deltaFen === undefined ? '—' : signedYuan(r.deltaFen)),
  },
  {
    title: '结果',
    key: 'status',
    render: (_, r) =>
      r.status === 'ok' ? (
        <Tag color="green">可导入</Tag>
      ) : (
        <Space size={4} wrap>
          <Tag color="red">拒绝</Tag>
          <Typography.Text type="danger">{r.reason}</Typography.Text>
        </Space>
      ),
  },
];

function Totals({ data }: { data: SpendPreviewData }) {
  return (
    <Row gutter={16} style={{ marginBottom: 12 }}>
      <Col xs={8} md={4}>
        <Statistic title="可导入" value={data.accepted} valueStyle={{ color: '#389e0d' }} />
      </Col>
      <Col xs={8} md={4}>
        <Statistic
          title="拒绝"
          value={data.rejected}
          valueStyle={data.rejected ? { color: '#cf1322' } : undefined}
        />
      </Col>
      <Col xs={8} md={6}>
        <Statistic title="可导入的消耗合计" value={yuan(data.totalFen)} />
      </Col>
    </Row>
  );
}

/**
 * 导入消耗 (issue 48.2): choose the ad platform's daily report (CSV, UTF-8 or GBK) → the preview, each rejected row
 * highlighted with its reason → 导入 → what was booked. The same file again books nothing.
 */
export function SpendImportPanel() {
  const [file, setFile] = useState<Source>(null);
  const [readProblem, setReadProblem] = useState<string | null>(null);
  const preview = usePreviewSpendImport();
  const commit = useImportSpend();
  const [result, setResult] = useState<SpendImportResult | null>(null);

  const pick = async (picked: File) => {
    setReadProblem(null);
    setResult(null);
    commit.reset();
    preview.reset();
    const read = decodeSpendBytes(new Uint8Array(await picked.arrayBuffer()));
    if ('problem' in read) {
      setFile(null);
      setReadProblem(`${picked.name}：${read.problem}`);
      return;
    }
    setFile({ name: picked.name, ...read });
    void preview.mutateAsync({ fileName: picked.name, content: read.text }).catch(() => undefined);
  };

  const start = () => {
    if (!file) return;
    void commit
      .mutateAsync({ fileName: file.name, content: file.text })
      .then((r) => {
        setResult(r);
        notifySuccess(r.repeated ? '该文件已导入过，未重复记账' : `已导入 ${r.accepted} 行消耗`);
      })
      .catch(() => undefined);
  };

  const errorOf = (e: unknown, fallback: string) => (e instanceof ApiError ? e.msg : e ? fallback : null);
  const error =
    errorOf(preview.error, '预览失败，请稍后再试') ?? errorOf(commit.error, '导入失败，请稍后再试');
  const data: SpendPreviewData | undefined = result ?? preview.data;

  return (
    <Card title="导入消耗" style={{ marginBottom: 16 }}>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        上传广告平台的每日消耗报表，消耗按渠道、按天计入渠道成本。文件为 CSV（UTF-8 或 Excel 默认的 GBK
        编码，逗号分隔），第一行为表头：
      </Typography.Paragraph>
      <ul style={{ marginTop: 0, paddingLeft: 20, color: 'rgba(0,0,0,0.65)' }}>
        {SPEND_COLUMNS.map((c) => (
          <li key={c.name}>
            <Typography.Text code>{c.name}</Typography.Text>（{c.aliases}）：{c.text}
          </li>
        ))}
      </ul>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        同一文件重复导入不会重复记账；再次导入某渠道某天的消耗时，只记录与已记账金额的差额。当天按点击、注册、线索或收入分成计费的渠道不接受消耗。
      </Typography.Paragraph>
      <Space wrap align="center" style={{ marginBottom: 12 }}>
        <Upload
          accept=".csv,text/csv,text/plain"
          showUploadList={false}
          beforeUpload={(picked) => {
            void pick(picked);
            return false;
          }}
        >
          <Button loading={preview.isPending}>选择 CSV 文件</Button>
        </Upload>
        {file && (
          <Typography.Text>
            {file.name}
            {file.encoding === 'gb18030' ? '（按 GBK 编码读取）' : ''}
          </Typography.Text>
        )}
        <Button
          type="primary"
          disabled={
            !preview.data ||
            preview.data.accepted === 0 ||
            preview.data.alreadyImported !== null ||
            result !== null
          }
          loading={commit.isPending}
          onClick={start}
        >
          导入
        </Button>
      </Space>
      {readProblem && <Alert type="error" showIcon style={{ marginBottom: 12 }} message={readProblem} />}
      {error && <Alert type="error" showIcon style={{ marginBottom: 12 }} message={error} />}
      {preview.data?.alreadyImported && !result && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          message={`该文件已于 ${formatShanghai(preview.data.alreadyImported.createdAt)} 导入（${preview.data.alreadyImported.fileName}），无需再次导入（重复导入不会重复记账）`}
        />
      )}
      {result && (
        <Alert
          type={result.repeated ? 'warning' : 'success'}
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="spend-import-result"
          message={
            result.repeated
              ? `该文件已于 ${formatShanghai(result.import.createdAt)} 导入，本次未记账`
              : `已导入 ${result.accepted} 行、跳过 ${result.rejected} 行；记账 ${result.entriesBooked} 笔，合计 ${signedYuan(result.bookedFen)}`
          }
        />
      )}
      {data && (
        <div data-testid="spend-preview">
          <Totals data={data} />
          <Table<SpendRow>
            size="small"
            rowKey="line"
            columns={columns}
            dataSource={data.rows}
            rowClassName={(r) => (r.status === 'rejected' ? 'spend-row-rejected' : '')}
            onRow={(r) => (r.status === 'rejected' ? { style: { background: '#fff1f0' } } : {})}
            pagination={data.rows.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
            scroll={{ x: 800 }}
          />
        </div>
      )}
    </Card>
  );
}
