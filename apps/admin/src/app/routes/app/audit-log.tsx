import { Typography } from 'antd';
import { useSearchParams } from 'react-router';
import type { AuditFilters } from '@/features/audit-log/api/get-audit-log';
import { AuditTable } from '@/features/audit-log/components/audit-table';

const PAGE_SIZES = [20, 50, 100];
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function readFilters(q: URLSearchParams): AuditFilters {
  const staffId = Number(q.get('staffId'));
  const page = Number(q.get('page'));
  const pageSize = Number(q.get('pageSize'));
  const from = q.get('from');
  const to = q.get('to');
  return {
    entity: q.get('entity') || undefined,
    entityId: q.get('entityId') || undefined,
    staffId: Number.isInteger(staffId) && staffId > 0 ? staffId : undefined,
    action: q.get('action') || undefined,
    from: from && DATE.test(from) ? from : undefined,
    to: to && DATE.test(to) ? to : undefined,
    order: q.get('order') === 'asc' ? 'asc' : undefined,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: PAGE_SIZES.includes(pageSize) ? pageSize : 20,
  };
}

function writeFilters(f: AuditFilters): URLSearchParams {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) {
    if (v === undefined || v === '') continue;
    if (k === 'page' && v === 1) continue;
    if (k === 'pageSize' && v === 20) continue;
    q.set(k, String(v));
  }
  return q;
}

/** 操作日志: every console change and every reveal of personal data — who, what, before/after, why, when. */
export function AuditLogRoute() {
  const [params, setParams] = useSearchParams();
  return (
    <>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        操作日志
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        后台的每一次修改和每一次查看个人信息明文都会记录在这里（不记录明文本身）。点击行首的展开按钮查看修改前后对比。
      </Typography.Paragraph>
      <AuditTable filters={readFilters(params)} onFiltersChange={(f) => setParams(writeFilters(f))} />
    </>
  );
}
