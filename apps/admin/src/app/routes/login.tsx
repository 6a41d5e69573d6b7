import { Card, Typography } from 'antd';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { LoginForm } from '@/features/auth/components/login-form';
import { getAdminToken } from '@/lib/auth';

/** Only same-app paths are accepted as the return target. */
function safeReturnPath(from: string | null): string {
  if (!from) return '/';
  const path = from === '/admin' || from.startsWith('/admin/') ? from.slice('/admin'.length) || '/' : from;
  return path.startsWith('/') && !path.startsWith('//') ? path : '/';
}

export function LoginRoute() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const returnTo = safeReturnPath(searchParams.get('from'));

  if (getAdminToken()) return <Navigate to={returnTo} replace />;

  return (
    <div
      style={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        padding: 16,
        background: 'linear-gradient(160deg, #f0f5ff 0%, #fff1f0 100%)',
      }}
    >
      <Card style={{ width: 400, maxWidth: '100%' }}>
        <Typography.Title level={3} style={{ textAlign: 'center', marginBottom: 8 }}>
          借款超市运营后台
        </Typography.Title>
        <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
          员工登录
        </Typography.Paragraph>
        <LoginForm onSuccess={() => navigate(returnTo, { replace: true })} />
      </Card>
    </div>
  );
}
