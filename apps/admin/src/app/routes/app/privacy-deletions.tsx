import type { NoticeKind, NoticeStatus } from '@lm/shared/schemas/privacy';
import { PageHeader } from '@/components/page-header';
import { useMe } from '@/features/auth/api/get-me';
import type { DeletionFilters } from '@/features/privacy/api/get-deletions';
import { DeletionTable } from '@/features/privacy/components/deletion-table';
import { useUrlFilters } from '@/hooks/use-url-filters';
import { readOneOf, readPaging } from '@/lib/url-filters';

const KINDS: readonly NoticeKind[] = ['deletion', 'withdrawal'];
const STATUSES: readonly NoticeStatus[] = ['pending', 'sent', 'confirmed', 'dead'];

/** Filters live in the address, so a refreshed or shared link shows the same list. */
function readFilters(q: URLSearchParams): DeletionFilters {
  const overdueParam = q.get('overdue');
  return {
    kind: readOneOf(q, 'kind', KINDS) ?? 'deletion',
    status: readOneOf(q, 'status', STATUSES),
    overdue: overdueParam === '1' ? true : overdueParam === '0' ? false : undefined,
    ...readPaging(q),
  };
}

/** 数据删除请求: deletions passed on to lenders after cancellations, tracked to their 15-working-day deadline. */
export function PrivacyDeletionsRoute() {
  const [filters, setFilters] = useUrlFilters(readFilters, { defaults: { kind: 'deletion' } });
  const me = useMe();
  return (
    <>
      <PageHeader title="数据删除请求">
        用户注销后，平台会通知每一家获得过其信息的机构删除数据，机构须在 15
        个工作日内完成并确认。逾期未确认的请求以红色标出；发送失败的通知可重新发送，已送达未确认的可再次提醒。
      </PageHeader>
      <DeletionTable
        filters={filters}
        onFiltersChange={setFilters}
        canRetry={me.data ? me.data.role !== 'viewer' : false}
      />
    </>
  );
}
