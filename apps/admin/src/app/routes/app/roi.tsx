import { ROI_GROUPS, ROI_MAX_DAYS, type RoiGroupBy } from '@lm/shared/schemas/roi';
import { addDays, shanghaiDay } from '@lm/shared/time';
import { Spin } from 'antd';
import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { type RoiFilters, useRoi } from '@/features/roi/api/get-roi';
import { ChannelMargins } from '@/features/roi/components/channel-margins';
import { RoiFiltersBar } from '@/features/roi/components/roi-filters';
import { RoiTable } from '@/features/roi/components/roi-table';
import { RoiTrend } from '@/features/roi/components/roi-trend';
import { SkinArms } from '@/features/roi/components/skin-arms';
import { RoiTotalsCards } from '@/features/roi/components/totals';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Days shown when the address names none: the last 30 (Shanghai). */
const DEFAULT_DAYS = 30;

function readFilters(q: URLSearchParams): RoiFilters {
  const today = shanghaiDay();
  let to = q.get('to') ?? '';
  let from = q.get('from') ?? '';
  if (!DATE.test(to) || to > today) to = today;
  if (!DATE.test(from) || from > to || from < addDays(to, -(ROI_MAX_DAYS - 1)))
    from = addDays(to, -(DEFAULT_DAYS - 1));
  const g = q.get('groupBy') as RoiGroupBy;
  return { from, to, groupBy: ROI_GROUPS.includes(g) ? g : 'channel' };
}

/** 投放收益 (issue 48.6): cost, revenue, margin and ROI per channel, day or skin, with trend and A/B charts. */
export function RoiRoute() {
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const q = useRoi(filters);
  const set = (f: RoiFilters) =>
    setParams(new URLSearchParams({ from: f.from, to: f.to, groupBy: f.groupBy }), { replace: true });

  return (
    <>
      <PageHeader title="投放收益">
        所选日期（上海时间自然日）内各渠道的花费与收益：收入、退回、成本取自账本，按事件发生日统计（不按入账月份）；成本含渠道费用与渠道调整；毛利
        = 收入 − 退回冲减 − 成本，ROI = 毛利 ÷ 成本，线索成本 = 成本 ÷
        线索数。点击、注册、线索、授信、放款为当天发生的数量。
      </PageHeader>
      <RoiFiltersBar value={filters} onChange={set} />
      {q.isError ? (
        <QueryError
          message="投放收益加载失败"
          error={q.error}
          onRetry={() => q.refetch()}
          style={{ marginBottom: 16 }}
        />
      ) : !q.data ? (
        <Spin style={{ display: 'block', margin: '48px auto' }} />
      ) : (
        <>
          <RoiTotalsCards totals={q.data.totals} amountsShown={q.data.amountsShown} />
          <RoiTable data={q.data} loading={q.isFetching} />
        </>
      )}
      <RoiTrend from={filters.from} to={filters.to} />
      <ChannelMargins from={filters.from} to={filters.to} />
      <SkinArms from={filters.from} to={filters.to} />
    </>
  );
}
