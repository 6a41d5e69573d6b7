/** A string key-value store (localStorage, sessionStorage, or a Map in unit tests). */
export interface KeyValueStore {
  get(key: string): string | null;
  set(key: string, value: string): void;
  remove(...keys: string[]): void;
}

function webStore(pick: () => Storage): KeyValueStore {
  return {
    get(key) {
      try {
        return pick().getItem(key);
      } catch {
        return null;
      }
    },
    set(key, value) {
      try {
        pick().setItem(key, value);
      } catch {
        // Storage unavailable: the value lives for this page only.
      }
    },
    remove(...keys) {
      try {
        for (const key of keys) pick().removeItem(key);
      } catch {
        // Nothing to remove.
      }
    },
  };
}

/** localStorage that never throws (Safari private mode and some in-app webviews refuse writes). */
export const storage: KeyValueStore = webStore(() => window.localStorage);

/** sessionStorage that never throws. */
export const sessionStore: KeyValueStore = webStore(() => window.sessionStorage);

/** An in-memory store (unit tests, or when no web storage exists). */
export function memoryStore(
  initial: Record<string, string> = {},
): KeyValueStore & { dump(): Record<string, string> } {
  const map = new Map(Object.entries(initial));
  return {
    get: (key) => map.get(key) ?? null,
    set: (key, value) => {
      map.set(key, value);
    },
    remove: (...keys) => {
      for (const key of keys) map.delete(key);
    },
    dump: () => Object.fromEntries(map),
  };
}

/** Reads a JSON value; anything unreadable counts as absent. */
export function readJson<T>(store: KeyValueStore, key: string): T | null {
  const raw = store.get(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export function writeJson(store: KeyValueStore, key: string, value: unknown): void {
  store.set(key, JSON.stringify(value));
}
