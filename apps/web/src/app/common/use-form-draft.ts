import { useCallback, useEffect, useRef, useState } from 'react';
import { cityValueOf } from '@/components/city-picker/city-picker';
import { draftKey } from '@/lib/form-drafts';
import { getStoredUid } from '@/lib/session';
import { readJson, sessionStore, storage, writeJson } from '@/lib/storage';
import { fetchShownDraft, tempSaveDraft } from './api';
import type { FormValues } from './application-form';
import { prefillFromDraft } from './cover-prefill';
import { readLocalDraft, splitValues, toTempSavePatch } from './form-draft';

/** How long after the last change the autosave goes out. */
export const AUTOSAVE_DELAY_MS = 600;

export interface FormDraft {
  /** The device's copy of what this person typed on this channel's form (read when the page opens). */
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
  /** The server's draft (answers and city; never the masked name and number) once it has loaded. */
  onServerDraft(values: FormValues): void;
}

/**
 * Drafts of the application form as the person types (issue 16.3): every change is kept on the
 * device at once (answers in localStorage, name and ID number in sessionStorage, keyed by person and
 * channel) and sent to POST /api/user/info/tempSave shortly after (at once when the page is hidden,
 * again when the network comes back). The server's draft (GET /api/user/info/form/show) fills what
 * the device's copy does not have.
 */
export function useFormDraft({ adChannelCode, identityVerified, onServerDraft }: Options): FormDraft {
  const uid = getStoredUid();
  const key = uid ? draftKey(uid, adChannelCode) : null;
  const [initial] = useState<FormValues>(() =>
    key ? readLocalDraft(readJson(storage, key), readJson(sessionStore, key)) : {},
  );
  const latest = useRef<FormValues | null>(null);
  const lastSent = useRef<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const verified = useRef(identityVerified);
  verified.current = identityVerified;
  const serverDraft = useRef(onServerDraft);
  serverDraft.current = onServerDraft;

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
        // Offline or refused: the device keeps the copy; the next change (or the network) retries.
        () => undefined,
      );
    },
    [key, adChannelCode],
  );

  // The server's draft, for what this device did not keep (another device, storage cleared).
  useEffect(() => {
    if (!key) return;
    const controller = new AbortController();
    void (async () => {
      try {
        const shown = await fetchShownDraft(controller.signal);
        const values = prefillFromDraft(shown, await cityValueOf(shown.workCityCode));
        if (!controller.signal.aborted) serverDraft.current(values);
      } catch {
        // No server draft (offline): the device's copy is all there is.
      }
    })();
    return () => controller.abort();
  }, [key]);

  // A copy kept while the server could not be reached (offline, the tab crashed): sent again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, with the copy read at opening
  useEffect(() => {
    if (!key || Object.keys(initial).length === 0) return;
    latest.current = { ...initial, ...latest.current };
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

  return { initial, onChange, clear };
}
