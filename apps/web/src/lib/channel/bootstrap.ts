/** Channel bootstrap in the browser: `runChannelBootstrap` (resolve.ts) wired to the page. */
import { navigateTo } from '@/lib/navigation';
import { sessionStore, storage } from '@/lib/storage';
import { exchangeRouteCode } from './api/exchange-route-code';
import { fetchH5Config } from './api/fetch-h5-config';
import { takeInlinedChannel } from './inlined';
import { type BootstrapDeps, type BootstrapResult, runChannelBootstrap } from './resolve';
import { useChannelStore } from './store';

export type { BootstrapResult } from './resolve';

function browserDeps(): BootstrapDeps {
  const store = useChannelStore.getState();
  return {
    href: window.location.href,
    local: storage,
    session: sessionStore,
    now: () => Date.now(),
    exchangeRouteCode,
    fetchH5Config,
    navigate: (path) => navigateTo(path, { replace: true }),
    replaceLocation: (target) => window.location.replace(target),
    reload: (href) => {
      if (window.location.href === href) window.location.reload();
      else window.location.replace(href);
    },
    log: (message, detail) => console.warn(`[channel] ${message}`, detail ?? ''),
    setChannel: store.setChannel,
    setConfig: store.setConfig,
    setStatus: store.setStatus,
    setPreview: store.setPreview,
    inlined: takeInlinedChannel(),
  };
}

let started: Promise<BootstrapResult> | null = null;

/** Resolves the channel once per page load (later calls share the first run). */
export function bootstrapChannel(deps?: BootstrapDeps): Promise<BootstrapResult> {
  started ??= runChannelBootstrap(deps ?? browserDeps());
  return started;
}

/**
 * The bootstrap result, for code that needs the channel (analytics, post-login decision). Resolves
 * with null after `timeoutMs` or when the bootstrap was never started.
 */
export function whenChannelReady(timeoutMs = 5000): Promise<BootstrapResult | null> {
  if (!started) return Promise.resolve(null);
  return Promise.race([
    started.catch(() => null),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), timeoutMs)),
  ]);
}
