import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import styles from './audit-new.module.css';

const today = () =>
  new Intl.DateTimeFormat('zh-CN', {
    timeZone: 'Asia/Shanghai',
    month: 'long',
    day: 'numeric',
    weekday: 'long',
  }).format(new Date());

/** `/audit-new`: the daily news index (articles arrive with the content issue). */
export function AuditNewRoute() {
  return (
    <main className={styles.page}>
      <PageHeader title="每日资讯" />
      <header className={styles.head}>
        <p className={styles.date}>{today()}</p>
        <h1>每日资讯</h1>
        <p>信用知识 · 防骗提醒 · 理性借贷</p>
      </header>
      <section className={styles.list} aria-label="资讯列表">
        <EmptyState title="暂无资讯" description="今日资讯正在整理中，请稍后再来看看" />
      </section>
    </main>
  );
}
