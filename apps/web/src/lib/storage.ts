/**
 * localStorage that never throws (Safari private mode and some in-app webviews refuse writes).
 */
export const storage = {
  get(key: string): string | null {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: string, value: string): void {
    try {
      window.localStorage.setItem(key, value);
    } catch {
      // Storage unavailable: the value lives for this page only.
    }
  },
  remove(...keys: string[]): void {
    try {
      for (const key of keys) window.localStorage.removeItem(key);
    } catch {
      // Nothing to remove.
    }
  },
};
