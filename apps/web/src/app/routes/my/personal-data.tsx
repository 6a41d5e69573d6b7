import { maskPhone } from '@lm/shared/mask';
import { isValidPhone } from '@lm/shared/validators/phone';
import { Button, ErrorBlock, List, Skeleton } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { RequireLogin } from '@/app/common/require-login';
import { PageHeader } from '@/components/page-header';
import { useLoginUserInfo } from '@/features/account/api/get-login-user-info';
import styles from './my.module.css';

const displayMobile = (mobile: string) => (isValidPhone(mobile) ? maskPhone(mobile) : mobile);

function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  return new Intl.DateTimeFormat('zh-CN', { timeZone: 'Asia/Shanghai', dateStyle: 'medium' }).format(d);
}

function PersonalData() {
  const navigate = useNavigate();
  const info = useLoginUserInfo();
  return (
    <main className={styles.page}>
      <PageHeader title="个人资料" fallback="/my" />
      {info.isPending ? (
        <div className={styles.actions}>
          <Skeleton.Paragraph lineCount={4} animated />
        </div>
      ) : info.isError || !info.data ? (
        <ErrorBlock status="default" title="加载失败" description="请稍后重试">
          <Button size="small" onClick={() => void info.refetch()}>
            重新加载
          </Button>
        </ErrorBlock>
      ) : (
        <>
          <List className={styles.section} header="账户信息">
            <List.Item extra={<span className={styles.masked}>{displayMobile(info.data.mobile)}</span>}>
              手机号
            </List.Item>
            <List.Item extra={info.data.uid}>用户编号</List.Item>
            <List.Item extra={formatDate(info.data.createdAt)}>注册时间</List.Item>
          </List>
          <List className={styles.section} header="实名与资料">
            <List.Item onClick={() => navigate('/credit-process/identity-verification')}>实名认证</List.Item>
            <List.Item onClick={() => navigate('/my/application-record')}>申请资料</List.Item>
          </List>
          <p
            className={styles.actions}
            style={{ margin: 0, color: 'var(--app-text-tertiary)', fontSize: 'calc(12 * var(--px))' }}
          >
            为保护您的隐私，手机号等信息已脱敏显示。
          </p>
        </>
      )}
    </main>
  );
}

/** `/my/personal-data`: the account's data, masked. */
export function PersonalDataRoute() {
  return (
    <RequireLogin>
      <PersonalData />
    </RequireLogin>
  );
}
