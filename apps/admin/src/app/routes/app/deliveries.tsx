import { Space, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { useMe } from '@/features/auth/api/get-me';
import type { DeadLetterFilters } from '@/features/deliveries/api/get-dead-letters';
import { DeadLetterTable } from '@/features/deliveries/components/dead-letter-table';
import { LeadActions } from '@/features/deliveries/components/lead-actions';
import { SummaryTable } from '@/features/deliveries/components/summary-table';
import { LeadDrawer } from '@/features/leads/components/lead-drawer';

const PAGE_SIZES = [20, 50, 100];

function readFilters(q: URLSearchParams): DeadLetterFilters {
  const partnerId = Number(q.get('partnerId'));
  const page = Number(q.get('page'));
  const pageSize = Number(q.get('pageSize'));
  return {
    partnerId: Number.isInteger(partnerId) && partnerId > 0 ? partnerId : undefined,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: PAGE_SIZES.includes(pageSize) ? pageSize : 20,
  };
}

function writeFilters(f: DeadLetterFilters, lead?: number | null): URLSearchParams {
  const q = new URLSearchParams();
  if (f.partnerId) q.set('partnerId', String(f.partnerId));
  if (f.page > 1) q.set('page', String(f.page));
  if (f.pageSize !== 20) q.set('pageSize', String(f.pageSize));
  if (lead) q.set('lead', String(lead));
  return q;
}

/** 线索发送: queue state per partner, dead letters with retry / discard, bulk retry per partner. */
export function DeliveriesRoute() {
  const [params, setParams] = useSearchParams();
  const me = useMe();
  const canChange = me.data ? me.data.role === 'admin' || me.data.role === 'operator' : false;
  const filters = readFilters(params);
  const leadId = Number(params.get('lead')) || null;
  return (
    <>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        线索发送
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        线索按机构排队发送，失败会按退避策略自动重试；多次失败后进入死信。确认机构恢复后可重新发送，确定不再发送的可放弃（需填写原因）。所有操作都会记录到操作日志。
      </Typography.Paragraph>
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
