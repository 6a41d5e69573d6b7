/**
 * What the identity page hands to the loading page and back:
 * - the uploaded selfie's URL (sessionStorage, so a reload of the loading page still has it until a
 *   decision was recorded);
 * - the last failure's reasons (sessionStorage), shown on the identity page on return;
 * - the name and ID number the person confirmed, in memory only (never written to storage) and only
 *   for the login that confirmed them: sent with the face check for a service that compares the face
 *   with the ID photo, and used to skip the identity step when the person comes back to retake the
 *   selfie.
 * Logging out clears session storage, and with it the first two. What was typed or read off the card
 * before it was confirmed is the page's draft (identity-draft.ts), kept in this tab.
 */
import type { KeyValueStore } from '@/lib/storage';
import { readJson, writeJson } from '@/lib/storage';

export const FACE_SESSION_KEYS = {
  pending: 'FACE_VERIFY_PENDING',
  failure: 'FACE_VERIFY_FAILURE',
} as const;

/** A selfie older than this is not checked any more (the person takes a new one). */
export const PENDING_MAX_AGE_MS = 30 * 60_000;

export interface PendingFace {
  /** The upload's URL (`${host}/${key}`). */
  image: string;
  /** When it was uploaded (ms). */
  at: number;
}

export function savePendingFace(store: KeyValueStore, image: string, now = Date.now()): void {
  writeJson(store, FACE_SESSION_KEYS.pending, { image, at: now } satisfies PendingFace);
}

/** The selfie waiting for its check; null when none, unreadable or too old. */
export function readPendingFace(store: KeyValueStore, now = Date.now()): PendingFace | null {
  const value = readJson<Partial<PendingFace>>(store, FACE_SESSION_KEYS.pending);
  if (!value || typeof value.image !== 'string' || !value.image || typeof value.at !== 'number') return null;
  if (now - value.at > PENDING_MAX_AGE_MS || value.at > now + 60_000) return null;
  return { image: value.image, at: value.at };
}

export function clearPendingFace(store: KeyValueStore): void {
  store.remove(FACE_SESSION_KEYS.pending);
}

export interface FaceFailure {
  /** The server's reasons (Chinese), or one message of ours. */
  reasons: string[];
}

export function saveFaceFailure(store: KeyValueStore, failure: FaceFailure): void {
  writeJson(store, FACE_SESSION_KEYS.failure, failure);
}

export function readFaceFailure(store: KeyValueStore): FaceFailure | null {
  const value = readJson<Partial<FaceFailure>>(store, FACE_SESSION_KEYS.failure);
  if (!value || !Array.isArray(value.reasons)) return null;
  const reasons = value.reasons.filter((r): r is string => typeof r === 'string' && r.length > 0);
  return { reasons };
}

export function clearFaceFailure(store: KeyValueStore): void {
  store.remove(FACE_SESSION_KEYS.failure);
}

export interface ConfirmedIdentity {
  realName: string;
  identity: string;
  /** identityNameVerify's note: what was (and was not) checked. */
  note: string;
  /** identityNameVerify's verdict: null when nobody compared the name with the number. */
  verified: boolean | null;
}

let confirmed: { owner: string; value: ConfirmedIdentity } | null = null;

/** Keeps the identity for the session `owner` (the login token: another login in the tab never sees it). */
export function rememberIdentity(value: ConfirmedIdentity, owner: string | null): void {
  confirmed = owner ? { owner, value: { ...value } } : null;
}

/** The identity confirmed in this session; null for another (or no) session. */
export function confirmedIdentity(owner: string | null): ConfirmedIdentity | null {
  if (!confirmed || !owner || confirmed.owner !== owner) return null;
  return confirmed.value;
}

export function forgetIdentity(): void {
  confirmed = null;
}
