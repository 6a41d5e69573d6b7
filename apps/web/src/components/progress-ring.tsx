import { useEffect, useRef, useState } from 'react';
import styles from './feedback.module.css';
import { progressAt } from './progress-curve';

interface ProgressRingProps {
  /** The work is done (its answer arrived): the ring runs to 100 % within FINISH_MS. */
  done: boolean;
  /** Step labels; each is ticked when the progress passes its share. */
  steps: readonly string[];
}

const R = 52;
const CIRCUMFERENCE = 2 * Math.PI * R;

/**
 * An animated percentage ring with a checklist — the waiting and loading pages. It follows the work
 * (progress-curve.ts): it climbs while the work runs and completes once `done`; it holds nobody up.
 */
export function ProgressRing({ done, steps }: ProgressRingProps) {
  const [percent, setPercent] = useState(0);
  const startRef = useRef<number | null>(null);
  const doneAtRef = useRef<number | null>(null);

  useEffect(() => {
    const now = performance.now();
    startRef.current ??= now;
    if (done && doneAtRef.current === null) doneAtRef.current = now - startRef.current;
    let frame = 0;
    const tick = (time: number) => {
      const start = startRef.current ?? time;
      const value = progressAt(Math.max(0, time - start), doneAtRef.current);
      setPercent(value);
      if (value < 100) frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [done]);

  const activeIndex = Math.min(steps.length - 1, Math.floor((percent / 100) * steps.length));
  return (
    <div className={styles.progress}>
      <div
        className={styles.ring}
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-label="处理进度"
      >
        <svg viewBox="0 0 120 120" aria-hidden="true" focusable="false">
          <circle cx="60" cy="60" r={R} className={styles.ringTrack} />
          <circle
            cx="60"
            cy="60"
            r={R}
            className={styles.ringBar}
            strokeDasharray={CIRCUMFERENCE}
            strokeDashoffset={CIRCUMFERENCE * (1 - percent / 100)}
          />
        </svg>
        <span className={styles.ringValue}>
          {percent}
          <small>%</small>
        </span>
      </div>
      <ol className={styles.checklist}>
        {steps.map((step, i) => {
          const state = percent >= 100 || i < activeIndex ? 'done' : i === activeIndex ? 'active' : 'todo';
          return (
            <li key={step} data-state={state}>
              <span className={styles.checkDot} aria-hidden="true" />
              {step}
              <span className={styles.srOnly}>
                {state === 'done' ? '（已完成）' : state === 'active' ? '（进行中）' : ''}
              </span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
