import { useLocation, useSearchParams } from 'react-router';
import { SiteFooter } from '@/components/site-footer';
import { LoginForm } from '@/features/auth/components/login-form';
import { useChannelStore, useH5Config } from '@/lib/channel/store';
import { DEFAULT_TITLE } from '../route-handle';
import { useLiveSessionForward } from '../sign-in/live-session';
import { loadPostLogin } from '../sign-in/load-post-login';
import styles from './routes.module.css';

/** `/login`, `/getQuota`, `/h5`. On getQuota the login counts as a form request (isFormReq). */
export function LoginRoute() {
  const [searchParams] = useSearchParams();
  const config = useH5Config();
  // A channel link's name once its configuration is there (not the default name first); the line
  // keeps its height meanwhile.
  const loading = useChannelStore((s) => s.status === 'loading' && s.adChannelCode !== '');
  const brand = loading ? '\u00a0' : config.title?.trim() || DEFAULT_TITLE;
  // A live session is not asked to log in again: it goes on at its next step (issue 16.5).
  const forwarding = useLiveSessionForward(useLocation().search);
  if (forwarding) return <main className={styles.login} aria-busy="true" aria-label="加载中" />;
  return (
    <main className={styles.login}>
      <header className={styles.loginHeader}>
        {/* The channel's product name, as on its landing (issue 16.10). */}
        <p className={styles.loginBrand}>{brand}</p>
        <h1>手机号登录</h1>
        <p>未注册的手机号验证后将自动创建账户</p>
      </header>
      <section className={styles.card}>
        <LoginForm
          loadAfterLogin={loadPostLogin}
          defaultPhone={searchParams.get('phone') ?? ''}
          submitText="登录"
        />
      </section>
      <SiteFooter companies={config.footer} />
    </main>
  );
}
