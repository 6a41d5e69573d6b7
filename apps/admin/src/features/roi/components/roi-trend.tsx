import type { RoiRow } from '@lm/shared/schemas/roi';
import { addDays } from '@lm/shared/time';
import { Alert, Card, Empty } from 'antd';
import type { EChartsCoreOption } from 'echarts/core';
import { useMemo } from 'react';
import { EChart } from '@/components/echart/echart';
import { QueryError } from '@/components/query-error';
import { useRoi } from '../api/get-roi';
import { yuan, yuanAxis } from './format';

function eachDay(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

/** Revenue, cost and margin per Shanghai day (groupBy=day): days without money are zeros. */
export function RoiTrend({ from, to }: { from: string; to: string }) {
  const q = useRoi({ from, to, groupBy: 'day' });
  const data = q.data;
  const option = useMemo<EChartsCoreOption | null>(() => {
    if (!data?.amountsShown) return null;
    const days = eachDay(data.from, data.to);
    const byDay = new Map(data.rows.map((r) => [r.key, r]));
    const line = (name: string, pick: (r: RoiRow) => number | undefined) => ({
      name,
      type: 'line',
      smooth: true,
      showSymbol: days.length <= 31,
      data: days.map((d) => {
        const r = byDay.get(d);
        return r ? (pick(r) ?? 0) : 0;
      }),
    });
    return {
      tooltip: {
        trigger: 'axis',
        valueFormatter: (v: number) => `${yuan(v)} 元`,
      },
      legend: { top: 0 },
      grid: { left: 72, right: 24, top: 40, bottom: 32 },
      xAxis: { type: 'category', boundaryGap: false, data: days.map((d) => d.slice(5)) },
      yAxis: { type: 'value', axisLabel: { formatter: (v: number) => yuanAxis(v) } },
      series: [
        line('收入', (r) => r.revenueFen),
        line('成本', (r) => r.costFen),
        line('毛利', (r) => r.marginFen),
      ],
    };
  }, [data]);

  return (
    <Card size="small" title="收益趋势（元，按事件发生日）" style={{ marginBottom: 16 }}>
      {q.isError ? (
        <QueryError message="收益数据加载失败" error={q.error} onRetry={() => q.refetch()} />
      ) : data && !data.amountsShown ? (
        <Alert type="info" showIcon message="查看者账号不显示金额" />
      ) : data?.rows.every((r) => !r.revenueFen && !r.costFen && !r.returnedFen) ? (
        <Empty description="所选日期内没有收入或成本" />
      ) : (
        option && <EChart option={option} height={300} ariaLabel="收益趋势：收入、成本、毛利" />
      )}
    </Card>
  );
}
