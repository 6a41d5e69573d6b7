import { Layout, Menu, Typography } from 'antd';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { useMe } from '@/features/auth/api/get-me';
import type { StaffRole } from '@/features/auth/api/types';
import { StaffMenu } from '@/features/auth/components/staff-menu';
import { getAdminToken } from '@/lib/auth';

const STAFF: readonly StaffRole[] = ['admin', 'operator', 'viewer'];

/** The menu; each entry names the roles that may open it (the server enforces the same on every call). */
const MENU_ITEMS: { key: string; label: string; roles: readonly StaffRole[] }[] = [
  { key: '/', label: '概览', roles: STAFF },
  { key: '/funnel', label: '转化漏斗', roles: [...STAFF, 'channel_partner'] },
  { key: '/channels', label: '渠道管理', roles: STAFF },
  { key: '/partners', label: '合作机构', roles: STAFF },
  { key: '/products', label: '产品管理', roles: STAFF },
  { key: '/rule-tester', label: '规则测试', roles: STAFF },
  { key: '/leads', label: '用户与线索', roles: STAFF },
  { key: '/deliveries', label: '线索发送', roles: STAFF },
  { key: '/privacy/deletions', label: '数据删除请求', roles: STAFF },
  { key: '/audit-log', label: '操作日志', roles: STAFF },
  { key: '/web-vitals', label: '性能监控', roles: STAFF },
  { key: '/staff', label: '账号管理', roles: ['admin'] },
];

/** The menu key a path belongs to (`/channels/12` → `/channels`). */
function menuKeyOf(pathname: string): string {
  const match = MENU_ITEMS.filter((i) => i.key !== '/' && pathname.startsWith(i.key)).sort(
    (a, b) => b.key.length - a.key.length,
  )[0];
  return match?.key ?? '/';
}

export function AdminLayout() {
  const location = useLocation();
  const navigate = useNavigate();
  const me = useMe();
  const role = me.data?.role;
  const items = MENU_ITEMS.filter((i) => (role ? i.roles.includes(role) : false)).map(({ key, label }) => ({
    key,
    label,
  }));

  if (!getAdminToken()) {
    const from = location.pathname + location.search;
    return <Navigate to={`/login?from=${encodeURIComponent(from)}`} replace />;
  }

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider breakpoint="lg" collapsedWidth={0} theme="dark">
        <div style={{ padding: '20px 24px' }}>
          <Typography.Text strong style={{ color: '#fff', fontSize: 16 }}>
            借款超市后台
          </Typography.Text>
        </div>
        <Menu
          theme="dark"
          mode="inline"
          selectedKeys={[menuKeyOf(location.pathname)]}
          items={items}
          onClick={({ key }) => navigate(key)}
        />
      </Layout.Sider>
      <Layout>
        <Layout.Header
          style={{
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'flex-end',
            padding: '0 24px',
            background: '#fff',
          }}
        >
          <StaffMenu onLoggedOut={() => navigate('/login', { replace: true })} />
        </Layout.Header>
        <Layout.Content style={{ padding: 24 }}>
          <Outlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
