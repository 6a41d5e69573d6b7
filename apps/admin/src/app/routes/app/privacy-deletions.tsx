import type { NoticeKind, NoticeStatus } from '@lm/shared/schemas/privacy';
import { Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { useMe } from '@/features/auth/api/get-me';
import type { DeletionFilters } from '@/features/privacy/api/get-deletions';
import { DeletionTable } from '@/features/privacy/components/deletion-table';

const KINDS: readonly NoticeKind[] = ['deletion', 'withdrawal'];
const STATUSES: readonly NoticeStatus[] = ['pending', 'sent', 'confirmed', 'dead'];
const PAGE_SIZES = [20, 50, 100];

/** Filters live in the address, so a refreshed or shared link shows the same list. */
function readFilters(q: URLSearchParams): DeletionFilters {
  const kind = KINDS.find((k) => k === q.get('kind')) ?? 'deletion';
  const status = STATUSES.find((s) => s === q.get('status'));
  const overdueParam = q.get('overdue');
  const page = Number(q.get('page'));
  const pageSize = Number(q.get('pageSize'));
  return {
    kind,
    status,
    overdue: overdueParam === '1' ? true : overdueParam === '0' ? false : undefined,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: PAGE_SIZES.includes(pageSize) ? pageSize : 20,
  };
}

function writeFilters(f: DeletionFilters): URLSearchParams {
  const q = new URLSearchParams();
  if (f.kind !== 'deletion') q.set('kind', f.kind);
  if (f.status) q.set('status', f.status);
  if (f.overdue !== undefined) q.set('overdue', f.overdue ? '1' : '0');
  if (f.page > 1) q.set('page', String(f.page));
  if (f.pageSize !== 20) q.set('pageSize', String(f.pageSize));
  return q;
}

/** 数据删除请求: deletions passed on to lenders after cancellations, tracked to their 15-working-day deadline. */
export function PrivacyDeletionsRoute() {
  const [params, setParams] = useSearchParams();
  const me = useMe();
  const filters = readFilters(params);
  return (
    <>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        数据删除请求
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        用户注销后，平台会通知每一家获得过其信息的机构删除数据，机构须在 15
        个工作日内完成并确认。逾期未确认的请求以红色标出；发送失败的通知可重新发送，已送达未确认的可再次提醒。
      </Typography.Paragraph>
      <DeletionTable
        filters={filters}
        onFiltersChange={(next) => setParams(writeFilters(next))}
        canRetry={me.data ? me.data.role !== 'viewer' : false}
      />
    </>
  );
}
