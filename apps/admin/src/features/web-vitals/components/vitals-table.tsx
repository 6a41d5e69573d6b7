import type { RumMetric, VitalsGroupBy, WebVitalsRow } from '@lm/shared/schemas/rum';
import { Card, Table, Tag, Typography } from 'antd';
import { CsvExportButton } from '@/components/csv-export-button';
import {
  formatGroup,
  formatValue,
  GROUP_LABELS,
  METRIC_LABELS,
  RATING_COLORS,
  RATING_LABELS,
  thresholdText,
} from './format';

interface VitalsTableProps {
  metric: RumMetric;
  groupBy: VitalsGroupBy;
  rows: WebVitalsRow[];
  threshold?: { good: number; poor: number } | undefined;
  loading: boolean;
  fileName: () => string;
}

/** One metric: p75 (coloured by its rating), p50, p95 and samples per group, with CSV export. */
export function VitalsTable({ metric, groupBy, rows, threshold, loading, fileName }: VitalsTableProps) {
  const chunk = metric === 'CHUNK_ERROR';
  const groupTitle = GROUP_LABELS[groupBy];
  return (
    <Card
      size="small"
      style={{ marginBottom: 16 }}
      title={
        <span>
          {METRIC_LABELS[metric]}
          {threshold ? (
            <Typography.Text type="secondary" style={{ marginLeft: 12, fontWeight: 'normal' }}>
              P75 {thresholdText(metric, threshold)}
            </Typography.Text>
          ) : null}
        </span>
      }
      extra={
        <CsvExportButton
          size="small"
          disabled={rows.length === 0}
          load={async () => rows}
          fileName={fileName}
          columns={[
            { title: groupTitle, value: (r) => formatGroup(groupBy, r.group) },
            { title: '指标', value: (r) => r.metric },
            { title: chunk ? '次数' : '样本数', value: (r) => r.count },
            ...(chunk
              ? []
              : [
                  { title: 'P50', value: (r: WebVitalsRow) => r.p50 },
                  { title: 'P75', value: (r: WebVitalsRow) => r.p75 },
                  { title: 'P95', value: (r: WebVitalsRow) => r.p95 },
                  {
                    title: '评级(P75)',
                    value: (r: WebVitalsRow) => (r.rating ? RATING_LABELS[r.rating] : ''),
                  },
                ]),
          ]}
        />
      }
    >
      <Table<WebVitalsRow>
        size="small"
        rowKey={(r) => `${r.group ?? ''}|${r.metric}`}
        loading={loading}
        dataSource={rows}
        pagination={rows.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
        locale={{ emptyText: chunk ? '所选时间内没有脚本加载失败' : '所选时间内暂无数据' }}
        columns={[
          { title: groupTitle, dataIndex: 'group', render: (g: string | null) => formatGroup(groupBy, g) },
          {
            title: chunk ? '次数' : '样本数',
            dataIndex: 'count',
            align: 'right',
            sorter: (a, b) => a.count - b.count,
            defaultSortOrder: chunk ? 'descend' : undefined,
          },
          ...(chunk
            ? []
            : [
                {
                  title: 'P75',
                  dataIndex: 'p75',
                  align: 'right' as const,
                  sorter: (a: WebVitalsRow, b: WebVitalsRow) => a.p75 - b.p75,
                  render: (v: number, r: WebVitalsRow) =>
                    r.rating ? (
                      <Tag color={RATING_COLORS[r.rating]} data-rating={r.rating}>
                        {formatValue(metric, v)}
                      </Tag>
                    ) : (
                      formatValue(metric, v)
                    ),
                },
                {
                  title: 'P50',
                  dataIndex: 'p50',
                  align: 'right' as const,
                  render: (v: number) => formatValue(metric, v),
                },
                {
                  title: 'P95',
                  dataIndex: 'p95',
                  align: 'right' as const,
                  render: (v: number) => formatValue(metric, v),
                },
                {
                  title: '评级',
                  dataIndex: 'rating',
                  render: (r: WebVitalsRow['rating']) => (r ? RATING_LABELS[r] : '—'),
                },
              ]),
        ]}
      />
    </Card>
  );
}
