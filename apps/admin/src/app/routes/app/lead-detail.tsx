import { Breadcrumb, Space, Typography } from 'antd';
import { Link, useParams, useSearchParams } from 'react-router';
import { useMe } from '@/features/auth/api/get-me';
import { LeadActions } from '@/features/deliveries/components/lead-actions';
import { LeadDrawer } from '@/features/leads/components/lead-drawer';
import { UserDetail } from '@/features/leads/components/user-detail';

/** 用户详情: masked profile with reveal-with-reason, the journey, notices to lenders and sessions. */
export function LeadDetailRoute() {
  const { userId } = useParams();
  const id = Number(userId);
  const [params, setParams] = useSearchParams();
  const leadId = Number(params.get('lead')) || null;
  const me = useMe();
  const canChange = me.data ? me.data.role === 'admin' || me.data.role === 'operator' : false;
  return (
    <>
      <Breadcrumb
        style={{ marginBottom: 12 }}
        items={[{ title: <Link to="/leads">用户与线索</Link> }, { title: `用户 ${userId ?? ''}` }]}
      />
      <Space align="baseline" style={{ marginBottom: 12 }} wrap>
        <Typography.Title level={4} style={{ margin: 0 }}>
          用户详情
        </Typography.Title>
        <Link to={`/audit-log?entity=user&entityId=${encodeURIComponent(userId ?? '')}`}>
          查看此用户的操作日志
        </Link>
        <Link to="/privacy/deletions">数据删除请求</Link>
      </Space>
      {Number.isInteger(id) && id > 0 ? (
        <UserDetail
          userId={id}
          canReveal={canChange}
          canChange={canChange}
          onOpenLead={(lead) => setParams(new URLSearchParams({ lead: String(lead) }))}
        />
      ) : (
        <Typography.Text type="danger">用户ID无效</Typography.Text>
      )}
      <LeadDrawer
        leadId={leadId}
        onClose={() => setParams(new URLSearchParams())}
        actions={(lead) => (
          <div style={{ marginBottom: 16 }}>
            <LeadActions lead={lead} canChange={canChange} size="middle" />
          </div>
        )}
      />
    </>
  );
}
