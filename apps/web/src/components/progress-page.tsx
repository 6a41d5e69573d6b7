import type { ReactNode } from 'react';
import { ProgressRing } from '@/components/progress-ring';
import styles from '@/styles/forms.module.css';

interface ProgressPageProps {
  title: string;
  subtitle: string;
  steps: readonly string[];
  /**
   * The page's work has answered (issue 44.13): the ring completes, and the page goes on after the
   * navigation delay. No work on the page: true from the start.
   */
  done: boolean;
  /** Shown under the ring once the work is done (e.g. retry buttons). */
  after?: ReactNode;
}

/**
 * Full-page waiting screen: an animated ring, the checklist and a keep-open hint. It shows the work
 * of the page; it has no minimum time of its own.
 */
export function ProgressPage({ title, subtitle, steps, done, after }: ProgressPageProps) {
  return (
    <main className={styles.progressPage}>
      <h1 className={styles.progressTitle}>{title}</h1>
      <p className={styles.progressSubtitle}>{subtitle}</p>
      <ProgressRing done={done} steps={steps} />
      {done && after ? <div className={styles.progressAfter}>{after}</div> : null}
      <p className={styles.progressHint}>请勿关闭或刷新页面</p>
    </main>
  );
}
