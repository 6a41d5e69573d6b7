import Button from 'antd-mobile/es/components/button';
import { useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { ResultView } from '@/components/result-view';
import { SiteFooter } from '@/components/site-footer';
import { useOperator } from '@/features/agreements/api/get-operator';
import { useH5Config } from '@/lib/channel/store';
import styles from './failure.module.css';
import page from './routes.module.css';

/** A message from the link: one line of text, at most 60 characters. */
function failureMessage(raw: string | null): string | null {
  const text = raw?.replace(/\s+/g, ' ').trim().slice(0, 60);
  return text ? text : null;
}

/** `/failure`: something did not go through; why it may have happened, retry, home, and the service phone. */
export function FailureRoute() {
  const navigate = useNavigate();
  const config = useH5Config();
  const operator = useOperator();
  const [query] = useSearchParams();
  const message = failureMessage(query.get('msg')) ?? '网络不稳定或服务繁忙，您的申请暂未完成';
  const retry = () => {
    if (typeof window.history.state?.idx === 'number' && window.history.state.idx > 0) navigate(-1);
    else window.location.reload();
  };
  const phone = operator.data?.servicePhone;
  return (
    <main className={page.page}>
      <PageHeader title="申请失败" />
      <section className={styles.card}>
        <ResultView
          status="error"
          title="申请未成功"
          description={message}
          actions={
            <>
              <Button block color="primary" shape="rounded" size="large" onClick={retry}>
                重试
              </Button>
              <Button block fill="none" onClick={() => navigate('/', { replace: true })}>
                返回首页
              </Button>
            </>
          }
        >
          <ul className={styles.reasons} aria-label="可能的原因">
            <li>网络信号不稳定：请切换网络或稍后再试。</li>
            <li>登录已过期：请重新登录后继续申请。</li>
            <li>合作机构暂时繁忙或今日名额已满：可明天再来看看。</li>
          </ul>
        </ResultView>
      </section>
      <p className={styles.service}>
        {phone ? (
          <>
            多次失败请联系客服：
            <a href={`tel:${phone.replace(/[^\d+]/g, '')}`}>{phone}</a>
            （每日 9:00–21:00）
          </>
        ) : operator.isPending ? (
          '正在获取客服电话…'
        ) : (
          '多次失败请通过协议页面中公布的客服电话联系我们'
        )}
      </p>
      <p className={styles.service}>本平台不会以任何理由要求您转账或索要验证码。</p>
      <SiteFooter companies={config.footer} />
    </main>
  );
}
