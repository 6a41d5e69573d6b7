import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { SiteFooter } from '@/components/site-footer';
import { LoginPlaceholder } from '@/features/landing/components/login-placeholder';
import { loadChunk } from '@/features/rum/chunk-guard';
import { useH5Config } from '@/lib/channel/store';
import { loadPostLogin } from '../../sign-in/load-post-login';
import styles from '../routes.module.css';
import own from './register.module.css';

const LoginForm = lazy(() =>
  loadChunk(() => import('@/features/auth/components/login-form')).then((m) => ({ default: m.LoginForm })),
);

/**
 * `/register`: sign-up is the SMS login (a new number creates the account, spec §1); after it the
 * post-login decision takes the person into the channel's flow.
 */
export function RegisterRoute() {
  const config = useH5Config();
  return (
    <main className={styles.login}>
      <header className={styles.loginHeader}>
        <h1>注册账户</h1>
        <p>输入本人手机号并验证，即可完成注册，无需设置密码</p>
      </header>
      <section className={styles.card} aria-label="注册">
        <Suspense fallback={<LoginPlaceholder />}>
          <LoginForm loadAfterLogin={loadPostLogin} submitText="注册并继续" />
        </Suspense>
        <p className={own.switch}>
          已有账户？<Link to="/login">直接登录</Link>
        </p>
      </section>
      <ol className={own.steps} aria-label="申请步骤">
        <li>验证手机号</li>
        <li>填写资料</li>
        <li>匹配产品</li>
        <li>逐家授权</li>
      </ol>
      <section className={own.points} aria-labelledby="register-points">
        <h2 id="register-points">注册须知</h2>
        <ul>
          <li>匹配服务免费，放款前任何要求您转账的都是诈骗。</li>
          <li>只有您逐家勾选同意的机构才会收到您的信息，可随时在“我的”中撤回。</li>
          <li>每个产品都标明出借机构和年化利率（含全部费用），请理性借贷。</li>
          <li>服务仅面向年满18周岁的非在校学生。</li>
        </ul>
      </section>
      <SiteFooter companies={config.footer} />
    </main>
  );
}
