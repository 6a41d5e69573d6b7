import styles from './code-button.module.css';

interface CodeButtonProps {
  seconds: number;
  loading: boolean;
  onClick: () => void;
}

/** "获取验证码" text button with its countdown. */
export function CodeButton({ seconds, loading, onClick }: CodeButtonProps) {
  const counting = seconds > 0;
  return (
    <button type="button" className={styles.button} disabled={counting || loading} onClick={onClick}>
      {counting ? `${seconds}s后重新获取` : loading ? '发送中…' : '获取验证码'}
    </button>
  );
}
