import { Alert, Card, Empty } from 'antd';
import type { EChartsCoreOption } from 'echarts/core';
import { useMemo } from 'react';
import { EChart } from '@/components/echart/echart';
import { QueryError } from '@/components/query-error';
import { useRoi } from '../api/get-roi';
import { roiPercent, topAndBottom, yuan, yuanAxis } from './format';

const SHOWN = 5;

/** The channels with the largest and the smallest margins of the period (groupBy=channel), as bars. */
export function ChannelMargins({ from, to }: { from: string; to: string }) {
  const q = useRoi({ from, to, groupBy: 'channel' });
  const data = q.data;
  const picked = useMemo(() => {
    if (!data?.amountsShown) return [];
    const { top, bottom } = topAndBottom(data.rows, SHOWN);
    // Bottom of the chart = the worst; ECharts draws the first category at the bottom.
    return [...bottom, ...[...top].reverse()];
  }, [data]);
  const option = useMemo<EChartsCoreOption>(
    () => ({
      tooltip: {
        trigger: 'axis',
        axisPointer: { type: 'shadow' },
        formatter: (params: { dataIndex: number }[]) => {
          const r = picked[params[0]?.dataIndex ?? 0];
          return r
            ? `${r.label ?? r.key}<br/>毛利 ${yuan(r.marginFen)} 元<br/>收入 ${yuan(r.revenueFen)} 元<br/>成本 ${yuan(r.costFen)} 元<br/>ROI ${roiPercent(r.roiBps)}`
            : '';
        },
      },
      grid: { left: 140, right: 32, top: 16, bottom: 32 },
      xAxis: { type: 'value', axisLabel: { formatter: (v: number) => yuanAxis(v) } },
      yAxis: {
        type: 'category',
        data: picked.map((r) => (r.key ? (r.label ?? r.key) : (r.label ?? '（无渠道）'))),
        axisLabel: { width: 120, overflow: 'truncate' },
      },
      series: [
        {
          name: '毛利',
          type: 'bar',
          barMaxWidth: 24,
          data: picked.map((r) => ({
            value: r.marginFen ?? 0,
            itemStyle: { color: (r.marginFen ?? 0) < 0 ? '#cf1322' : '#389e0d' },
          })),
        },
      ],
    }),
    [picked],
  );

  return (
    <Card size="small" title={`毛利最高与最低的渠道（各最多 ${SHOWN} 个，元）`} style={{ marginBottom: 16 }}>
      {q.isError ? (
        <QueryError message="收益数据加载失败" error={q.error} onRetry={() => q.refetch()} />
      ) : data && !data.amountsShown ? (
        <Alert type="info" showIcon message="查看者账号不显示金额" />
      ) : data && picked.length === 0 ? (
        <Empty description="所选日期内没有渠道数据" />
      ) : (
        data && (
          <EChart
            option={option}
            height={Math.max(160, picked.length * 36 + 48)}
            ariaLabel="毛利最高与最低的渠道"
          />
        )
      )}
    </Card>
  );
}
