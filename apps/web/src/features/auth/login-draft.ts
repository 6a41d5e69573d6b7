import { type KeyValueStore, readJson, sessionStore, writeJson } from '@/lib/storage';

/**
 * What the login form keeps for this tab until the person logs in (sessionStorage; a logout clears it with the
 * rest of the session): the phone typed, and until when the code button waits after a code was sent. A reload,
 * or a look at an agreement page and back, then finds the phone where it was and the button still counting,
 * instead of an empty field and a button that only answers "验证码已发送，请N秒后再试".
 */
export const LOGIN_DRAFT_KEY = 'LOGIN_DRAFT';

interface StoredDraft {
  phone?: unknown;
  resendAt?: unknown;
}

export interface LoginDraft {
  /** Digits typed so far ('' when none). */
  phone: string;
  /** Seconds the code button still waits (0: it does not). */
  resendSeconds: number;
}

export function readLoginDraft(store: KeyValueStore = sessionStore, now = Date.now()): LoginDraft {
  const stored = readJson<StoredDraft>(store, LOGIN_DRAFT_KEY);
  const phone = typeof stored?.phone === 'string' && /^\d{0,11}$/.test(stored.phone) ? stored.phone : '';
  const resendAt = typeof stored?.resendAt === 'number' ? stored.resendAt : 0;
  return { phone, resendSeconds: Math.max(0, Math.ceil((resendAt - now) / 1000)) };
}

/** Keeps the phone typed (the wait after a send stays as it was). */
export function keepLoginPhone(phone: string, store: KeyValueStore = sessionStore, now = Date.now()): void {
  save(store, phone, readLoginDraft(store, now).resendSeconds, now);
}

/** Keeps that the code button waits `seconds` from now, for the phone it was sent to. */
export function keepCodeWait(
  phone: string,
  seconds: number,
  store: KeyValueStore = sessionStore,
  now = Date.now(),
): void {
  save(store, phone, Math.max(0, seconds), now);
}

export function forgetLoginDraft(store: KeyValueStore = sessionStore): void {
  store.remove(LOGIN_DRAFT_KEY);
}

function save(store: KeyValueStore, phone: string, waitSeconds: number, now: number): void {
  if (!phone && waitSeconds === 0) {
    store.remove(LOGIN_DRAFT_KEY);
    return;
  }
  writeJson(store, LOGIN_DRAFT_KEY, {
    phone,
    ...(waitSeconds > 0 ? { resendAt: now + waitSeconds * 1000 } : {}),
  });
}
