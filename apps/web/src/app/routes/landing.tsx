import { SiteFooter } from '@/components/site-footer';
import { LoginForm } from '@/features/auth/components/login-form';
import { Hero } from '@/features/landing/components/hero';
import { Highlights } from '@/features/landing/components/highlights';
import styles from './routes.module.css';

/** `/` and `/download`: the marketplace pitch with the login form embedded. */
export function LandingRoute() {
  return (
    <main className={styles.landing}>
      <Hero />
      <section className={styles.card} aria-label="申请额度">
        <h2 className={styles.cardTitle}>手机号快速申请</h2>
        <LoginForm submitText="立即申请" />
      </section>
      <Highlights />
      <SiteFooter />
    </main>
  );
}
