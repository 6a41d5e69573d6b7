import { maskPhone } from '@lm/shared/mask';
import { isValidPhone } from '@lm/shared/validators/phone';
import { Button, Dialog, ErrorBlock, List, Skeleton } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { clearSession } from '@/lib/session';
import { useLoginUserInfo } from '../api/get-login-user-info';
import { useLogout } from '../api/logout';
import styles from './account.module.css';

/** The server already masks the mobile; mask again only if a plain number ever comes back. */
const displayMobile = (mobile: string) => (isValidPhone(mobile) ? maskPhone(mobile) : mobile);

export function AccountOverview() {
  const navigate = useNavigate();
  const userInfo = useLoginUserInfo();
  const logout = useLogout();

  const onLogout = async () => {
    const confirmed = await Dialog.confirm({ content: '确定要退出登录吗？' });
    if (!confirmed) return;
    logout.mutate(undefined, {
      onSettled: () => {
        clearSession();
        navigate('/login', { replace: true });
      },
    });
  };

  return (
    <>
      <section className={styles.profile}>
        <div className={styles.avatar} aria-hidden="true">
          ¥
        </div>
        {userInfo.isPending ? (
          <Skeleton.Paragraph lineCount={2} animated className={styles.skeleton} />
        ) : userInfo.data ? (
          <div>
            <p className={styles.mobile}>{displayMobile(userInfo.data.mobile)}</p>
            <p className={styles.uid}>用户编号：{userInfo.data.uid}</p>
          </div>
        ) : (
          <p className={styles.mobile}>未获取到账户信息</p>
        )}
      </section>

      {userInfo.isError && !userInfo.data ? (
        <ErrorBlock status="default" title="加载失败" description="请稍后重试">
          <Button
            size="small"
            onClick={() => {
              void userInfo.refetch();
            }}
          >
            重新加载
          </Button>
        </ErrorBlock>
      ) : (
        <List className={styles.list}>
          <List.Item extra={userInfo.data ? displayMobile(userInfo.data.mobile) : '—'}>手机号</List.Item>
          <List.Item extra={userInfo.data?.uid ?? '—'}>用户编号</List.Item>
          <List.Item extra={userInfo.data?.adChannelCode || '—'}>渠道</List.Item>
        </List>
      )}

      <List className={styles.list}>
        <List.Item onClick={() => navigate('/my/cancel-account')}>注销账户</List.Item>
      </List>

      <div className={styles.actions}>
        <Button block shape="rounded" size="large" loading={logout.isPending} onClick={onLogout}>
          退出登录
        </Button>
      </div>
    </>
  );
}
