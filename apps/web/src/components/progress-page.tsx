import { type ReactNode, useState } from 'react';
import { ProgressRing } from '@/components/progress-ring';
import styles from '@/styles/forms.module.css';

interface ProgressPageProps {
  title: string;
  subtitle: string;
  steps: readonly string[];
  durationMs?: number;
  /** Called at 100 %; return nothing to stay and show `after`. */
  onDone?: () => void;
  /** Shown under the ring once the progress completed (e.g. retry buttons). */
  after?: ReactNode;
}

/** Full-page waiting screen: an animated ring, the checklist and a keep-open hint. */
export function ProgressPage({
  title,
  subtitle,
  steps,
  durationMs = 3200,
  onDone,
  after,
}: ProgressPageProps) {
  const [done, setDone] = useState(false);
  return (
    <main className={styles.progressPage}>
      <h1 className={styles.progressTitle}>{title}</h1>
      <p className={styles.progressSubtitle}>{subtitle}</p>
      <ProgressRing
        durationMs={durationMs}
        steps={steps}
        onDone={() => {
          setDone(true);
          onDone?.();
        }}
      />
      {done && after ? <div className={styles.progressAfter}>{after}</div> : null}
      <p className={styles.progressHint}>请勿关闭或刷新页面</p>
    </main>
  );
}
