import { maskPhone } from '@lm/shared/mask';
import { isValidPhone } from '@lm/shared/validators/phone';
import Button from 'antd-mobile/es/components/button';
import List from 'antd-mobile/es/components/list';
import Skeleton from 'antd-mobile/es/components/skeleton';
import { useNavigate } from 'react-router';
import { RequireLogin } from '@/app/flow/require-login';
import { useLoginUserInfo } from '@/features/account/api/get-login-user-info';
import { useConfirmLogout } from '@/features/account/api/logout';
import { Avatar } from '@/features/avatars/components/avatar';
import styles from './my.module.css';

const displayMobile = (mobile: string) => (isValidPhone(mobile) ? maskPhone(mobile) : mobile);

const MENU = [
  { to: '/my/personal-data', label: '个人资料', desc: '手机号与账户信息' },
  { to: '/my/application-record', label: '申请记录', desc: '每一次申请、授权与发送记录' },
  { to: '/my/data-sharing', label: '谁在使用我的数据', desc: '查看获得您信息的机构，可撤回授权' },
  { to: '/my/safe-center', label: '安全中心', desc: '登录设备与账户安全' },
] as const;

const POLICIES = [
  { to: '/register-agreement', label: '注册协议' },
  { to: '/privacy-agreement', label: '隐私政策' },
  { to: '/clarification-announcement', label: '澄清公告' },
] as const;

function Account() {
  const navigate = useNavigate();
  const userInfo = useLoginUserInfo();

  const logout = useConfirmLogout();

  return (
    <main className={styles.page}>
      <header className={styles.profile}>
        {userInfo.data ? (
          <Avatar uid={userInfo.data.uid} className={styles.avatar} />
        ) : (
          <svg className={styles.avatar} viewBox="0 0 56 56" aria-hidden="true" focusable="false">
            <circle cx="28" cy="28" r="28" fill="rgba(255,255,255,.25)" />
            <circle cx="28" cy="22" r="9" fill="#fff" />
            <path d="M12 46c2-9 9-13 16-13s14 4 16 13" fill="#fff" />
          </svg>
        )}
        {userInfo.isPending ? (
          <Skeleton.Paragraph lineCount={2} animated className={styles.skeleton} />
        ) : (
          <div>
            <p className={styles.mobile}>
              {userInfo.data ? displayMobile(userInfo.data.mobile) : '未获取到账户信息'}
            </p>
            {userInfo.data && <p className={styles.uid}>用户编号：{userInfo.data.uid}</p>}
          </div>
        )}
      </header>

      <List className={styles.list}>
        {MENU.map((m) => (
          <List.Item key={m.to} description={m.desc} onClick={() => navigate(m.to)}>
            {m.label}
          </List.Item>
        ))}
      </List>

      <List className={styles.list} header="协议与公告">
        {POLICIES.map((p) => (
          <List.Item key={p.to} onClick={() => navigate(p.to)}>
            {p.label}
          </List.Item>
        ))}
      </List>

      <List className={styles.list}>
        <List.Item onClick={() => navigate('/my/cancel-account')}>注销账户</List.Item>
      </List>

      <div className={styles.actions}>
        <Button block shape="rounded" size="large" loading={logout.pending} onClick={logout.confirmLogout}>
          退出登录
        </Button>
      </div>
    </main>
  );
}

/** `/my` (main layout): the account centre. Logged-out visitors go to /getQuota. */
export function MyRoute() {
  return (
    <RequireLogin>
      <Account />
    </RequireLogin>
  );
}
