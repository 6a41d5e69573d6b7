import { useCallback, useEffect, useState } from 'react';

/**
 * The one countdown of both front ends (ADR 028), e.g. the SMS code button.
 * A seconds countdown that follows the wall clock, so it stays right when the tab was in the background.
 */
export function useCountdown() {
  const [endAt, setEndAt] = useState(0);
  const [seconds, setSeconds] = useState(0);

  useEffect(() => {
    if (endAt === 0) return;
    const tick = () => {
      const left = Math.max(0, Math.ceil((endAt - Date.now()) / 1000));
      setSeconds(left);
      if (left === 0) setEndAt(0);
    };
    tick();
    const timer = setInterval(tick, 250);
    return () => clearInterval(timer);
  }, [endAt]);

  const start = useCallback((duration: number) => {
    if (duration > 0) setEndAt(Date.now() + duration * 1000);
  }, []);

  return { seconds, running: seconds > 0, start };
}
