/**
 * The known-device token a login answers (ADR 055), kept in localStorage and sent as header X-Known-Device on the
 * send-code and login calls of the app that got it: the server then counts this device's code requests in its own
 * budget, which strangers cannot spend, and (console) does not apply the account's password lock to it.
 */
export const KNOWN_DEVICE_HEADER = 'X-Known-Device';

export interface KnownDeviceStore {
  get(): string | null;
  set(token: string | undefined): void;
  /** `{X-Known-Device: token}` when one is kept, else no header. */
  headers(): Record<string, string>;
}

export function knownDeviceStore(
  key: string,
  storage: () => Storage | undefined = defaultStorage,
): KnownDeviceStore {
  const get = () => {
    try {
      const value = storage()?.getItem(key) ?? null;
      return value && /^[A-Za-z0-9_-]{20,128}$/.test(value) ? value : null;
    } catch {
      return null; // storage blocked (private mode, policies): no known device
    }
  };
  return {
    get,
    set(token) {
      if (!token) return;
      try {
        storage()?.setItem(key, token);
      } catch {
        // Not kept: the next login answers a new one.
      }
    },
    headers(): Record<string, string> {
      const token = get();
      const out: Record<string, string> = {};
      if (token) out[KNOWN_DEVICE_HEADER] = token;
      return out;
    },
  };
}

function defaultStorage(): Storage | undefined {
  return typeof localStorage === 'undefined' ? undefined : localStorage;
}
