import { Alert, Spin } from 'antd';
import type { EChartsCoreOption } from 'echarts/core';
import { useEffect, useRef, useState } from 'react';

type Loaded = typeof import('./echarts-setup');
let loading: Promise<Loaded> | null = null;
/** ECharts arrives with the first chart shown, once. */
function loadEcharts(): Promise<Loaded> {
  loading ??= import('./echarts-setup').catch((err) => {
    loading = null;
    throw err;
  });
  return loading;
}

/**
 * A browser driven by automation (Playwright's screenshots, `navigator.webdriver`) draws charts without
 * animation, so a screenshot shows the finished chart.
 */
const STILL = typeof navigator !== 'undefined' && navigator.webdriver === true;

interface EChartProps {
  option: EChartsCoreOption;
  height: number;
  /** Read by screen readers and tests: what the chart shows. */
  ariaLabel: string;
}

/** One ECharts canvas: loads ECharts lazily, follows the container's width, disposes on unmount. */
export function EChart({ option, height, ariaLabel }: EChartProps) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<ReturnType<Loaded['echarts']['init']> | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');

  useEffect(() => {
    let disposed = false;
    let observer: ResizeObserver | undefined;
    loadEcharts()
      .then(({ echarts }) => {
        if (disposed || !ref.current) return;
        chart.current = echarts.init(ref.current, undefined, { renderer: 'canvas' });
        observer = new ResizeObserver(() => chart.current?.resize());
        observer.observe(ref.current);
        setState('ready');
      })
      .catch(() => !disposed && setState('error'));
    return () => {
      disposed = true;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    if (state === 'ready')
      chart.current?.setOption(STILL ? { ...option, animation: false } : option, { notMerge: true });
  }, [option, state]);

  if (state === 'error') return <Alert type="error" showIcon message="图表组件加载失败，请刷新页面重试" />;
  return (
    <Spin spinning={state === 'loading'}>
      <div ref={ref} role="img" aria-label={ariaLabel} style={{ width: '100%', height }} />
    </Spin>
  );
}
