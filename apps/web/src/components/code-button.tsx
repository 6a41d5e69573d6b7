import styles from './code-button.module.css';

interface CodeButtonProps {
  seconds: number;
  loading: boolean;
  /** What a pending button says instead of 发送中… (e.g. 安全验证中… while a challenge is solved). */
  loadingText?: string;
  onClick: () => void;
}

/** "获取验证码" text button with its countdown. */
export function CodeButton({ seconds, loading, loadingText, onClick }: CodeButtonProps) {
  const counting = seconds > 0;
  return (
    <button type="button" className={styles.button} disabled={counting || loading} onClick={onClick}>
      {counting ? `${seconds}s后重新获取` : loading ? (loadingText ?? '发送中…') : '获取验证码'}
    </button>
  );
}
