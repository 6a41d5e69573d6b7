import styles from './landing.module.css';

/**
 * Holds the login form's place while its chunk loads (same height, so nothing below moves).
 */
export function LoginPlaceholder() {
  return (
    <div className={styles.placeholder} aria-hidden="true">
      <span />
      <span />
      <span className={styles.placeholderButton} />
      <span className={styles.placeholderLine} />
    </div>
  );
}
