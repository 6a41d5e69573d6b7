import type { EChartsCoreOption } from 'echarts/core';
import { useMemo } from 'react';
import { EChart } from '@/components/echart/echart';

export interface TrendSeries {
  name: string;
  values: number[];
}

interface TrendChartProps {
  days: string[];
  series: TrendSeries[];
  height?: number;
  /** Series shown at first (others can be switched on in the legend); default all. */
  selected?: string[];
  ariaLabel: string;
}

/** A line chart of daily counts, one line per series. */
export function TrendChart({ days, series, height = 320, selected, ariaLabel }: TrendChartProps) {
  const option = useMemo<EChartsCoreOption>(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: {
        type: 'scroll',
        top: 0,
        ...(selected
          ? { selected: Object.fromEntries(series.map((s) => [s.name, selected.includes(s.name)])) }
          : {}),
      },
      grid: { left: 48, right: 24, top: 40, bottom: 32 },
      xAxis: { type: 'category', boundaryGap: false, data: days.map((d) => d.slice(5)) },
      yAxis: { type: 'value', minInterval: 1 },
      series: series.map((s) => ({
        name: s.name,
        type: 'line',
        smooth: true,
        showSymbol: days.length <= 31,
        data: s.values,
      })),
    }),
    [days, series, selected],
  );
  return <EChart option={option} height={height} ariaLabel={ariaLabel} />;
}
