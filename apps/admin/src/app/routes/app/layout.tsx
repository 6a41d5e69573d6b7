import { Button, Drawer, Layout, Menu, Skeleton, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { homeOf, mayOpen, PAGES, pageOf } from '@/app/access';
import { useMe } from '@/features/auth/api/get-me';
import type { StaffRole } from '@/features/auth/api/types';
import { StaffMenu } from '@/features/auth/components/staff-menu';
import { useNarrowScreen } from '@/hooks/use-narrow-screen';
import { getAdminToken } from '@/lib/auth';
import { notifyInfo } from '@/lib/notify';

const TITLE = '借款超市后台';

/**
 * A page the role may not open (opened by its address): its own first page instead — a channel partner
 * its funnel — saying so unless it only arrived at the console's start (issue 44.19).
 */
function SendHome({ role, pathname }: { role: StaffRole; pathname: string }) {
  const home = homeOf(role);
  const asked = pageOf(pathname);
  useEffect(() => {
    if (asked.path !== '/')
      notifyInfo(
        `您的账号不能查看「${asked.label}」，已为您打开「${pageOf(home).label}」`,
        'page-not-allowed',
      );
  }, [asked, home]);
  return <Navigate to={home} replace />;
}

export function AdminLayout() {
  const location = useLocation();
  const navigate = useNavigate();
  const me = useMe();
  const narrow = useNarrowScreen();
  const [menuOpen, setMenuOpen] = useState(false);
  const role = me.data?.role;
  const items = PAGES.filter((p) => (role ? p.roles.includes(role) : false)).map(({ path, label }) => ({
    key: path,
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
      selectedKeys={[pageOf(location.pathname).path]}
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
          {/* A page starts once the role is known: a role's page never calls what the server refuses it. */}
          {!role ? (
            me.isError ? (
              <Outlet />
            ) : (
              <Skeleton active paragraph={{ rows: 6 }} />
            )
          ) : mayOpen(role, location.pathname) ? (
            <Outlet />
          ) : (
            <SendHome role={role} pathname={location.pathname} />
          )}
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
