import { Space } from 'antd';
import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { useCanEdit } from '@/features/auth/use-can-edit';
import type { DeadLetterFilters } from '@/features/deliveries/api/get-dead-letters';
import { DeadLetterTable } from '@/features/deliveries/components/dead-letter-table';
import { LeadActions } from '@/features/deliveries/components/lead-actions';
import { SummaryTable } from '@/features/deliveries/components/summary-table';
import { LeadDrawer } from '@/features/leads/components/lead-drawer';
import { readInt, readPaging, toSearchParams } from '@/lib/url-filters';

function readFilters(q: URLSearchParams): DeadLetterFilters {
  return { partnerId: readInt(q, 'partnerId'), ...readPaging(q) };
}

/** Filters (and the open lead) → address, defaults left out. */
const writeFilters = (f: DeadLetterFilters, lead?: number | null) => toSearchParams({ ...f, lead });

/** 线索发送: queue state per partner, dead letters with retry / discard, bulk retry per partner. */
export function DeliveriesRoute() {
  const [params, setParams] = useSearchParams();
  const canChange = useCanEdit();
  const filters = readFilters(params);
  const leadId = Number(params.get('lead')) || null;
  return (
    <>
      <PageHeader title="线索发送">
        线索按机构排队发送，失败会按退避策略自动重试；多次失败后进入死信。确认机构恢复后可重新发送，确定不再发送的可放弃（需填写原因）。所有操作都会记录到操作日志。
      </PageHeader>
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <SummaryTable
          canChange={canChange}
          onShowDead={(partnerId) => setParams(writeFilters({ ...filters, partnerId, page: 1 }))}
        />
        <DeadLetterTable
          filters={filters}
          onFiltersChange={(f) => setParams(writeFilters(f))}
          canChange={canChange}
          onOpen={(id) => setParams(writeFilters(filters, id))}
        />
      </Space>
      <LeadDrawer
        leadId={leadId}
        onClose={() => setParams(writeFilters(filters))}
        actions={(lead) => (
          <div style={{ marginBottom: 16 }}>
            <LeadActions lead={lead} canChange={canChange} size="middle" />
          </div>
        )}
      />
    </>
  );
}
