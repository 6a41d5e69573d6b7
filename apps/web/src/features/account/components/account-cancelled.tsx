import Button from 'antd-mobile/es/components/button';
import { ResultView } from '@/components/result-view';
import { cancellationOutcome } from '../format';
import styles from './account.module.css';

interface AccountCancelledProps {
  /** Lenders that had the person's data (null: unknown). */
  lenderCount: number | null;
  /** 返回首页. */
  onHome(): void;
}

/**
 * The confirmation after a cancellation (issue 44.17): what happened to the person's data, and it
 * stays until they leave with 返回首页 (no timer takes them away).
 */
export function AccountCancelled({ lenderCount, onHome }: AccountCancelledProps) {
  return (
    <ResultView
      status="success"
      title="账户已注销"
      actions={
        <Button block color="primary" shape="rounded" size="large" onClick={onHome}>
          返回首页
        </Button>
      }
    >
      <ul className={styles.outcome}>
        {cancellationOutcome(lenderCount).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </ResultView>
  );
}
