import { RUM_METRICS, type RumMetric } from '@lm/shared/schemas/rum';
import { addDays, shanghaiDay } from '@lm/shared/time';
import { Alert, Empty, Spin } from 'antd';
import { useState } from 'react';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { useWebVitals, type WebVitalsFilters } from '@/features/web-vitals/api/get-web-vitals';
import { VitalsFiltersBar } from '@/features/web-vitals/components/vitals-filters';
import { VitalsTable } from '@/features/web-vitals/components/vitals-table';

const initialFilters = (): WebVitalsFilters => ({
  from: addDays(shanghaiDay(), -6),
  to: shanghaiDay(),
  groupBy: 'route',
});

/** Issue 8: real-user monitoring — Core Web Vitals p75 per route, channel or skin, and chunk-load failures. */
export function WebVitalsRoute() {
  const [filters, setFilters] = useState<WebVitalsFilters>(initialFilters);
  const query = useWebVitals(filters);
  const data = query.data;
  const metrics: readonly RumMetric[] = filters.metric ? [filters.metric] : RUM_METRICS;
  const fileName = (metric: RumMetric) => () =>
    `性能监控_${metric}_按${filters.groupBy}_${filters.from}_${filters.to}.csv`;
  return (
    <>
      <PageHeader title="性能监控">
        真实用户在手机上测得的 Core Web Vitals（环境 prod，版本 1.0.3），按 P75 与阈值评级：LCP ≤ 2.5 s、INP ≤
        200 ms、CLS ≤ 0.1、TTFB ≤ 800 ms 为良好。日期为上海时间。
      </PageHeader>
      <VitalsFiltersBar
        value={filters}
        today={shanghaiDay()}
        onChange={setFilters}
        onReset={() => setFilters(initialFilters())}
      />
      {query.isError ? (
        <QueryError message="性能数据加载失败" error={query.error} onRetry={() => void query.refetch()} />
      ) : !data ? (
        <Spin style={{ display: 'block', margin: '48px auto' }} />
      ) : data.rows.length === 0 ? (
        <Empty description="所选条件下暂无性能数据（H5 页面被访问后才会上报）" />
      ) : (
        <>
          {data.rows.length >= 1000 ? (
            <Alert
              type="info"
              showIcon
              style={{ marginBottom: 16 }}
              message="分组较多，只显示样本最多的 1000 组，请缩小筛选范围"
            />
          ) : null}
          {metrics.map((metric) => (
            <VitalsTable
              key={metric}
              metric={metric}
              groupBy={data.groupBy}
              rows={data.rows.filter((r) => r.metric === metric)}
              threshold={data.thresholds[metric]}
              loading={query.isFetching}
              fileName={fileName(metric)}
            />
          ))}
        </>
      )}
    </>
  );
}
