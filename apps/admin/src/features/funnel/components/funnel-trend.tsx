import type { FunnelTrendData } from '@lm/shared/schemas/funnel';
import { Alert, Button, Card, Collapse, Empty, Table, type TableColumnsType } from 'antd';
import { useMemo } from 'react';
import { downloadCsv, toCsv } from '@/lib/csv';
import { useFunnelTrend } from '../api/get-funnel-trend';
import type { FunnelFilters } from '../api/types';
import { count } from './format';
import { TrendChart } from './trend-chart';

type DayRow = FunnelTrendData['days'][number];

/** Shown at first; the other steps can be switched on in the legend. */
const DEFAULT_SHOWN = ['渠道点击', '访问落地页', '登录', '提交表单', '授权', '授信', '放款'];

function exportTrend(data: FunnelTrendData, f: FunnelFilters) {
  const csv = toCsv(data.days, [
    { title: '日期', value: (d: DayRow) => d.day },
    ...data.steps.map((s, i) => ({ title: s.label, value: (d: DayRow) => d.counts[i] ?? 0 })),
  ]);
  downloadCsv(
    `转化趋势_${f.from}_${f.to}${f.channelCodes.length ? `_${f.channelCodes.join('+')}` : ''}`,
    csv,
  );
}

/** Daily trend of every step: line chart plus the day-by-day table (CSV). */
export function FunnelTrend({ filters }: { filters: FunnelFilters }) {
  const trend = useFunnelTrend(filters);
  const data = trend.data;
  const days = useMemo(() => data?.days.map((d) => d.day) ?? [], [data]);
  const series = useMemo(
    () =>
      data?.steps.map((s, i) => ({ name: s.label, values: data.days.map((d) => d.counts[i] ?? 0) })) ?? [],
    [data],
  );
  const columns = useMemo<TableColumnsType<DayRow>>(
    () => [
      { title: '日期', dataIndex: 'day', key: 'day', fixed: 'left', width: 110 },
      ...(data?.steps ?? []).map((s, i) => ({
        title: s.label,
        key: s.step,
        align: 'right' as const,
        render: (_: unknown, d: DayRow) => count(d.counts[i] ?? 0),
      })),
    ],
    [data],
  );

  if (trend.isError)
    return (
      <Alert
        type="error"
        showIcon
        message="趋势数据加载失败"
        description={trend.error.message}
        action={<Button onClick={() => trend.refetch()}>重试</Button>}
      />
    );
  const empty = data?.days.every((d) => d.counts.every((c) => c === 0));
  return (
    <Card
      title="每日趋势"
      size="small"
      loading={trend.isPending}
      style={{ marginTop: 16 }}
      extra={
        <Button size="small" disabled={!data} onClick={() => data && exportTrend(data, filters)}>
          导出 CSV
        </Button>
      }
    >
      {empty ? (
        <Empty description="所选范围内还没有数据" />
      ) : (
        <TrendChart days={days} series={series} selected={DEFAULT_SHOWN} ariaLabel="每日转化趋势图" />
      )}
      <Collapse
        ghost
        items={[
          {
            key: 'table',
            label: '按日明细',
            children: (
              <Table<DayRow>
                rowKey="day"
                size="small"
                columns={columns}
                dataSource={data ? [...data.days].reverse() : []}
                scroll={{ x: 'max-content' }}
                pagination={{ pageSize: 31, hideOnSinglePage: true }}
              />
            ),
          },
        ]}
      />
    </Card>
  );
}
