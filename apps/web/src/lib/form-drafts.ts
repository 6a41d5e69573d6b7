/**
 * Where the application-form drafts are kept on the device (issue 16.3): one per person and channel,
 * `FORM_DRAFT:<uid>:<channel>`. The answers live in localStorage (a reload, a crash of the tab or a
 * re-login finds them); the name and ID number only in sessionStorage (this tab, kept across a
 * re-login). A person's drafts are never shown to another: the login of a different person removes
 * every draft that is not theirs.
 */
import { type KeyValueStore, readJson, writeJson } from './storage';

export const DRAFT_PREFIX = 'FORM_DRAFT:';

export function draftKey(uid: string, adChannelCode: string): string {
  return `${DRAFT_PREFIX}${uid}:${adChannelCode || '-'}`;
}

/**
 * The identity page's draft of the same person (features/face/identity-draft.ts): under the drafts'
 * prefix, so that it lives and goes like them; `#` is not allowed in a channel code.
 */
export function identityDraftKey(uid: string): string {
  return `${DRAFT_PREFIX}${uid}:#identity`;
}

/** The credit-information wizard's draft of the same person (features/credit-info/credit-draft.ts). */
export function creditDraftKey(uid: string): string {
  return `${DRAFT_PREFIX}${uid}:#credit-info`;
}

/**
 * A person's draft kept in `store` under `keyOf(uid)`, read and written through `clean` (its
 * well-formed, non-empty part): nothing without a session, no entry for a draft that holds nothing.
 */
export function personDraft<T extends object>(keyOf: (uid: string) => string, clean: (raw: unknown) => T) {
  return {
    read(store: KeyValueStore, uid: string | null): T {
      return clean(uid ? readJson<unknown>(store, keyOf(uid)) : null);
    },
    save(store: KeyValueStore, uid: string | null, value: T): void {
      if (!uid) return;
      const kept = clean(value);
      if (Object.keys(kept).length === 0) store.remove(keyOf(uid));
      else writeJson(store, keyOf(uid), kept);
    },
    forget(store: KeyValueStore, uid: string | null): void {
      if (uid) store.remove(keyOf(uid));
    },
  };
}

export function isDraftKey(key: string): boolean {
  return key.startsWith(DRAFT_PREFIX);
}

/** The draft keys of `store` that do not belong to `uid` (all of them when `uid` is null). */
export function draftKeysOfOthers(keys: readonly string[], uid: string | null): string[] {
  const own = uid === null ? null : `${DRAFT_PREFIX}${uid}:`;
  return keys.filter((key) => isDraftKey(key) && (own === null || !key.startsWith(own)));
}

function keysOf(store: Storage): string[] {
  const keys: string[] = [];
  for (let i = 0; i < store.length; i++) {
    const key = store.key(i);
    if (key !== null) keys.push(key);
  }
  return keys;
}

/** Removes, from both web storages, every form draft that is not `uid`'s. */
export function forgetDraftsOfOthers(uid: string | null): void {
  for (const pick of [() => window.localStorage, () => window.sessionStorage]) {
    try {
      const store = pick();
      for (const key of draftKeysOfOthers(keysOf(store), uid)) store.removeItem(key);
    } catch {
      // Storage unavailable: nothing was kept there either.
    }
  }
}
