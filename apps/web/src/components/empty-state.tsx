import type { ReactNode } from 'react';
import styles from './feedback.module.css';

interface EmptyStateProps {
  title: string;
  description?: ReactNode;
  /** The call to action (a Button or a Link). */
  children?: ReactNode;
  /** Smaller, for a section inside a page rather than the whole page. */
  compact?: boolean;
}

/** Nothing to show yet: our own empty-box drawing, a title, a hint and an action. */
export function EmptyState({ title, description, children, compact }: EmptyStateProps) {
  return (
    <div className={compact ? `${styles.empty} ${styles.compact}` : styles.empty}>
      <svg className={styles.emptyArt} viewBox="0 0 120 90" aria-hidden="true" focusable="false">
        <ellipse cx="60" cy="80" rx="44" ry="6" fill="#f0f0f0" />
        <path d="M24 38 60 26l36 12v34L60 84 24 72Z" fill="#fafafa" stroke="#e5e5e5" strokeWidth="2" />
        <path d="M24 38 60 50l36-12M60 50v34" fill="none" stroke="#e5e5e5" strokeWidth="2" />
        <path
          d="M24 38 14 50l36 12 10-12M96 38l10 12-36 12-10-12"
          fill="#fff"
          stroke="#e5e5e5"
          strokeWidth="2"
        />
        <circle cx="86" cy="16" r="8" style={{ fill: 'var(--app-primary-light)' }} />
        <path
          d="M83 16h6M86 13v6"
          style={{ stroke: 'var(--app-primary)', strokeWidth: 2, strokeLinecap: 'round' }}
        />
      </svg>
      <p className={styles.emptyTitle}>{title}</p>
      {description && <p className={styles.emptyText}>{description}</p>}
      {children && <div className={styles.emptyAction}>{children}</div>}
    </div>
  );
}
