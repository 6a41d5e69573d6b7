import { toast } from './toast';

/** Spec §9: a script chunk that has not loaded after 120 s counts as failed. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/** Reports a failed chunk (real-user monitoring sets it: features/rum/chunk-guard.ts). */
let reportFailure: () => void = () => undefined;
export function setChunkFailureReporter(report: () => void): void {
  reportFailure = report;
}

/** sessionStorage key prefix: this path was already reloaded once for a failed chunk. */
export const RELOAD_GUARD_KEY = 'lm_chunk_reload:';

/** What a person is told when a part of the page cannot be loaded for want of a network (as elsewhere). */
export const NETWORK_ERROR_MESSAGE = '网络连接错误';

/** The longest wait between two tries of a chunk while the browser says it is online. */
export const MAX_RETRY_DELAY_MS = 30_000;

type GuardStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface ChunkGuardDeps {
  /** Session storage, or null when unavailable (then no reload: nothing could stop a loop). */
  storage(): GuardStorage | null;
  path(): string;
  reload(): void;
  report(): void;
  timeoutMs: number;
  /** navigator.onLine: false is certain (no network); true may still be a dead network. */
  online(): boolean;
  /** Whether the server answers at all (a chunk it no longer has is not a network failure). */
  reachable(): Promise<boolean>;
  /** Says 网络连接错误 (a toast). */
  notify(): void;
  /** Loaded after waiting: takes back a 网络连接错误 still on screen (it is no longer true). */
  recovered(): void;
  /** Resolves at the next chance to try again: back online, the person's next touch or key, or a pause. */
  nextChance(attempt: number): Promise<void>;
  /** Loads again the stylesheets that failed, so a retried chunk is not shown unstyled. */
  repair(): Promise<void>;
}

/**
 * What to do after a chunk (or its stylesheet) failed to load:
 * - `wait`: the network is gone (offline, or the server does not answer): keep the page, say 网络连接错误
 *   and try again later — reloading now would replace the page with the browser's own error page;
 * - `reload`: the server answers but the chunk is gone (a deploy replaced it): reload once, the new HTML
 *   names the current chunks;
 * - `fail`: it was reloaded already: the error page with its retry button.
 */
export type ChunkFailureAction = 'wait' | 'reload' | 'fail';

export function chunkFailureAction(state: { online: boolean; reachable: boolean; reloadAvailable: boolean }) {
  if (!state.online || !state.reachable) return 'wait' satisfies ChunkFailureAction;
  return (state.reloadAvailable ? 'reload' : 'fail') satisfies ChunkFailureAction;
}

/** The pause before the next try (`attempt` 0 = after the first failure): 1 s, 2 s, 4 s … at most 30 s. */
export function retryDelayMs(attempt: number): number {
  return Math.min(MAX_RETRY_DELAY_MS, 1000 * 2 ** Math.max(0, Math.min(attempt, 15)));
}

/** Whether a try is worth a new toast: not while the last one (2 s) is still shown. */
export function shouldNotify(now: number, lastShownAt: number | null, toastMs = 2000): boolean {
  return lastShownAt === null || now - lastShownAt >= toastMs;
}

/** Stylesheets (<link rel=stylesheet>) whose load failed, seen by the capture listener below. */
const failedSheets = new Set<HTMLLinkElement>();

function watchStylesheets(): void {
  if (typeof window === 'undefined') return;
  // Resource errors do not bubble, but a capturing listener on window sees them.
  window.addEventListener(
    'error',
    (event) => {
      const el = event.target;
      if (el instanceof HTMLLinkElement && el.rel === 'stylesheet') failedSheets.add(el);
    },
    true,
  );
  // Vite's preload helper fires `vite:preloadError` before rejecting the import ("Unable to preload
  // CSS for …"). It is deliberately not prevented: the chunk would then run without its stylesheet.
  // The import rejects, and the retry in loadChunk loads the stylesheet again first (Vite itself never
  // fetches a stylesheet twice).
}
watchStylesheets();

/** Loads each failed stylesheet again (a new element: the failed one is never fetched again). */
export function repairStylesheets(): Promise<void> {
  const pending = [...failedSheets].map((old) => {
    failedSheets.delete(old);
    if (!old.isConnected) return Promise.resolve();
    const fresh = old.cloneNode() as HTMLLinkElement;
    return new Promise<void>((resolve, reject) => {
      fresh.addEventListener('load', () => {
        old.remove();
        resolve();
      });
      fresh.addEventListener('error', () => {
        fresh.remove();
        failedSheets.delete(fresh);
        failedSheets.add(old);
        reject(new Error(`Unable to load CSS ${old.href}`));
      });
      old.after(fresh);
    });
  });
  return Promise.all(pending).then(() => undefined);
}

