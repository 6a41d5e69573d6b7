import { PageHeader } from '@/components/page-header';
import type { AuditFilters } from '@/features/audit-log/api/get-audit-log';
import { AuditTable } from '@/features/audit-log/components/audit-table';
import { useUrlFilters } from '@/hooks/use-url-filters';
import { readDate, readInt, readPaging, readString } from '@/lib/url-filters';

function readFilters(q: URLSearchParams): AuditFilters {
  return {
    entity: readString(q, 'entity'),
    entityId: readString(q, 'entityId'),
    staffId: readInt(q, 'staffId'),
    action: readString(q, 'action'),
    from: readDate(q, 'from'),
    to: readDate(q, 'to'),
    order: q.get('order') === 'asc' ? 'asc' : undefined,
    ...readPaging(q),
  };
}

/** 操作日志: every console change and every reveal of personal data — who, what, before/after, why, when. */
export function AuditLogRoute() {
  const [filters, setFilters] = useUrlFilters(readFilters);
  return (
    <>
      <PageHeader title="操作日志">
        后台的每一次修改和每一次查看个人信息明文都会记录在这里（不记录明文本身）。点击行首的展开按钮查看修改前后对比。
      </PageHeader>
      <AuditTable filters={filters} onFiltersChange={setFilters} />
    </>
  );
}
