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

/**
 * Built-in sources left out:
 * - domBlockers: on mobile Safari/Android it probes ad-blocker filters by creating elements with
 *   inline event-handler attributes, which our CSP (script-src-attr 'none') blocks and reports as
 *   console errors.
 * - fonts, fontPreferences: they measure text in ~60 fonts, one layout-bound task of 250–290 ms and
 *   85 ms at phone speed (most of the whole computation), for little on phones, whose fonts are
 *   those of their OS version (ADR 018).
 */
export const EXCLUDED_SOURCES: readonly string[] = ['domBlockers', 'fonts', 'fontPreferences'];

/** The sources computed, in the library's order. */
export function fingerprintSourceNames(all: readonly string[]): string[] {
  return all.filter((name) => !EXCLUDED_SOURCES.includes(name));
}

let pending: Promise<string> | null = null;
const waiters = new Set<(id: string) => void>();

/** Computes (once per page) and stores the fingerprint; '' when it cannot be computed. */
export function loadFingerprint(): Promise<string> {
  const stored = getFingerprint();
  if (stored) return Promise.resolve(stored);
  pending ??= import('@fingerprintjs/fingerprintjs')
    .then(async ({ hashComponents, loadSources, prepareForSources, sources }) => {
      await prepareForSources();
      // One source per task, in the library's order (the hash depends on it): together they were
      // one 280–530 ms task on a phone-speed CPU (Chromium at 4× slowdown), which froze taps.
      const components: Record<string, unknown> = {};
      for (const name of fingerprintSourceNames(Object.keys(sources))) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        const one = { [name]: sources[name as keyof typeof sources] } as unknown as typeof sources;
        Object.assign(components, await loadSources(one, { debug: false }, [])());
      }
      const visitorId = hashComponents(components as Awaited<ReturnType<ReturnType<typeof loadSources>>>);
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
