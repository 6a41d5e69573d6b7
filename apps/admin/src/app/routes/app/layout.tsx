import { Button, Drawer, Layout, Menu, Typography } from 'antd';
import { useState } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { useMe } from '@/features/auth/api/get-me';
import type { StaffRole } from '@/features/auth/api/types';
import { StaffMenu } from '@/features/auth/components/staff-menu';
import { useNarrowScreen } from '@/hooks/use-narrow-screen';
import { getAdminToken } from '@/lib/auth';

const STAFF: readonly StaffRole[] = ['admin', 'operator', 'viewer'];

/** The menu; each entry names the roles that may open it (the server enforces the same on every call). */
const MENU_ITEMS: { key: string; label: string; roles: readonly StaffRole[] }[] = [
  { key: '/', label: '概览', roles: STAFF },
  { key: '/funnel', label: '转化漏斗', roles: [...STAFF, 'channel_partner'] },
  { key: '/channels', label: '渠道管理', roles: STAFF },
  { key: '/operators', label: '运营主体', roles: STAFF },
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

const TITLE = '借款超市后台';

export function AdminLayout() {
  const location = useLocation();
  const navigate = useNavigate();
  const me = useMe();
  const narrow = useNarrowScreen();
  const [menuOpen, setMenuOpen] = useState(false);
  const role = me.data?.role;
  const items = MENU_ITEMS.filter((i) => (role ? i.roles.includes(role) : false)).map(({ key, label }) => ({
    key,
    label,
  }));

  if (!getAdminToken()) {
    const from = location.pathname + location.search;
    return <Navigate to={`/login?from=${encodeURIComponent(from)}`} replace />;
  }

  const menu = (
    <Menu
      theme="dark"
      mode="inline"
      selectedKeys={[menuKeyOf(location.pathname)]}
      items={items}
      onClick={({ key }) => {
        setMenuOpen(false);
        navigate(key);
      }}
    />
  );

  return (
    <Layout style={{ minHeight: '100vh' }}>
      {/* A phone gets the menu in a drawer behind a header button instead of a sider (no floating trigger over the page). */}
      {narrow ? null : (
        <Layout.Sider theme="dark" width={200}>
          <div style={{ padding: '20px 24px' }}>
            <Typography.Text strong style={{ color: '#fff', fontSize: 16 }}>
              {TITLE}
            </Typography.Text>
          </div>
          {menu}
        </Layout.Sider>
      )}
      <Layout style={{ minWidth: 0 }}>
        <Layout.Header
          style={{
            display: 'flex',
            alignItems: 'center',
            gap: 12,
            padding: narrow ? '0 12px' : '0 24px',
            background: '#fff',
          }}
        >
          {narrow ? (
            <>
              <Button aria-label="打开菜单" onClick={() => setMenuOpen(true)}>
                ☰ 菜单
              </Button>
              <Typography.Text strong ellipsis style={{ flex: 1, minWidth: 0 }}>
                {TITLE}
              </Typography.Text>
            </>
          ) : (
            <div style={{ flex: 1 }} />
          )}
          <StaffMenu compact={narrow} onLoggedOut={() => navigate('/login', { replace: true })} />
        </Layout.Header>
        <Layout.Content style={{ padding: narrow ? 12 : 24, minWidth: 0 }}>
          <Outlet />
        </Layout.Content>
      </Layout>
      {narrow ? (
        <Drawer
          title={TITLE}
          placement="left"
          width={240}
          open={menuOpen}
          onClose={() => setMenuOpen(false)}
          styles={{ body: { padding: 0, background: '#001529' } }}
        >
          {menu}
        </Drawer>
      ) : null}
    </Layout>
  );
}
