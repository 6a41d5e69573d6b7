import { Button, Space } from 'antd';
import { Link } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { CATALOGUE_PAGE_SIZES } from '@/components/table-pagination';
import { useCanEdit } from '@/features/auth/use-can-edit';
import type { ProductFilters } from '@/features/products/api/get-products';
import { ProductTable } from '@/features/products/components/product-table';
import { useUrlFilters } from '@/hooks/use-url-filters';
import { readInt, readOneOf, readPaging, readSort, readString } from '@/lib/url-filters';

const SORTS = ['id', 'priority', 'aprBps', 'priceFen', 'updatedAt'] as const;
const STATUSES = ['draft', 'published', 'paused'] as const;

/** Filters live in the address, so a refreshed or shared link shows the same list. */
function readFilters(q: URLSearchParams): ProductFilters {
  return {
    q: readString(q, 'q'),
    partnerId: readInt(q, 'partnerId'),
    status: readOneOf(q, 'status', STATUSES),
    linkType: readInt(q, 'linkType', 9),
    ...readSort(q, SORTS),
    ...readPaging(q, CATALOGUE_PAGE_SIZES),
  };
}

/** 产品管理: every product with its live counters against its caps. */
export function ProductsRoute() {
  const [filters, setFilters] = useUrlFilters(readFilters, { orderNeedsSort: true });
  const canEdit = useCanEdit();
  return (
    <>
      <PageHeader
        title="产品管理"
        extra={
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
        }
      >
        今日线索按上海自然日统计，每分钟刷新。上架、下架和修改在下一次匹配时立即生效；综合年化利率超过 24%
        的产品不能上架。
      </PageHeader>
      <ProductTable filters={filters} onFiltersChange={setFilters} />
    </>
  );
}
