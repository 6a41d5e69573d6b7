import styles from './page-state.module.css';

/** Route-chunk fallback. Plain CSS on purpose: it is part of the entry bundle. */
export function PageLoading() {
  return (
    <output className={styles.loading} aria-label="加载中">
      <span className={styles.spinner} />
    </output>
  );
}
