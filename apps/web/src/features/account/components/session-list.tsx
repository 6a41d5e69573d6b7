import { SESSION_REVOKE_REASON_LABELS } from '@lm/shared/privacy-labels';
import type { SessionItem } from '@lm/shared/schemas/privacy';
import { useQueryClient } from '@tanstack/react-query';
import Button from 'antd-mobile/es/components/button';
import List from 'antd-mobile/es/components/list';
import { useNavigate } from 'react-router';
import { loadDialog } from '@/lib/dialog';
import { clearSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { useSessions } from '../api/get-sessions';
import { useLogoutAll } from '../api/logout-all';
import { formatDateTime } from '../format';
import styles from './account.module.css';
import { LoadFailed, Loading } from './list-parts';

function sessionState(s: SessionItem): string {
  if (s.active) return s.current ? '当前在线' : '在线';
  if (s.revokeReason) return SESSION_REVOKE_REASON_LABELS[s.revokeReason];
  return '已过期';
}

/** The account's recent logins, this device marked. */
export function SessionList() {
  const sessions = useSessions();
  if (sessions.isPending) return <Loading lines={3} />;
  if (sessions.isError) {
    return <LoadFailed retrying={sessions.isFetching} onRetry={() => void sessions.refetch()} />;
  }
  const list = sessions.data.list;
  return (
    <List header="登录记录" className={styles.sessions} aria-label="登录记录">
      {list.length === 0 ? (
        <List.Item>暂无登录记录</List.Item>
      ) : (
        list.map((s) => (
          <List.Item
            key={s.id}
            description={
              <span className={styles.sessionMeta}>
                {formatDateTime(s.createdAt)} 登录{s.ip ? ` · IP ${s.ip}` : ''}
                {!s.active && s.revokedAt ? ` · ${formatDateTime(s.revokedAt)} 结束` : ''}
              </span>
            }
            extra={<span className={styles.sessionMeta}>{sessionState(s)}</span>}
          >
            {s.device}
            {s.current && <span className={styles.tag}>本机</span>}
          </List.Item>
        ))
      )}
    </List>
  );
}

/** 退出所有设备: ends every session, this one included, then back to the login page. */
export function LogoutAllButton() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const logoutAll = useLogoutAll();

  const onClick = async () => {
    const confirmed = await (await loadDialog()).confirm({
      title: '退出所有设备？',
      content:
        '所有设备上的登录（包括本机）都将失效，之后需要用短信验证码重新登录。如果您怀疑账户被他人使用，请立即操作。',
      confirmText: '全部退出',
      cancelText: '取消',
    });
    if (!confirmed) return;
    logoutAll.mutate(undefined, {
      onSuccess: (result) => {
        clearSession();
        queryClient.clear();
        toast.show({ icon: 'success', content: `已退出 ${result.revoked} 个登录` });
        navigate('/login', { replace: true });
      },
    });
  };

  return (
    <Button block color="danger" shape="rounded" size="large" loading={logoutAll.isPending} onClick={onClick}>
      退出所有设备
    </Button>
  );
}
