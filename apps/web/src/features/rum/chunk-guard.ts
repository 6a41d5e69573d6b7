import { CHUNK_LOAD_TIMEOUT_MS, postItems, tagged } from './config';

/** sessionStorage key prefix: this path was already reloaded once for a failed chunk. */
export const RELOAD_GUARD_KEY = 'lm_chunk_reload:';

type GuardStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface ChunkGuardDeps {
  /** Session storage, or null when unavailable (then no reload: nothing could stop a loop). */
  storage(): GuardStorage | null;
  path(): string;
  reload(): void;
  report(): void;
  timeoutMs: number;
}

const browserDeps: ChunkGuardDeps = {
  storage: () => sessionStorage,
  path: () => location.pathname,
  reload: () => location.reload(),
  report: () => postItems([tagged('CHUNK_ERROR', 1)]),
  timeoutMs: CHUNK_LOAD_TIMEOUT_MS,
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

/**
 * Loads a page chunk. A failure — or no answer within 120 s (spec §9) — is reported as CHUNK_ERROR
 * and reloads the page once (after a deploy the new HTML names the current chunks); the promise
 * then stays pending so the loading indicator shows until the reload. If the same page fails again
 * it rejects with a ChunkLoadError and the route's error page offers a retry: never a white screen.
 * A successful load clears the mark, so a later failure may reload once again.
 */
export function loadChunk<M>(load: () => Promise<M>, deps: ChunkGuardDeps = browserDeps): Promise<M> {
  const path = deps.path();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const settle = () => clearTimeout(timer);
  return Promise.race([
    load(),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('页面资源加载超时')), deps.timeoutMs);
    }),
  ]).then(
    (module) => {
      settle();
      try {
        deps.storage()?.removeItem(RELOAD_GUARD_KEY + path);
      } catch {
        // Nothing to clear.
      }
      return module;
    },
    (error: Error) => {
      settle();
      try {
        deps.report();
      } catch {
        // Reporting never stands in the way of recovering.
      }
      if (claimReload(deps.storage, path)) {
        deps.reload();
        return new Promise<never>(() => {});
      }
      const failed = new Error(error?.message || '页面资源加载失败');
      failed.name = 'ChunkLoadError';
      throw failed;
    },
  );
}
