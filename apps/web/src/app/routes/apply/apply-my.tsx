import { maskPhone } from '@lm/shared/mask';
import { isValidPhone } from '@lm/shared/validators/phone';
import Button from 'antd-mobile/es/components/button';
import List from 'antd-mobile/es/components/list';
import { useNavigate, useSearchParams } from 'react-router';
import { useLoginUserInfo } from '@/features/account/api/get-login-user-info';
import { useAgent } from '@/features/landing/api/get-agent';
import { useTodayApplied } from '@/features/products/api/get-today-applied';
import { useChannelStore } from '@/lib/channel/store';
import { isLoggedIn } from '@/lib/session';
import styles from './apply.module.css';
import { ApplyBrand } from './apply-home';

function Phone() {
  const info = useLoginUserInfo();
  const mobile = info.data?.mobile;
  return <h1>{mobile ? (isValidPhone(mobile) ? maskPhone(mobile) : mobile) : '—'}</h1>;
}

/** Today's applies (GET /api/product/listTodayApplyProduct). */
function TodayApplied() {
  const today = useTodayApplied();
  if (today.isLoading) return null;
  return (
    <List header="今日申请" style={{ marginTop: 'calc(12 * var(--px))' }}>
      {today.data?.length ? (
        today.data.map((p) => (
          <List.Item key={p.id} description={p.lenderLegalName}>
            {p.productName}
          </List.Item>
        ))
      ) : (
        <List.Item>今天还没有申请记录</List.Item>
      )}
    </List>
  );
}

/** The customer service of the channel (GET /api/agent/get): operator and hours. */
function Service() {
  const code = useChannelStore((s) => s.adChannelCode);
  const [query] = useSearchParams();
  const agent = useAgent(query.get('adChannelCode') ?? code);
  if (!agent.data) return null;
  const a = agent.data;
  return (
    <List header="客服与服务" style={{ marginTop: 'calc(12 * var(--px))' }}>
      <List.Item
        extra={a.online ? '在线' : '已下线'}
        description={`服务时间 ${a.serviceHours.from}-${a.serviceHours.to}`}
      >
        {a.agentName}
      </List.Item>
      {a.operatorName && (
        <List.Item description={a.operatorFilingNumber ?? undefined}>运营方：{a.operatorName}</List.Item>
      )}
    </List>
  );
}

/** `/apply_my`: the apply section's account page. */
export function ApplyMyRoute() {
  const navigate = useNavigate();
  const loggedIn = isLoggedIn();
  return (
    <main className={styles.page}>
      <header className={styles.hero} style={{ paddingBottom: 'calc(28 * var(--px))' }}>
        <ApplyBrand />
        {loggedIn ? (
          <Phone />
        ) : (
          <>
            <h1>登录后查看申请进度</h1>
            <Button
              size="small"
              shape="rounded"
              style={{ marginTop: 'calc(12 * var(--px))' }}
              onClick={() => navigate('/login')}
            >
              登录 / 注册
            </Button>
          </>
        )}
      </header>
      <List style={{ marginTop: 'calc(12 * var(--px))' }}>
        <List.Item onClick={() => navigate('/my/application-record')}>申请记录</List.Item>
        <List.Item onClick={() => navigate('/my/safe-center')}>安全中心</List.Item>
      </List>
      {loggedIn && <TodayApplied />}
      <Service />
      <List header="协议与公告" style={{ marginTop: 'calc(12 * var(--px))' }}>
        <List.Item onClick={() => navigate('/jkr-register-agreement')}>借款人注册协议</List.Item>
        <List.Item onClick={() => navigate('/jkr-privacy-agreement')}>借款人隐私协议</List.Item>
        <List.Item onClick={() => navigate('/clarification-announcement')}>澄清公告</List.Item>
      </List>
    </main>
  );
}
