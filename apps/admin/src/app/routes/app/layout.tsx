import { Layout, Menu, Typography } from 'antd';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { StaffMenu } from '@/features/auth/components/staff-menu';
import { getAdminToken } from '@/lib/auth';

const MENU_ITEMS = [
  { key: '/', label: '概览' },
  { key: '/privacy/deletions', label: '数据删除请求' },
];

export function AdminLayout() {
  const location = useLocation();
  const navigate = useNavigate();

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
          selectedKeys={[location.pathname]}
          items={MENU_ITEMS}
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
