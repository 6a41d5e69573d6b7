/** The account lists' shared parts: loading, failure, a labelled line of a record. */
import Button from 'antd-mobile/es/components/button';
import Skeleton from 'antd-mobile/es/components/skeleton';
import type { ReactNode } from 'react';
import { ErrorState } from '@/components/error-state';
import styles from './account.module.css';

/** While a section loads: grey lines where the content will be. */
export function Loading({ lines = 4 }: { lines?: number }) {
  return (
    <div className={styles.state} aria-busy="true">
      <Skeleton.Title animated />
      <Skeleton.Paragraph lineCount={lines} animated />
    </div>
  );
}

/** A section failed to load: say so and offer to try again (the API client has toasted the reason). */
export function LoadFailed({ onRetry, retrying }: { onRetry: () => void; retrying?: boolean }) {
  return (
    <ErrorState title="加载失败" description="网络或服务暂时不可用，请稍后重试">
      <Button size="small" color="primary" fill="outline" loading={retrying} onClick={onRetry}>
        重新加载
      </Button>
    </ErrorState>
  );
}

/** One labelled line of a record's details (a `<dl>` entry). */
export function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={styles.row}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
