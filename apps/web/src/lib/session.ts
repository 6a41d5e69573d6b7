import { SESSION_KEYS, STORAGE_KEYS } from '@/config/constants';
import { sessionStore, storage } from './storage';

export function getToken(): string | null {
  return storage.get(STORAGE_KEYS.token);
}

export function isLoggedIn(): boolean {
  return Boolean(getToken());
}

export function saveSession(session: { token: string; uid: number | string; phone: string }): void {
  storage.set(STORAGE_KEYS.token, session.token);
  storage.set(STORAGE_KEYS.uid, String(session.uid));
  storage.set(STORAGE_KEYS.phone, session.phone);
}

export function getStoredPhone(): string | null {
  return storage.get(STORAGE_KEYS.phone);
}

/**
 * Forgets the logged-in user and the session's flow state (match results …). The channel code and
 * visitor id stay: they belong to the device; so do the analytics session and the closed-channel
 * reload guard: they belong to the browser session, not to the user.
 */
export function clearSession(): void {
  storage.remove(STORAGE_KEYS.token, STORAGE_KEYS.uid, STORAGE_KEYS.phone, STORAGE_KEYS.userInfo);
  const keep = Object.values(SESSION_KEYS).map((key) => [key, sessionStore.get(key)] as const);
  try {
    window.sessionStorage.clear();
  } catch {
    // Session storage unavailable.
  }
  for (const [key, value] of keep) if (value !== null) sessionStore.set(key, value);
}
