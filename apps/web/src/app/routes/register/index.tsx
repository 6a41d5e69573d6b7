import { lazy, Suspense } from 'react';
import { SiteFooter } from '@/components/site-footer';
import { useH5Config } from '@/features/channel/store';
import { LoginPlaceholder } from '@/features/landing/components/login-placeholder';
import styles from '../routes.module.css';

const LoginForm = lazy(() =>
  import('@/features/auth/components/login-form').then((m) => ({ default: m.LoginForm })),
);

/** `/register`: sign-up is the SMS login (a new number creates the account). */
export function RegisterRoute() {
  const config = useH5Config();
  return (
    <main className={styles.login}>
      <header className={styles.loginHeader}>
        <h1>注册账户</h1>
        <p>输入手机号并验证，即可完成注册</p>
      </header>
      <section className={styles.card}>
        <Suspense fallback={<LoginPlaceholder />}>
          <LoginForm submitText="注册" />
        </Suspense>
      </section>
      <SiteFooter companies={config.footer} />
    </main>
  );
}
