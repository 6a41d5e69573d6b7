import type { ReactNode } from 'react';
import styles from './page-state.module.css';

interface PageStateProps {
  title: string;
  description: string;
  /** The call to action (a link or a button); give it `pageStateActionClass`. */
  children?: ReactNode;
}

export const pageStateActionClass = styles.action;

/** Full-page message (not found, load failure). Plain markup: it is part of the entry bundle. */
export function PageState({ title, description, children }: PageStateProps) {
  return (
    <main className={styles.state}>
      <h1>{title}</h1>
      <p>{description}</p>
      {children}
    </main>
  );
}
