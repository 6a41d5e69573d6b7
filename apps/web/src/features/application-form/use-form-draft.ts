import { LOGOUT_CODES } from '@lm/shared/errors';
import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { cityValueOf } from '@/components/city-picker/city-picker';
import { ApiError } from '@/lib/api-client';
import { draftKey } from '@/lib/form-drafts';
import { getStoredUid } from '@/lib/session';
import { readJson, sessionStore, storage, writeJson } from '@/lib/storage';
import { toast } from '@/lib/toast';
import { fetchShownDraft } from './api/get-shown-draft';
import { tempSaveDraft } from './api/temp-save-draft';
import type { FormValues } from './components/application-form';
import { prefillFromDraft } from './cover-prefill';
import { mergeDrafts, readLocalDraft, splitValues, toTempSavePatch } from './form-draft';

/** How long after the last change the autosave goes out. */
export const AUTOSAVE_DELAY_MS = 600;
/** How long the form waits for the server's draft before it opens with the device's copy alone. */
export const SERVER_DRAFT_WAIT_MS = 2_000;

export interface FormDraft {
  /** False while the server's draft is awaited (the form opens once, with everything). */
  ready: boolean;
  /** The stored draft: the device's copy over the server's (issue 16.3). */
  initial: FormValues;
  /** To call with all the form's values after each change the person makes. */
  onChange(values: FormValues): void;
  /** After a successful submit: forget the device's copy and any autosave still waiting. */
  clear(): void;
}

interface Options {
  adChannelCode: string;
  /** The identity is the verified one (not saved by the form, issue 16.1). */
  identityVerified: boolean;
}

/** The server's draft as form values (answers and city; never the masked name and number), or null. */
async function loadServerDraft(signal: AbortSignal): Promise<FormValues | null> {
  const shown = await fetchShownDraft(signal);
  return prefillFromDraft(shown, await cityValueOf(shown.workCityCode));
}

/**
 * Drafts of the application form as the person types (issue 16.3): every change is kept on the
 * device at once (answers in localStorage, name and ID number in sessionStorage, keyed by person and
 * channel) and sent to POST /api/user/info/tempSave shortly after (at once when the page is hidden,
 * again when the network comes back). When the form opens, the server's draft (GET
 * /api/user/info/form/show, awaited at most SERVER_DRAFT_WAIT_MS) fills what the device's copy does
 * not have; the form is shown once both are known, so nothing changes under the person's finger.
 */
export function useFormDraft({ adChannelCode, identityVerified }: Options): FormDraft {
  const uid = getStoredUid();
  const key = uid ? draftKey(uid, adChannelCode) : null;
  const [local] = useState<FormValues>(() =>
    key ? readLocalDraft(readJson(storage, key), readJson(sessionStore, key)) : {},
  );
  const [server, setServer] = useState<FormValues | null>(null);
  const [ready, setReady] = useState(key === null);
  const latest = useRef<FormValues | null>(null);
  const lastSent = useRef<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const verified = useRef(identityVerified);
  verified.current = identityVerified;

  const send = useCallback(
    (keepalive = false) => {
      clearTimeout(timer.current);
      timer.current = undefined;
      if (!key || !latest.current) return;
      const patch = toTempSavePatch(latest.current, adChannelCode, verified.current);
      if (!patch) return;
      const body = JSON.stringify(patch);
      if (body === lastSent.current) return;
      tempSaveDraft(patch, keepalive).then(
        () => {
          lastSent.current = body;
        },
        (error: unknown) => {
          // Offline or refused: the device keeps the copy; the next change (or the network) retries.
          // An ended session: the API client went to the login, which comes back here; say why.
          if (error instanceof ApiError && LOGOUT_CODES.includes(error.code)) {
            toast.show({ content: error.msg, duration: 3000 });
          }
        },
      );
    },
    [key, adChannelCode],
  );

  // The server's draft, for what this device did not keep (another device, storage cleared); the
  // form waits for it a moment at most (offline it fails at once).
  // The form that then opens renders as a transition: React renders its many fields in slices,
  // yielding to the browser between them (at once, one task of ~100 ms at a phone's speed; issue 17.4).
  useEffect(() => {
    if (!key) return;
    const controller = new AbortController();
    const open = () => startTransition(() => setReady(true));
    const giveUp = setTimeout(open, SERVER_DRAFT_WAIT_MS);
    loadServerDraft(controller.signal)
      .then(
        (values) => {
          if (!controller.signal.aborted) startTransition(() => setServer((now) => now ?? values));
        },
        () => undefined,
      )
      .finally(() => {
        clearTimeout(giveUp);
        if (!controller.signal.aborted) open();
      });
    return () => {
      clearTimeout(giveUp);
      controller.abort();
    };
  }, [key]);

  // A copy kept while the server could not be reached (offline, the tab crashed): sent again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, with the copy read at opening
  useEffect(() => {
    if (!key || Object.keys(local).length === 0) return;
    latest.current = { ...local, ...latest.current };
    timer.current = setTimeout(() => send(), AUTOSAVE_DELAY_MS);
  }, [key]);

  // Hidden (reload, another app, the tab closing): send at once; online again: send what waited.
  useEffect(() => {
    const onHidden = () => {
      if (document.visibilityState === 'hidden') send(true);
    };
    const onOnline = () => send();
    const onPageHide = () => send(true);
    document.addEventListener('visibilitychange', onHidden);
    window.addEventListener('pagehide', onPageHide);
    window.addEventListener('online', onOnline);
    return () => {
      document.removeEventListener('visibilitychange', onHidden);
      window.removeEventListener('pagehide', onPageHide);
      window.removeEventListener('online', onOnline);
      clearTimeout(timer.current);
    };
  }, [send]);

  const onChange = useCallback(
    (values: FormValues) => {
      if (!key) return;
      latest.current = values;
      const { answers, who } = splitValues(values);
      writeJson(storage, key, answers);
      writeJson(sessionStore, key, who);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => send(), AUTOSAVE_DELAY_MS);
    },
    [key, send],
  );

  const clear = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = undefined;
    latest.current = null;
    if (key) {
      storage.remove(key);
      sessionStore.remove(key);
    }
  }, [key]);

  return { ready, initial: mergeDrafts(server ?? {}, local), onChange, clear };
}
