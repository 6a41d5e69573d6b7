/**
 * Device fingerprint: FingerprintJS (MIT 3.x) visitorId, computed once per device and kept in
 * localStorage `VISITORID` (the api-client reads it from there for platform_param).
 *
 * The library (≈13 KB gzipped) is imported lazily and only started by `scheduleFingerprint`: on the
 * visitor's first interaction, or when the page has been loaded and idle for a few seconds, whichever
 * comes first. So it never competes with the first screen; reports that want the fingerprint wait for it
 * (`fingerprintWithin`) without starting it themselves.
 */
import { STORAGE_KEYS } from '@/config/constants';
import { getFingerprint } from '@/lib/device';
import { storage } from '@/lib/storage';

/** Start the computation this long after load when nobody has interacted yet. */
export const FINGERPRINT_IDLE_DELAY_MS = 3000;

let pending: Promise<string> | null = null;
const waiters = new Set<(id: string) => void>();

/** Computes (once per page) and stores the fingerprint; '' when it cannot be computed. */
export function loadFingerprint(): Promise<string> {
  const stored = getFingerprint();
  if (stored) return Promise.resolve(stored);
  pending ??= import('@fingerprintjs/fingerprintjs')
    .then(async ({ hashComponents, loadSources, prepareForSources, sources }) => {
      // Every built-in source except domBlockers: on mobile Safari/Android it probes ad-blocker
      // filters by creating elements with inline event-handler attributes, which our CSP
      // (script-src-attr 'none') blocks and reports as console errors.
      await prepareForSources();
      const getComponents = loadSources(sources, { debug: false }, ['domBlockers'] as const);
      const visitorId = hashComponents(await getComponents());
      storage.set(STORAGE_KEYS.visitorId, visitorId);
      return visitorId;
    })
    .catch((error: unknown) => {
      console.warn('[analytics] fingerprint unavailable', error);
      pending = null;
      return '';
    })
    .then((id) => {
      for (const resolve of waiters) resolve(id);
      waiters.clear();
      return id;
    });
  return pending;
}

/** The fingerprint once computed, waiting at most `timeoutMs` ('' when not ready by then). */
export function fingerprintWithin(timeoutMs: number): Promise<string> {
  const stored = getFingerprint();
  if (stored) return Promise.resolve(stored);
  return new Promise((resolve) => {
    const done = (id: string) => {
      clearTimeout(timer);
      waiters.delete(done);
      resolve(id);
    };
    const timer = setTimeout(() => done(getFingerprint()), timeoutMs);
    waiters.add(done);
  });
}

const INTERACTIONS = ['pointerdown', 'keydown', 'touchstart', 'scroll'] as const;

/** Starts the fingerprint on the first interaction or a few idle seconds after load. */
export function scheduleFingerprint(): void {
  if (typeof window === 'undefined' || getFingerprint() || pending) return;
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    for (const type of INTERACTIONS) window.removeEventListener(type, start, true);
    void loadFingerprint();
  };
  for (const type of INTERACTIONS)
    window.addEventListener(type, start, { capture: true, passive: true, once: true });
  const afterLoad = () => {
    setTimeout(() => {
      if ('requestIdleCallback' in window) window.requestIdleCallback(start, { timeout: 2000 });
      else start();
    }, FINGERPRINT_IDLE_DELAY_MS);
  };
  if (document.readyState === 'complete') afterLoad();
  else window.addEventListener('load', afterLoad, { once: true });
}
