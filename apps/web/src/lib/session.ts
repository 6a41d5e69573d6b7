import { STORAGE_KEYS } from '@/config/constants';
import { storage } from './storage';

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

/** Forgets the logged-in user. The channel code and visitor id stay: they belong to the device. */
export function clearSession(): void {
  storage.remove(STORAGE_KEYS.token, STORAGE_KEYS.uid, STORAGE_KEYS.phone, STORAGE_KEYS.userInfo);
  try {
    window.sessionStorage.clear();
  } catch {
    // Session storage unavailable.
  }
}
