import { Button, Space, Typography } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { useMe } from '@/features/auth/api/get-me';
import type { PartnerFilters } from '@/features/partners/api/get-partners';
import { PartnerTable } from '@/features/partners/components/partner-table';

const SORTS = ['id', 'legalName', 'updatedAt', 'createdAt'] as const;
const PAGE_SIZES = [10, 20, 50, 100];

/** Filters live in the address, so a refreshed or shared link shows the same list. */
function readFilters(q: URLSearchParams): PartnerFilters {
  const status = q.get('status');
  const page = Number(q.get('page'));
  const pageSize = Number(q.get('pageSize'));
  const sort = SORTS.find((s) => s === q.get('sort'));
  return {
    q: q.get('q') || undefined,
    status: status === 'active' || status === 'suspended' ? status : undefined,
    sort,
    order: sort ? (q.get('order') === 'asc' ? 'asc' : 'desc') : undefined,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: PAGE_SIZES.includes(pageSize) ? pageSize : 20,
  };
}

function writeFilters(f: PartnerFilters): URLSearchParams {
  const q = new URLSearchParams();
  if (f.q) q.set('q', f.q);
  if (f.status) q.set('status', f.status);
  if (f.sort) {
    q.set('sort', f.sort);
    q.set('order', f.order ?? 'desc');
  }
  if (f.page > 1) q.set('page', String(f.page));
  if (f.pageSize !== 20) q.set('pageSize', String(f.pageSize));
  return q;
}

/** 合作机构: the lenders, their contact (masked), allowed hosts, status and signing secret state. */
export function PartnersRoute() {
  const [params, setParams] = useSearchParams();
  const me = useMe();
  const canEdit = me.data?.role === 'admin' || me.data?.role === 'operator';
  return (
    <>
      <Space style={{ width: '100%', justifyContent: 'space-between', alignItems: 'baseline' }}>
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          合作机构
        </Typography.Title>
        {canEdit && (
          <Link to="/partners/new">
            <Button type="primary">新建机构</Button>
          </Link>
        )}
      </Space>
      <Typography.Paragraph type="secondary">
        暂停合作的机构，其全部产品立即停止匹配。签名密钥只在创建和轮换时显示一次。
      </Typography.Paragraph>
      <PartnerTable filters={readFilters(params)} onFiltersChange={(f) => setParams(writeFilters(f))} />
    </>
  );
}
