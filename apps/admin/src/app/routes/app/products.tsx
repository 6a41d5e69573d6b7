import { Button, Space, Typography } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { useMe } from '@/features/auth/api/get-me';
import type { ProductFilters } from '@/features/products/api/get-products';
import { ProductTable } from '@/features/products/components/product-table';

const SORTS = ['id', 'priority', 'aprBps', 'priceFen', 'updatedAt'] as const;
const STATUSES = ['draft', 'published', 'paused'] as const;
const PAGE_SIZES = [10, 20, 50, 100];

/** Filters live in the address, so a refreshed or shared link shows the same list. */
function readFilters(q: URLSearchParams): ProductFilters {
  const partnerId = Number(q.get('partnerId'));
  const linkType = Number(q.get('linkType'));
  const page = Number(q.get('page'));
  const pageSize = Number(q.get('pageSize'));
  const sort = SORTS.find((s) => s === q.get('sort'));
  return {
    q: q.get('q') || undefined,
    partnerId: Number.isInteger(partnerId) && partnerId > 0 ? partnerId : undefined,
    status: STATUSES.find((s) => s === q.get('status')),
    linkType: Number.isInteger(linkType) && linkType >= 1 && linkType <= 9 ? linkType : undefined,
    sort,
    order: sort ? (q.get('order') === 'asc' ? 'asc' : 'desc') : undefined,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: PAGE_SIZES.includes(pageSize) ? pageSize : 20,
  };
}

function writeFilters(f: ProductFilters): URLSearchParams {
  const q = new URLSearchParams();
  if (f.q) q.set('q', f.q);
  if (f.partnerId) q.set('partnerId', String(f.partnerId));
  if (f.status) q.set('status', f.status);
  if (f.linkType) q.set('linkType', String(f.linkType));
  if (f.sort) {
    q.set('sort', f.sort);
    q.set('order', f.order ?? 'desc');
  }
  if (f.page > 1) q.set('page', String(f.page));
  if (f.pageSize !== 20) q.set('pageSize', String(f.pageSize));
  return q;
}

/** 产品管理: every product with its live counters against its caps. */
export function ProductsRoute() {
  const [params, setParams] = useSearchParams();
  const me = useMe();
  const canEdit = me.data?.role === 'admin' || me.data?.role === 'operator';
  return (
    <>
      <Space style={{ width: '100%', justifyContent: 'space-between', alignItems: 'baseline' }}>
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          产品管理
        </Typography.Title>
        <Space>
          <Link to="/rule-tester">
            <Button>规则测试</Button>
          </Link>
          {canEdit && (
            <Link to="/products/new">
              <Button type="primary">新建产品</Button>
            </Link>
          )}
        </Space>
      </Space>
      <Typography.Paragraph type="secondary">
        今日线索按上海自然日统计，每分钟刷新。上架、下架和修改在下一次匹配时立即生效；综合年化利率超过 24%
        的产品不能上架。
      </Typography.Paragraph>
      <ProductTable filters={readFilters(params)} onFiltersChange={(f) => setParams(writeFilters(f))} />
    </>
  );
}
