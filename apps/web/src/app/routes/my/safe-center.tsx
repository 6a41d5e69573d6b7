import { maskPhone } from '@lm/shared/mask';
import { isValidPhone } from '@lm/shared/validators/phone';
import Button from 'antd-mobile/es/components/button';
import List from 'antd-mobile/es/components/list';
import { useNavigate } from 'react-router';
import { RequireLogin } from '@/app/flow/require-login';
import { PageHeader } from '@/components/page-header';
import { useLoginUserInfo } from '@/features/account/api/get-login-user-info';
import { useConfirmLogout } from '@/features/account/api/logout';
import { LogoutAllButton, SessionList } from '@/features/account/components/session-list';
import { getDeviceBrand } from '@/lib/device';
import styles from './my.module.css';

const BRAND_LABELS: Record<string, string> = {
  iphone: 'iPhone',
  huawei: '华为/荣耀',
  oppo: 'OPPO',
  vivo: 'vivo',
  xiaomi: '小米',
  samsung: '三星',
  default: '手机浏览器',
};

function SafeCenter() {
  const navigate = useNavigate();
  const info = useLoginUserInfo();
  const mobile = info.data?.mobile;

  const logout = useConfirmLogout();

  return (
    <main className={styles.page}>
      <PageHeader title="安全中心" fallback="/my" />
      <List className={styles.section} header="登录方式">
        <List.Item
          description="使用短信验证码登录，验证码请勿告诉他人"
          extra={
            <span className={styles.masked}>
              {mobile ? (isValidPhone(mobile) ? maskPhone(mobile) : mobile) : '—'}
            </span>
          }
        >
          登录手机号
        </List.Item>
      </List>
      <SessionList />
      <p className={styles.hint}>
        同一账户同一时间只能在一台设备登录，在其他设备登录后本设备将自动退出。本机：
        {BRAND_LABELS[getDeviceBrand()] ?? '手机浏览器'}
      </p>
      <List className={styles.section} header="账户安全">
        <List.Item onClick={() => navigate('/clarification-announcement')}>防骗提醒</List.Item>
        <List.Item
          description="注销后账户信息将被删除且无法恢复"
          onClick={() => navigate('/my/cancel-account')}
        >
          注销账户
        </List.Item>
      </List>
      <div className={`${styles.actions} ${styles.stack}`}>
        <LogoutAllButton />
        <Button
          block
          color="danger"
          fill="outline"
          shape="rounded"
          size="large"
          loading={logout.pending}
          onClick={logout.confirmLogout}
        >
          退出登录
        </Button>
      </div>
    </main>
  );
}

/** `/my/safe-center`: login phone, recent logins (this device marked), logout here or everywhere. */
export function SafeCenterRoute() {
  return (
    <RequireLogin>
      <SafeCenter />
    </RequireLogin>
  );
}
