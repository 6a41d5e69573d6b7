import { useSyncExternalStore } from 'react';

/** Below antd's `lg` breakpoint (992 px): phones and small tablets. */
const NARROW_QUERY = '(max-width: 991.98px)';

function subscribe(onChange: () => void) {
  const list = window.matchMedia(NARROW_QUERY);
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
}

/**
 * Whether the console is on a narrow screen, known on the first render (antd's Grid.useBreakpoint
 * only knows after an effect, so a phone would first get the desktop layout).
 */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(NARROW_QUERY).matches,
    () => false,
  );
}
