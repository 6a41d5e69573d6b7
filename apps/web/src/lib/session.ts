import { SESSION_KEYS, STORAGE_KEYS } from '@/config/constants';
import { forgetDraftsOfOthers, isDraftKey } from './form-drafts';
import { sessionStore, storage } from './storage';

export function getToken(): string | null {
  return storage.get(STORAGE_KEYS.token);
}

export function isLoggedIn(): boolean {
  return Boolean(getToken());
}

/** Stores the login; another person's form drafts left on the device are removed (issue 16.3). */
export function saveSession(session: { token: string; uid: number | string; phone: string }): void {
  forgetDraftsOfOthers(String(session.uid));
  storage.set(STORAGE_KEYS.token, session.token);
  storage.set(STORAGE_KEYS.uid, String(session.uid));
  storage.set(STORAGE_KEYS.phone, session.phone);
}

/** The logged-in person's uid as stored at login, or null. */
export function getStoredUid(): string | null {
  return isLoggedIn() ? storage.get(STORAGE_KEYS.uid) : null;
}

export function getStoredPhone(): string | null {
  return storage.get(STORAGE_KEYS.phone);
}

/**
 * Forgets the logged-in user and the session's flow state (match results …). The channel code and
 * visitor id stay: they belong to the device; so do the analytics session and the closed-channel
 * reload guard: they belong to the browser session, not to the user. The person's form drafts stay
 * too (keyed by their uid): a re-login after an expired token finds what they typed (issue 16.3).
 */
export function clearSession(): void {
  storage.remove(STORAGE_KEYS.token, STORAGE_KEYS.uid, STORAGE_KEYS.phone, STORAGE_KEYS.userInfo);
  const keys = [...Object.values(SESSION_KEYS), ...sessionDraftKeys()];
  const keep = keys.map((key) => [key, sessionStore.get(key)] as const);
  try {
    window.sessionStorage.clear();
  } catch {
    // Session storage unavailable.
  }
  for (const [key, value] of keep) if (value !== null) sessionStore.set(key, value);
}

function sessionDraftKeys(): string[] {
  try {
    return Object.keys(window.sessionStorage).filter(isDraftKey);
  } catch {
    return [];
  }
}
