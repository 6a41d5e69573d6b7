import { Button } from 'antd';
import { Link } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { useCanEdit } from '@/features/auth/use-can-edit';
import type { ChannelFilters } from '@/features/channels/api/get-channels';
import { ChannelTable } from '@/features/channels/components/channel-table';
import { DeadRouteCodes } from '@/features/channels/components/dead-route-codes';
import { useUrlFilters } from '@/hooks/use-url-filters';
import { readInt, readPaging, readSort, readString } from '@/lib/url-filters';

const SORTS = ['id', 'name', 'updatedAt', 'adChannelCode'] as const;

/** Filters live in the address, so a refreshed or shared link shows the same list. */
function readFilters(q: URLSearchParams): ChannelFilters {
  const status = q.get('status');
  return {
    q: readString(q, 'q'),
    status: status === '1' ? 1 : status === '0' ? 0 : undefined,
    linkType: readInt(q, 'linkType', 9),
    ...readSort(q, SORTS),
    ...readPaging(q),
  };
}

/** 渠道管理: every advertising channel, its skin (or A/B split), status and today's clicks. */
export function ChannelsRoute() {
  const [filters, setFilters] = useUrlFilters(readFilters, { orderNeedsSort: true });
  const canEdit = useCanEdit();
  return (
    <>
      <PageHeader
        title="渠道管理"
        extra={
          canEdit && (
            <Link to="/channels/new">
              <Button type="primary">新建渠道</Button>
            </Link>
          )
        }
      >
        渠道决定 H5
        的皮肤、主题色、申请流程和跳转规则。修改保存后立即生效；停用的渠道访客无法正常进入申请流程。
      </PageHeader>
      <ChannelTable filters={filters} onFiltersChange={setFilters} canEdit={canEdit} />
      <DeadRouteCodes />
    </>
  );
}
