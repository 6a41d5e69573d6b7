import type { AdminLeadStatus } from '@lm/shared/schemas/admin-leads';
import { Tabs, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { useMe } from '@/features/auth/api/get-me';
import { LeadActions } from '@/features/deliveries/components/lead-actions';
import type { LeadFilters } from '@/features/leads/api/get-leads';
import type { UserFilters } from '@/features/leads/api/get-users';
import { LeadDrawer } from '@/features/leads/components/lead-drawer';
import { LeadTable } from '@/features/leads/components/lead-table';
import { UserTable } from '@/features/leads/components/user-table';

const PAGE_SIZES = [20, 50, 100];
const LEAD_STATUSES: readonly AdminLeadStatus[] = [
  'pending',
  'delivered',
  'dead',
  'redirect',
  'awaiting_callback',
  'withdrawn',
  'discarded',
];
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const str = (q: URLSearchParams, k: string) => q.get(k) || undefined;
const int = (q: URLSearchParams, k: string) => {
  const n = Number(q.get(k));
  return Number.isInteger(n) && n > 0 ? n : undefined;
};
const date = (q: URLSearchParams, k: string) => {
  const v = q.get(k);
  return v && DATE.test(v) ? v : undefined;
};
const paging = (q: URLSearchParams) => ({
  page: int(q, 'page') ?? 1,
  pageSize: PAGE_SIZES.includes(Number(q.get('pageSize'))) ? Number(q.get('pageSize')) : 20,
});
const order = (q: URLSearchParams) => (q.get('order') === 'asc' ? ('asc' as const) : undefined);

function readUsers(q: URLSearchParams): UserFilters {
  const status = q.get('status');
  const info = q.get('userInfoStatus');
  const sort = q.get('sort');
  return {
    phone: str(q, 'phone'),
    channelCode: str(q, 'channelCode'),
    status: status === 'active' || status === 'cancelled' ? status : undefined,
    userInfoStatus: info === '0' || info === '1' || info === '2' ? Number(info) : undefined,
    from: date(q, 'from'),
    to: date(q, 'to'),
    sort: sort === 'createdAt' || sort === 'lastLoginAt' ? sort : undefined,
    order: order(q),
    ...paging(q),
  };
}

function readLeads(q: URLSearchParams): LeadFilters {
  const sort = q.get('sort');
  return {
    status: LEAD_STATUSES.find((s) => s === q.get('status')),
    partnerId: int(q, 'partnerId'),
    productId: int(q, 'productId'),
    channelCode: str(q, 'channelCode'),
    from: date(q, 'from'),
    to: date(q, 'to'),
    sort: sort === 'createdAt' || sort === 'attempts' || sort === 'nextAttemptAt' ? sort : undefined,
    order: order(q),
    ...paging(q),
  };
}

/** Filters → address (defaults left out), so a refreshed or shared link shows the same list. */
function write(tab: string, f: Record<string, unknown>, lead?: number | null): URLSearchParams {
  const q = new URLSearchParams();
  if (tab !== 'users') q.set('tab', tab);
  for (const [k, v] of Object.entries(f)) {
    if (v === undefined || v === null || v === '') continue;
    if (k === 'page' && v === 1) continue;
    if (k === 'pageSize' && v === 20) continue;
    q.set(k, String(v));
  }
  if (lead) q.set('lead', String(lead));
  return q;
}

/** 用户与线索: people (search by phone) and leads, masked; a lead's attempts in a drawer. */
export function LeadsRoute() {
  const [params, setParams] = useSearchParams();
  const me = useMe();
  const canChange = me.data ? me.data.role === 'admin' || me.data.role === 'operator' : false;
  const tab = params.get('tab') === 'leads' ? 'leads' : 'users';
  const leadId = Number(params.get('lead')) || null;
  const leadFilters = readLeads(params);

  return (
    <>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        用户与线索
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        列表中的手机号、姓名和身份证号均已脱敏；按手机号查找请输入完整的 11
        位号码。查看明文请进入用户详情，需填写原因并记入操作日志。
      </Typography.Paragraph>
      <Tabs
        activeKey={tab}
        onChange={(next) => setParams(write(next, {}))}
        items={[
          {
            key: 'users',
            label: '用户',
            children:
              tab === 'users' ? (
                <UserTable
                  filters={readUsers(params)}
                  onFiltersChange={(f) => setParams(write('users', { ...f }))}
                />
              ) : null,
          },
          {
            key: 'leads',
            label: '线索',
            children:
              tab === 'leads' ? (
                <LeadTable
                  filters={leadFilters}
                  onFiltersChange={(f) => setParams(write('leads', { ...f }))}
                  onOpen={(id) => setParams(write('leads', { ...leadFilters }, id))}
                />
              ) : null,
          },
        ]}
      />
      <LeadDrawer
        leadId={tab === 'leads' ? leadId : null}
        onClose={() => setParams(write('leads', { ...leadFilters }))}
        actions={(lead) => (
          <div style={{ marginBottom: 16 }}>
            <LeadActions lead={lead} canChange={canChange} size="middle" />
          </div>
        )}
      />
    </>
  );
}
