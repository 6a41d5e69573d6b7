import { PageHeader } from '@/components/page-header';
import styles from './routes.module.css';

/** Agreement pages; the full texts come with a later issue. */
export function AgreementRoute({ title }: { title: string }) {
  return (
    <main className={styles.page}>
      <PageHeader title={title} fallback="/login" />
      <article className={styles.article}>
        <h1>《{title}》</h1>
        <p>协议全文即将上线，请稍后查看。</p>
      </article>
    </main>
  );
}
