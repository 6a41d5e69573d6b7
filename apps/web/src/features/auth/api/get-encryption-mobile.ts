import { useEffect, useState } from 'react';
import { api } from '@/lib/api-client';

export interface EncryptionMobileData {
  /** Masked phone, for display. */
  mobile: string;
  /** Short-lived ticket accepted as encryptionMobile by sendPhoneVerifyCode and login. */
  ticket: string;
  /** Seconds the ticket stays valid. */
  expiresIn: number;
}

export interface EncryptionMobileInput {
  encryptionMobile: string;
  source: string;
  channelCode?: string;
}

/** GET /api/getEncryptionMobile?encryptionMobile&source&channelCode (its error is shown). */
export function getEncryptionMobile(
  input: EncryptionMobileInput,
  signal?: AbortSignal,
): Promise<EncryptionMobileData> {
  return api.get<EncryptionMobileData>('/api/getEncryptionMobile', {
    params: { ...input },
    skipAuth: true,
    signal,
  });
}

export type EncryptionMobileState =
  | { status: 'idle' | 'pending' | 'error'; data: null }
  | { status: 'success'; data: EncryptionMobileData };

/**
 * The masked phone and ticket of an encrypted-phone link, fetched once per link. (A plain effect rather
 * than useQuery: it keeps TanStack's query observer out of the landing page's first load.)
 */
export function useEncryptionMobile(input: EncryptionMobileInput | null): EncryptionMobileState {
  const key = input ? JSON.stringify(input) : null;
  const [state, setState] = useState<EncryptionMobileState & { key: string | null }>({
    key: null,
    status: 'idle',
    data: null,
  });

  useEffect(() => {
    if (key === null) return;
    const controller = new AbortController();
    setState({ key, status: 'pending', data: null });
    getEncryptionMobile(JSON.parse(key) as EncryptionMobileInput, controller.signal).then(
      (data) => setState({ key, status: 'success', data }),
      () => {
        if (!controller.signal.aborted) setState({ key, status: 'error', data: null });
      },
    );
    return () => controller.abort();
  }, [key]);

  if (key === null) return { status: 'idle', data: null };
  // Before the effect has run for a new link, it is pending.
  if (state.key !== key) return { status: 'pending', data: null };
  return state.status === 'success'
    ? { status: 'success', data: state.data }
    : { status: state.status, data: null };
}
