import { Button } from 'antd';
import { Link } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { CATALOGUE_PAGE_SIZES } from '@/components/table-pagination';
import { useCanEdit } from '@/features/auth/use-can-edit';
import type { OperatorFilters } from '@/features/operators/api/get-operators';
import { OperatorTable } from '@/features/operators/components/operator-table';
import { useUrlFilters } from '@/hooks/use-url-filters';
import { readPaging, readSort, readString } from '@/lib/url-filters';

const SORTS = ['id', 'code', 'companyName', 'updatedAt'] as const;

/** Filters live in the address, so a refreshed or shared link shows the same list. */
function readFilters(q: URLSearchParams): OperatorFilters {
  return {
    q: readString(q, 'q'),
    ...readSort(q, SORTS),
    ...readPaging(q, CATALOGUE_PAGE_SIZES),
  };
}

/** 运营主体: the licensed companies the channels name (ADR 057). */
export function OperatorsRoute() {
  const [filters, setFilters] = useUrlFilters(readFilters, { orderNeedsSort: true });
  const canEdit = useCanEdit();
  return (
    <>
      <PageHeader
        title="运营主体"
        extra={
          canEdit && (
            <Link to="/operators/new">
              <Button type="primary">新建运营主体</Button>
            </Link>
          )
        }
      >
        访客从哪个渠道进入，就与该渠道的运营主体签约：页脚、各协议、隐私政策和短信签名都取自同一条记录。未选择运营主体的渠道使用服务器配置的默认主体。
      </PageHeader>
      <OperatorTable filters={filters} onFiltersChange={setFilters} />
    </>
  );
}