const INTERACTIONS = ['pointerdown', 'keydown', 'touchstart'] as const;

/** Back online, the next touch or key, or (while the browser says online) a growing pause. */
function nextChance(attempt: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      window.removeEventListener('online', done);
      for (const type of INTERACTIONS) window.removeEventListener(type, done, true);
      resolve();
    };
    const timer = setTimeout(done, navigator.onLine ? retryDelayMs(attempt) : MAX_RETRY_DELAY_MS);
    window.addEventListener('online', done);
    for (const type of INTERACTIONS) window.addEventListener(type, done, { capture: true, passive: true });
  });
}

async function serverAnswers(): Promise<boolean> {
  // A controller and a timer, not AbortSignal.timeout (Chrome 103, iOS 16): on an older engine that threw,
  // and a chunk gone after a deploy read as a lost network forever.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 5000);
  try {
    await fetch('/', { method: 'HEAD', cache: 'no-store', signal: controller.signal });
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

let lastNotifiedAt: number | null = null;

const browserDeps: ChunkGuardDeps = {
  storage: () => sessionStorage,
  path: () => location.pathname,
  reload: () => location.reload(),
  report: () => reportFailure(),
  timeoutMs: CHUNK_LOAD_TIMEOUT_MS,
  online: () => navigator.onLine,
  reachable: serverAnswers,
  notify: () => {
    const now = Date.now();
    if (!shouldNotify(now, lastNotifiedAt)) return;
    lastNotifiedAt = now;
    toast.show({ content: NETWORK_ERROR_MESSAGE, duration: 2000 });
  },
  recovered: () => {
    if (lastNotifiedAt !== null && !shouldNotify(Date.now(), lastNotifiedAt)) toast.clear();
    lastNotifiedAt = null;
  },
  nextChance,
  repair: repairStylesheets,
};

/** Whether to reload for a failed chunk on `path`: the first time only (and marks it). */
export function claimReload(storage: () => GuardStorage | null, path: string): boolean {
  try {
    const s = storage();
    const key = RELOAD_GUARD_KEY + path;
    if (!s || s.getItem(key) !== null) return false;
    s.setItem(key, '1');
    return s.getItem(key) !== null;
  } catch {
    return false;
  }
}

/** Whether a reload is still allowed for `path` (without marking it). */
function reloadAvailable(storage: () => GuardStorage | null, path: string): boolean {
  try {
    const s = storage();
    return s !== null && s.getItem(RELOAD_GUARD_KEY + path) === null;
  } catch {
    return false;
  }
}

function withTimeout<M>(load: Promise<M>, ms: number): Promise<M> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    load,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('页面资源加载超时')), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Loads a chunk (a page, or a part of one such as the home dialog). A failure — or no answer within
 * 120 s (spec §9) — is reported once as CHUNK_ERROR, then (docs/decisions/058):
 * - without a network (offline, or the server does not answer): 网络连接错误, and it is tried again
 *   when the browser is back online, at the person's next touch or key, or after a pause (1 s, 2 s …
 *   30 s); the promise stays pending meanwhile, so the page on screen stays (a navigation to a page
 *   whose chunk is missing is a transition React keeps waiting on; a part shows its placeholder);
 * - the server answers but the chunk is gone (after a deploy): the page is reloaded once, the promise
 *   staying pending until then; if the same page fails again it rejects with a ChunkLoadError and the
 *   route's error page offers a retry: never a white screen.
 * A successful load clears the reload mark, so a later failure may reload once again.
 */
export function loadChunk<M>(load: () => Promise<M>, deps: ChunkGuardDeps = browserDeps): Promise<M> {
  const path = deps.path();
  let reported = false;
  const attempt = async (n: number): Promise<M> => {
    try {
      if (n > 0) await deps.repair();
      const module = await withTimeout(load(), deps.timeoutMs);
      if (n > 0) deps.recovered();
      try {
        deps.storage()?.removeItem(RELOAD_GUARD_KEY + path);
      } catch {
        // Nothing to clear.
      }
      return module;
    } catch (error) {
      if (!reported) {
        reported = true;
        try {
          deps.report();
        } catch {
          // Reporting never stands in the way of recovering.
        }
      }
      const online = deps.online();
      const action = chunkFailureAction({
        online,
        reachable: online && (await deps.reachable()),
        reloadAvailable: reloadAvailable(deps.storage, path),
      });
      if (action === 'wait') {
        deps.notify();
        await deps.nextChance(n);
        return attempt(n + 1);
      }
      if (action === 'reload' && claimReload(deps.storage, path)) {
        deps.reload();
        return new Promise<never>(() => {});
      }
      const failed = new Error((error as Error | undefined)?.message || '页面资源加载失败');
      failed.name = 'ChunkLoadError';
      throw failed;
    }
  };
  return attempt(0);
}
