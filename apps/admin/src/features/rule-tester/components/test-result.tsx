import type { RuleTesterData } from '@lm/shared/schemas/admin-catalog';
import { formatShanghai } from '@lm/shared/time';
import { Alert, Button, Card, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { downloadCsv, toCsv } from '@/lib/csv';

type Matched = RuleTesterData['matched'][number];
type Excluded = RuleTesterData['excluded'][number];

const GATE_CODES = new Set(['NOT_PUBLISHED', 'PARTNER_SUSPENDED', 'NOT_PUBLISHABLE', 'OUTSIDE_ACTIVE_HOURS']);
const CAP_CODES = new Set(['DAILY_CAP_REACHED', 'TOTAL_CAP_REACHED', 'LENDER_LIMIT', 'SAME_LENDER']);
const reasonColor = (code: string) =>
  GATE_CODES.has(code) ? 'default' : CAP_CODES.has(code) ? 'orange' : 'red';

const formatTime = (iso: string) => formatShanghai(iso, 'second');

/** Matched products (ranked, with the rules they satisfy) and every other product with its reasons. */
export function TestResult({ data }: { data: RuleTesterData }) {
  // The run's time in Shanghai: 2026-03-01-14-05.
  const stamp = formatShanghai(data.at).replace(/[ :]/g, '-');
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={16}>
      <Alert
        type="info"
        showIcon
        message={`测试时间 ${formatTime(data.at)}（上海）· 年龄 ${data.age ?? '未知'} · 匹配 ${data.matched.length} 个，排除 ${data.excluded.length} 个`}
        description="使用与真实匹配相同的规则引擎、在线产品和今日名额；测试不占用名额，也不保存任何记录。"
      />
      {data.notes.map((n) => (
        <Alert key={n} type="warning" showIcon message={n} />
      ))}
      <Card
        title={`匹配的产品（${data.matched.length}）`}
        extra={
          <Button
            size="small"
            disabled={data.matched.length === 0}
            onClick={() =>
              downloadCsv(
                `规则测试-匹配-${stamp}`,
                toCsv(data.matched, [
                  { title: '排名', value: (r: Matched) => r.rank },
                  { title: '产品编号', value: (r: Matched) => r.productId },
                  { title: '产品', value: (r: Matched) => r.name },
                  { title: '机构', value: (r: Matched) => r.lender },
                  { title: '符合的规则', value: (r: Matched) => r.reasons.map((x) => x.text).join('；') },
                ]),
              )
            }
          >
            导出 CSV
          </Button>
        }
      >
        <Table<Matched>
          rowKey="productId"
          size="small"
          pagination={false}
          dataSource={data.matched}
          locale={{ emptyText: '没有匹配的产品' }}
          data-testid="matched-table"
          columns={[
            { title: '排名', dataIndex: 'rank', width: 70 },
            { title: '产品', dataIndex: 'name', width: 200 },
            { title: '机构', dataIndex: 'lender', width: 240 },
            {
              title: '符合的规则',
              key: 'reasons',
              render: (_, r) =>
                r.reasons.length ? (
                  r.reasons.map((x) => (
                    <Tag color="green" key={x.rule}>
                      {x.text}
                    </Tag>
                  ))
                ) : (
                  <Typography.Text type="secondary">无准入规则</Typography.Text>
                ),
            },
          ]}
        />
      </Card>
      <Card
        title={`未匹配的产品（${data.excluded.length}）`}
        extra={
          <Button
            size="small"
            disabled={data.excluded.length === 0}
            onClick={() =>
              downloadCsv(
                `规则测试-排除-${stamp}`,
                toCsv(data.excluded, [
                  { title: '产品编号', value: (r: Excluded) => r.productId },
                  { title: '产品', value: (r: Excluded) => r.name },
                  { title: '机构', value: (r: Excluded) => r.lender },
                  { title: '原因', value: (r: Excluded) => r.reasons.map((x) => x.text).join('；') },
                  { title: '原因代码', value: (r: Excluded) => r.reasons.map((x) => x.code).join(' ') },
                ]),
              )
            }
          >
            导出 CSV
          </Button>
        }
      >
        <Table<Excluded>
          rowKey="productId"
          size="small"
          pagination={false}
          dataSource={data.excluded}
          locale={{ emptyText: '所有产品都匹配' }}
          data-testid="excluded-table"
          columns={[
            { title: '编号', dataIndex: 'productId', width: 70 },
            { title: '产品', dataIndex: 'name', width: 200 },
            { title: '机构', dataIndex: 'lender', width: 240 },
            {
              title: '未匹配原因',
              key: 'reasons',
              render: (_, r) => (
                <Space direction="vertical" size={2}>
                  {r.reasons.map((x) => (
                    <Tooltip title={x.code} key={`${x.code}-${x.text}`}>
                      <Tag color={reasonColor(x.code)} style={{ whiteSpace: 'normal' }}>
                        {x.text}
                      </Tag>
                    </Tooltip>
                  ))}
                </Space>
              ),
            },
          ]}
        />
      </Card>
    </Space>
  );
}
