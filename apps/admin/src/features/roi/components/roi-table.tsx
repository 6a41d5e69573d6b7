import type { RoiData, RoiRow } from '@lm/shared/schemas/roi';
import { ROI_GROUP_LABELS } from '@lm/shared/schemas/roi';
import { Button, Card, Table, type TableColumnsType, Typography } from 'antd';
import { useMemo } from 'react';
import { type CsvColumn, downloadCsv, toCsv } from '@/lib/csv';
import { count, roiPercent, yuan } from './format';

type Figures = Omit<RoiRow, 'key' | 'label'>;

const VOLUMES: { key: keyof Figures; title: string }[] = [
  { key: 'clicks', title: '点击' },
  { key: 'registrations', title: '注册' },
  { key: 'leads', title: '线索' },
  { key: 'approved', title: '授信' },
  { key: 'funded', title: '放款' },
  { key: 'returns', title: '退回' },
];
const AMOUNTS: { key: keyof Figures; title: string; render: (r: Figures) => string }[] = [
  { key: 'costFen', title: '成本（元）', render: (r) => yuan(r.costFen) },
  { key: 'revenueFen', title: '收入（元）', render: (r) => yuan(r.revenueFen) },
  { key: 'returnedFen', title: '退回冲减（元）', render: (r) => yuan(r.returnedFen) },
  { key: 'marginFen', title: '毛利（元）', render: (r) => yuan(r.marginFen) },
  { key: 'roiBps', title: 'ROI', render: (r) => roiPercent(r.roiBps) },
  { key: 'costPerLeadFen', title: '线索成本（元）', render: (r) => yuan(r.costPerLeadFen) },
];
const PER_VISITOR = {
  key: 'revenuePerVisitorFen' as const,
  title: '每访客收入（元）',
  render: (r: Figures) => yuan(r.revenuePerVisitorFen),
};

const keyTitle = (data: RoiData) => ROI_GROUP_LABELS[data.groupBy];
const keyText = (data: RoiData, r: RoiRow) =>
  data.groupBy === 'channel'
    ? r.key
      ? `${r.label ?? r.key}（${r.key}）`
      : (r.label ?? '')
    : (r.label ?? r.key);

/** One row per channel, day or skin, with the period's totals as the last line; CSV export. */
export function RoiTable({ data, loading }: { data: RoiData; loading: boolean }) {
  const amounts = data.amountsShown ? [...AMOUNTS, ...(data.groupBy === 'skin' ? [PER_VISITOR] : [])] : [];
  const columns = useMemo<TableColumnsType<RoiRow>>(
    () => [
      {
        title: keyTitle(data),
        key: 'key',
        fixed: 'left',
        width: data.groupBy === 'channel' ? 220 : 120,
        render: (_, r) => keyText(data, r),
      },
      ...VOLUMES.map((c) => ({
        title: c.title,
        key: c.key,
        align: 'right' as const,
        render: (_: unknown, r: RoiRow) => count(r[c.key] as number),
      })),
      ...amounts.map((c) => ({
        title: c.title,
        key: c.key,
        align: 'right' as const,
        render: (_: unknown, r: RoiRow) => {
          const text = c.render(r);
          const v = r[c.key];
          return c.key === 'marginFen' || c.key === 'roiBps' ? (
            <Typography.Text type={typeof v === 'number' && v < 0 ? 'danger' : undefined}>
              {text}
            </Typography.Text>
          ) : (
            text
          );
        },
      })),
    ],
    [data, amounts],
  );

  const exportCsv = () => {
    const cols: CsvColumn<RoiRow>[] = [
      { title: keyTitle(data), value: (r) => r.key },
      ...(data.groupBy === 'day' ? [] : [{ title: '名称', value: (r: RoiRow) => r.label ?? '' }]),
      ...VOLUMES.map((c) => ({ title: c.title, value: (r: RoiRow) => Number(r[c.key] ?? 0) })),
      ...amounts.map((c) => ({ title: c.title, value: (r: RoiRow) => c.render(r).replaceAll(',', '') })),
    ];
    downloadCsv(
      `投放收益_按${keyTitle(data)}_${data.from}_${data.to}`,
      toCsv([...data.rows, { key: '合计', label: '', ...data.totals }], cols),
    );
  };

  return (
    <section aria-label="投放收益明细">
      <Card
        size="small"
        title={`按${keyTitle(data)}（${data.rows.length} 行）`}
        extra={
          <Button size="small" onClick={exportCsv} disabled={data.rows.length === 0}>
            导出 CSV
          </Button>
        }
        style={{ marginBottom: 16 }}
      >
        <Table<RoiRow>
          rowKey="key"
          size="small"
          loading={loading}
          columns={columns}
          dataSource={data.rows}
          pagination={data.rows.length > 50 ? { pageSize: 50, showSizeChanger: false } : false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: '所选日期内没有点击、线索或账目' }}
          summary={() =>
            data.rows.length === 0 ? null : (
              <Table.Summary fixed>
                <Table.Summary.Row>
                  <Table.Summary.Cell index={0}>
                    <strong>合计</strong>
                  </Table.Summary.Cell>
                  {[
                    ...VOLUMES.map((c) => count(data.totals[c.key] as number)),
                    ...amounts.map((c) => c.render(data.totals)),
                  ].map((text, i) => (
                    <Table.Summary.Cell key={String(i)} index={i + 1} align="right">
                      <strong>{text}</strong>
                    </Table.Summary.Cell>
                  ))}
                </Table.Summary.Row>
              </Table.Summary>
            )
          }
        />
      </Card>
    </section>
  );
}
