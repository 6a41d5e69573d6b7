/**
 * Behavior code (spec §3, §9): groups one visitor's events. Reused while under one hour old, otherwise a
 * new one: the timestamp in ms followed by 4 random digits. Stored with its creation time.
 */
import { STORAGE_KEYS } from '@/config/constants';
import { type KeyValueStore, readJson, storage, writeJson } from '@/lib/storage';

export const BEHAVIOR_CODE_TTL_MS = 3_600_000;

export interface StoredBehaviorCode {
  code: string;
  /** Creation time, ms since the epoch. */
  timestamp: number;
}

export function newBehaviorCode(now: number, random: () => number = Math.random): string {
  const digits = Math.min(9999, Math.floor(random() * 10_000));
  return `${now}${String(digits).padStart(4, '0')}`;
}

/** Reuses `stored` when it is valid and under one hour old at `now`, else makes a new code. */
export function resolveBehaviorCode(
  stored: StoredBehaviorCode | null | undefined,
  now: number,
  random: () => number = Math.random,
): { value: StoredBehaviorCode; reused: boolean } {
  const age = stored ? now - stored.timestamp : Number.NaN;
  if (
    stored &&
    typeof stored.code === 'string' &&
    /^\d{1,20}$/.test(stored.code) &&
    age >= 0 &&
    age < BEHAVIOR_CODE_TTL_MS
  ) {
    return { value: stored, reused: true };
  }
  return { value: { code: newBehaviorCode(now, random), timestamp: now }, reused: false };
}

/** The current behavior code (made and stored when needed). */
export function getBehaviorCode(store: KeyValueStore = storage, now: number = Date.now()): string {
  const { value, reused } = resolveBehaviorCode(
    readJson<StoredBehaviorCode>(store, STORAGE_KEYS.behaviorCode),
    now,
  );
  if (!reused) writeJson(store, STORAGE_KEYS.behaviorCode, value);
  return value.code;
}
