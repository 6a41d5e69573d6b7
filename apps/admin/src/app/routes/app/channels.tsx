import { Button, Space, Typography } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { useMe } from '@/features/auth/api/get-me';
import type { ChannelFilters } from '@/features/channels/api/get-channels';
import { ChannelTable } from '@/features/channels/components/channel-table';

const SORTS = ['id', 'name', 'updatedAt', 'adChannelCode'] as const;
const PAGE_SIZES = [20, 50, 100];

/** Filters live in the address, so a refreshed or shared link shows the same list. */
function readFilters(q: URLSearchParams): ChannelFilters {
  const status = q.get('status');
  const linkType = Number(q.get('linkType'));
  const page = Number(q.get('page'));
  const pageSize = Number(q.get('pageSize'));
  const sort = SORTS.find((s) => s === q.get('sort'));
  return {
    q: q.get('q') || undefined,
    status: status === '1' ? 1 : status === '0' ? 0 : undefined,
    linkType: Number.isInteger(linkType) && linkType >= 1 && linkType <= 9 ? linkType : undefined,
    sort,
    order: sort ? (q.get('order') === 'asc' ? 'asc' : 'desc') : undefined,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: PAGE_SIZES.includes(pageSize) ? pageSize : 20,
  };
}

function writeFilters(f: ChannelFilters): URLSearchParams {
  const q = new URLSearchParams();
  if (f.q) q.set('q', f.q);
  if (f.status !== undefined) q.set('status', String(f.status));
  if (f.linkType) q.set('linkType', String(f.linkType));
  if (f.sort) {
    q.set('sort', f.sort);
    q.set('order', f.order ?? 'desc');
  }
  if (f.page > 1) q.set('page', String(f.page));
  if (f.pageSize !== 20) q.set('pageSize', String(f.pageSize));
  return q;
}

/** 渠道管理: every advertising channel, its skin (or A/B split), status and today's clicks. */
export function ChannelsRoute() {
  const [params, setParams] = useSearchParams();
  const me = useMe();
  const canEdit = me.data?.role === 'admin' || me.data?.role === 'operator';
  return (
    <>
      <Space style={{ width: '100%', justifyContent: 'space-between', alignItems: 'baseline' }}>
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          渠道管理
        </Typography.Title>
        {canEdit && (
          <Link to="/channels/new">
            <Button type="primary">新建渠道</Button>
          </Link>
        )}
      </Space>
      <Typography.Paragraph type="secondary">
        渠道决定 H5
        的皮肤、主题色、申请流程和跳转规则。修改保存后立即生效；停用的渠道访客无法正常进入申请流程。
      </Typography.Paragraph>
      <ChannelTable
        filters={readFilters(params)}
        onFiltersChange={(f) => setParams(writeFilters(f))}
        canEdit={canEdit}
      />
    </>
  );
}
