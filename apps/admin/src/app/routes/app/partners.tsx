import { Button } from 'antd';
import { Link } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { CATALOGUE_PAGE_SIZES } from '@/components/table-pagination';
import { useCanEdit } from '@/features/auth/use-can-edit';
import type { PartnerFilters } from '@/features/partners/api/get-partners';
import { PartnerTable } from '@/features/partners/components/partner-table';
import { useUrlFilters } from '@/hooks/use-url-filters';
import { readOneOf, readPaging, readSort, readString } from '@/lib/url-filters';

const SORTS = ['id', 'legalName', 'updatedAt', 'createdAt'] as const;
const STATUSES = ['active', 'suspended'] as const;

/** Filters live in the address, so a refreshed or shared link shows the same list. */
function readFilters(q: URLSearchParams): PartnerFilters {
  return {
    q: readString(q, 'q'),
    status: readOneOf(q, 'status', STATUSES),
    ...readSort(q, SORTS),
    ...readPaging(q, CATALOGUE_PAGE_SIZES),
  };
}

/** 合作机构: the lenders, their contact (masked), allowed hosts, status and signing secret state. */
export function PartnersRoute() {
  const [filters, setFilters] = useUrlFilters(readFilters, { orderNeedsSort: true });
  const canEdit = useCanEdit();
  return (
    <>
      <PageHeader
        title="合作机构"
        extra={
          canEdit && (
            <Link to="/partners/new">
              <Button type="primary">新建机构</Button>
            </Link>
          )
        }
      >
        暂停合作的机构，其全部产品立即停止匹配。签名密钥只在创建和轮换时显示一次。
      </PageHeader>
      <PartnerTable filters={filters} onFiltersChange={setFilters} />
    </>
  );
}
