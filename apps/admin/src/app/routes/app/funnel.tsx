import { FUNNEL_MAX_DAYS } from '@lm/shared/schemas/funnel';
import { addDays, shanghaiDay } from '@lm/shared/time';
import { Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { useMe } from '@/features/auth/api/get-me';
import { useFunnelChannels } from '@/features/funnel/api/get-funnel-channels';
import type { FunnelFilters } from '@/features/funnel/api/types';
import { ArmsPanel } from '@/features/funnel/components/arms-panel';
import { ChannelTable } from '@/features/funnel/components/channel-table';
import { FunnelFiltersBar } from '@/features/funnel/components/funnel-filters';
import { FunnelOverview } from '@/features/funnel/components/funnel-overview';
import { FunnelTrend } from '@/features/funnel/components/funnel-trend';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TABS = ['overview', 'channels', 'ab'] as const;
type Tab = (typeof TABS)[number];

function readFilters(q: URLSearchParams): FunnelFilters {
  const today = shanghaiDay();
  let to = q.get('to') ?? '';
  let from = q.get('from') ?? '';
  if (!DATE.test(to) || to > today) to = today;
  if (!DATE.test(from) || from > to || from < addDays(to, -(FUNNEL_MAX_DAYS - 1))) from = addDays(to, -6);
  const skin = Number(q.get('skin'));
  return {
    from,
    to,
    channelCodes: (q.get('channels') ?? '').split(',').filter(Boolean),
    skin: q.get('skin') && Number.isInteger(skin) ? skin : undefined,
  };
}

function writeFilters(f: FunnelFilters, tab: Tab): URLSearchParams {
  const q = new URLSearchParams({ from: f.from, to: f.to });
  if (f.channelCodes.length) q.set('channels', f.channelCodes.join(','));
  if (f.skin !== undefined) q.set('skin', String(f.skin));
  if (tab !== 'overview') q.set('tab', tab);
  return q;
}

/** 转化漏斗: spec §1 steps per channel and day, trend, per-channel table, A/B arms. */
export function FunnelRoute() {
  const [params, setParams] = useSearchParams();
  const me = useMe();
  const channels = useFunnelChannels();
  const filters = readFilters(params);
  const tabParam = params.get('tab');
  const tab: Tab = TABS.includes(tabParam as Tab) ? (tabParam as Tab) : 'overview';
  const partner = me.data?.role === 'channel_partner';
  const set = (f: FunnelFilters, t: Tab = tab) => setParams(writeFilters(f, t), { replace: true });

  return (
    <>
      <PageHeader title="转化漏斗">
        从渠道点击到授权，再到机构回传的授信、放款，依次经过的每一步（按上海时间自然日统计；授信、放款计入授权当天），各步转化率与流失；访问结果页、下载App、挽留弹窗、二次授权（挽留弹窗后再次打开授权页）和二次匹配授权（部分渠道授权后的「更多可申请机构」页）不是每个人都会依次经过，单列在漏斗旁。可按渠道、皮肤筛选，所有表格均可导出
        CSV。
      </PageHeader>
      <FunnelFiltersBar
        value={filters}
        onChange={(f) => set(f)}
        channels={channels.data ?? []}
        channelsLoading={channels.isPending}
        partner={partner}
      />
      <Tabs
        activeKey={tab}
        onChange={(key) => set(filters, key as Tab)}
        destroyOnHidden
        items={[
          {
            key: 'overview',
            label: '漏斗与趋势',
            children: (
              <>
                <FunnelOverview filters={filters} />
                <FunnelTrend filters={filters} />
              </>
            ),
          },
          { key: 'channels', label: '渠道对比', children: <ChannelTable filters={filters} /> },
          {
            key: 'ab',
            label: 'A/B 测试',
            children: <ArmsPanel filters={filters} channels={channels.data ?? []} />,
          },
        ]}
      />
    </>
  );
}
