import type { AdminLeadStatus } from '@lm/shared/schemas/admin-leads';
import { Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { useCanEdit } from '@/features/auth/use-can-edit';
import { LeadActions } from '@/features/deliveries/components/lead-actions';
import type { LeadFilters } from '@/features/leads/api/get-leads';
import type { UserFilters } from '@/features/leads/api/get-users';
import { LeadDrawer } from '@/features/leads/components/lead-drawer';
import { LeadTable } from '@/features/leads/components/lead-table';
import { UserTable } from '@/features/leads/components/user-table';
import { readDate, readInt, readOneOf, readPaging, readString, toSearchParams } from '@/lib/url-filters';

const LEAD_STATUSES: readonly AdminLeadStatus[] = [
  'pending',
  'delivered',
  'dead',
  'redirect',
  'awaiting_callback',
  'withdrawn',
  'discarded',
];
const USER_SORTS = ['createdAt', 'lastLoginAt'] as const;
const LEAD_SORTS = ['createdAt', 'attempts', 'nextAttemptAt'] as const;
const order = (q: URLSearchParams) => (q.get('order') === 'asc' ? ('asc' as const) : undefined);

function readUsers(q: URLSearchParams): UserFilters {
  const info = q.get('userInfoStatus');
  return {
    phone: readString(q, 'phone'),
    channelCode: readString(q, 'channelCode'),
    status: readOneOf(q, 'status', ['active', 'cancelled']),
    userInfoStatus: info === '0' || info === '1' || info === '2' ? Number(info) : undefined,
    from: readDate(q, 'from'),
    to: readDate(q, 'to'),
    sort: readOneOf(q, 'sort', USER_SORTS),
    order: order(q),
    ...readPaging(q),
  };
}

function readLeads(q: URLSearchParams): LeadFilters {
  return {
    status: readOneOf(q, 'status', LEAD_STATUSES),
    partnerId: readInt(q, 'partnerId'),
    productId: readInt(q, 'productId'),
    channelCode: readString(q, 'channelCode'),
    from: readDate(q, 'from'),
    to: readDate(q, 'to'),
    sort: readOneOf(q, 'sort', LEAD_SORTS),
    order: order(q),
    ...readPaging(q),
  };
}

/** Filters → address (defaults left out), so a refreshed or shared link shows the same list. */
const write = (tab: string, f: object, lead?: number | null) =>
  toSearchParams({ tab: tab === 'users' ? undefined : tab, ...f, lead });

/** 用户与线索: people (search by phone) and leads, masked; a lead's attempts in a drawer. */
export function LeadsRoute() {
  const [params, setParams] = useSearchParams();
  const canChange = useCanEdit();
  const tab = params.get('tab') === 'leads' ? 'leads' : 'users';
  const leadId = Number(params.get('lead')) || null;
  const leadFilters = readLeads(params);

  return (
    <>
      <PageHeader title="用户与线索">
        列表中的手机号、姓名和身份证号均已脱敏；按手机号查找请输入完整的 11
        位号码。查看明文请进入用户详情，需填写原因并记入操作日志。
      </PageHeader>
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
