import { useEffect, useRef, useState } from 'react';
import styles from './feedback.module.css';

interface ProgressRingProps {
  /** Milliseconds from 0 to 100 %. The ring eases out, so most of the motion is early. */
  durationMs: number;
  /** Step labels; each is ticked when the progress passes its share. */
  steps: readonly string[];
  /** Called once when 100 % is reached. */
  onDone?: () => void;
}

const easeOut = (t: number) => 1 - (1 - t) ** 3;
const R = 52;
const CIRCUMFERENCE = 2 * Math.PI * R;

/** An animated percentage ring with a checklist — the waiting and loading pages. */
export function ProgressRing({ durationMs, steps, onDone }: ProgressRingProps) {
  const [percent, setPercent] = useState(0);
  const doneRef = useRef(onDone);
  doneRef.current = onDone;

  useEffect(() => {
    let frame = 0;
    let start = 0;
    let finished = false;
    const tick = (now: number) => {
      if (!start) start = now;
      const value = Math.round(easeOut(Math.min(1, (now - start) / durationMs)) * 100);
      setPercent(value);
      if (value >= 100) {
        if (!finished) {
          finished = true;
          doneRef.current?.();
        }
        return;
      }
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [durationMs]);

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
