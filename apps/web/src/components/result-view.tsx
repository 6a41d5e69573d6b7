import type { ReactNode } from 'react';
import styles from './feedback.module.css';

export type ResultStatus = 'success' | 'waiting' | 'error' | 'info';

interface ResultViewProps {
  status: ResultStatus;
  title: string;
  description?: ReactNode;
  /** Extra content under the text (details, steps), then the actions. */
  children?: ReactNode;
  actions?: ReactNode;
}

function ResultIcon({ status }: { status: ResultStatus }) {
  const color =
    status === 'success'
      ? '#22b35e'
      : status === 'error'
        ? '#ff4d4f'
        : status === 'waiting'
          ? 'var(--app-primary)'
          : '#1677ff';
  const ring = { fill: 'none', stroke: color, strokeWidth: 4, opacity: 0.18 } as const;
  const mark = {
    fill: 'none',
    stroke: color,
    strokeWidth: 5,
    strokeLinecap: 'round',
    strokeLinejoin: 'round',
  } as const;
  return (
    <svg className={styles.resultIcon} viewBox="0 0 72 72" aria-hidden="true" focusable="false">
      <circle cx="36" cy="36" r="33" style={ring} />
      <circle cx="36" cy="36" r="26" style={{ fill: color }} opacity="0.12" />
      {status === 'success' && <path d="M24 37l8 8 16-17" style={mark} />}
      {status === 'error' && <path d="M27 27l18 18M45 27 27 45" style={mark} />}
      {status === 'waiting' && <path d="M36 22v15l9 6" style={mark} />}
      {status === 'info' && <path d="M36 26v2M36 35v12" style={mark} />}
    </svg>
  );
}

/** A result page body: status drawing, title, description, details and actions. */
export function ResultView({ status, title, description, children, actions }: ResultViewProps) {
  return (
    <section className={styles.result}>
      <ResultIcon status={status} />
      <h1 className={styles.resultTitle}>{title}</h1>
      {description && <p className={styles.resultText}>{description}</p>}
      {children}
      {actions && <div className={styles.resultActions}>{actions}</div>}
    </section>
  );
}
