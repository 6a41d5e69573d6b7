import { RETURN_STATUSES } from '@lm/shared/ledger';
import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { useCanEdit } from '@/features/auth/use-can-edit';
import { usePartners } from '@/features/partners/api/get-partners';
import type { ReturnFilters } from '@/features/returns/api/get-returns';
import { ReturnsTable } from '@/features/returns/components/returns-table';
import { readInt, readOneOf, readPaging, toSearchParams } from '@/lib/url-filters';

/** The address's filters: the status defaults to 待审核 (disputed); `status=all` shows every one. */
function readFilters(q: URLSearchParams): ReturnFilters {
  const status =
    q.get('status') === 'all' ? undefined : (readOneOf(q, 'status', RETURN_STATUSES) ?? 'disputed');
  return { status, partnerId: readInt(q, 'partnerId'), ...readPaging(q) };
}

const writeFilters = (f: ReturnFilters) =>
  toSearchParams({ ...f, status: f.status === 'disputed' ? undefined : (f.status ?? 'all') });

/** 线索退回: lenders' returns of leads; staff accept or reject the disputed ones (issue 48.4). */
export function ReturnsRoute() {
  const [params, setParams] = useSearchParams();
  const canChange = useCanEdit();
  const filters = readFilters(params);
  const partners = usePartners({ page: 1, pageSize: 200 });
  const partnerOptions = (partners.data?.list ?? []).map((p) => ({ value: p.id, label: p.legalName }));
  return (
    <>
      <PageHeader title="线索退回">
        机构在推送后的退回期限内、按每月最高退回率，可以通过签名接口退回线索（重复、手机号无效、不在服务区域、疑似欺诈、其他）。
        原因为「其他」或机构已报告授信、放款的线索进入待审核，由管理员或运营接受（冲减该线索收入）或驳回；所有审核都会记录到操作日志。
      </PageHeader>
      <ReturnsTable
        filters={filters}
        onFiltersChange={(f) => setParams(writeFilters(f))}
        partnerOptions={partnerOptions}
        canChange={canChange}
      />
    </>
  );
}
