/**
 * The only module of the web app that talks HTTP (spec §7, §8).
 *
 * - JSON bodies, 10 s timeout, `cleanParams` on bodies and query params.
 * - Headers (lib/headers.ts): `accessToken`; `platform_param` {channel 0, currentChannelCode (the
 *   channel store's code), deviceBrand, fingerprint (VISITORID once computed)}, with appType 3 and
 *   channel 1 inside our app's webview; `track_report` (the ad-platform callback parameters captured
 *   for the current channel).
 * - A new request to the same method + path aborts the previous one unless `cancelPrevious: false`;
 *   aborted requests reject with a silent `CANCELED` ApiError.
 * - Envelope `{code, msg, data}`: 200 → data; 401/1005/1006 → log out and go to /getQuota;
 *   anything else → toast the message for 3 s and reject with an ApiError.
 */
import { type Envelope, LOGOUT_CODES, SUCCESS_CODE } from '@lm/shared/errors';
import { cleanParams } from '@lm/shared/values';
import { useChannelStore } from '@/features/channel/store';
import { loginPathFor } from '@/features/flow/return-to';
import { getStoredChannelCode } from './channel';
import { getDeviceBrand, getFingerprint, isAppWebview } from './device';
import { buildHeaders } from './headers';
import { navigateTo } from './navigation';
import { NETWORK_ERROR_MSG } from './send-code';
import { clearSession, getToken } from './session';
import { toast } from './toast';
import { getTrackReport } from './track-report';

export const REQUEST_TIMEOUT_MS = 10_000;
export const ERROR_TOAST_MS = 3_000;

const DEFAULT_ERROR_MSG = '服务器错误';
const TIMEOUT_MSG = '请求超时，请稍后重试';
const NETWORK_MSG = NETWORK_ERROR_MSG;

export type ApiErrorName = 'ApiError' | 'TIMEOUT_ERROR' | 'NETWORK_ERROR' | 'CANCELED';

/** A failed call. `code` is the envelope code (or the HTTP status, or 0 for client-side failures). */
export class ApiError<T = unknown> extends Error {
  override name: ApiErrorName;
  readonly code: number;
  readonly msg: string;
  readonly data: T | null;

  constructor(code: number, msg: string, data: T | null = null, name: ApiErrorName = 'ApiError') {
    super(msg);
    this.name = name;
    this.code = code;
    this.msg = msg;
    this.data = data;
  }
}

export function isCanceledError(error: unknown): boolean {
  return error instanceof ApiError && error.name === 'CANCELED';
}

type Params = Record<string, unknown>;

export interface RequestOptions {
  /** Query parameters; empty values are dropped, strings trimmed. */
  params?: Params;
  /** JSON body; empty values are dropped, strings trimmed. */
  body?: Params;
  /** Do not toast errors (the logout on 401/1005/1006 still happens, without its toast). */
  silent?: boolean;
  /** Send no token and treat 401/1005/1006 as ordinary errors (no logout redirect). */
  skipAuth?: boolean;
  /** On 401/1005/1006 forget the session but stay on this page (a login page checking its token). */
  stayOnLogout?: boolean;
  /** Abort the pending request to the same path (default true). */
  cancelPrevious?: boolean;
  /** Extra abort signal, e.g. the one React Query passes to query functions. */
  signal?: AbortSignal;
  /** Let the request outlive the page (analytics sent right before a navigation). */
  keepalive?: boolean;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

const pending = new Map<string, AbortController>();

function currentChannelCode(): string {
  return useChannelStore.getState().adChannelCode || getStoredChannelCode() || '';
}

function buildUrl(path: string, params?: Params): string {
  if (!params) return path;
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(cleanParams(params))) {
    query.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  const qs = query.toString();
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
}

function parseEnvelope<T>(text: string): Envelope<T> | null {
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && typeof (value as Envelope).code === 'number') {
      return value as Envelope<T>;
    }
  } catch {
    // Not JSON (e.g. a proxy error page).
  }
  return null;
}

function showError(msg: string, silent: boolean | undefined): void {
  if (!silent) toast.show({ content: msg, duration: ERROR_TOAST_MS });
}

/**
 * Token expired or used elsewhere: forget it and send the person to the login-as-form page (spec §4),
 * which comes back to this page after the login (`returnTo`, issue 16.4; ignored for the login pages).
 */
function logout(msg: string, silent: boolean | undefined, stay = false): void {
  showError(msg, silent);
  clearSession();
  if (stay) return;
  const here = `${window.location.pathname}${window.location.search}`;
  const target = loginPathFor(currentChannelCode(), here);
  if (here !== target) navigateTo(target, { replace: true });
}

async function request<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
  const { params, body, silent, skipAuth, stayOnLogout, cancelPrevious = true, signal, keepalive } = options;
  const key = `${method} ${path}`;

  if (cancelPrevious) pending.get(key)?.abort();
  const controller = new AbortController();
  pending.set(key, controller);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, REQUEST_TIMEOUT_MS);
  const onOuterAbort = () => controller.abort();
  signal?.addEventListener('abort', onOuterAbort);

  const channelCode = currentChannelCode();
  const headers = buildHeaders({
    token: skipAuth ? null : getToken(),
    channelCode,
    deviceBrand: getDeviceBrand(),
    fingerprint: getFingerprint(),
    inAppWebview: isAppWebview(),
    trackReport: getTrackReport(channelCode),
  });
  let payload: string | undefined;
  if (method !== 'GET') {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body ? cleanParams(body) : {});
  }

  let response: Response;
  let envelope: Envelope<T> | null = null;
  try {
    response = await fetch(buildUrl(path, params), {
      method,
      headers,
      body: payload,
      signal: controller.signal,
      credentials: 'same-origin',
      keepalive,
    });
    envelope = parseEnvelope<T>(await response.text());
  } catch {
    if (timedOut) {
      showError(TIMEOUT_MSG, silent);
      throw new ApiError(0, TIMEOUT_MSG, null, 'TIMEOUT_ERROR');
    }
    if (controller.signal.aborted) {
      // Replaced by a newer request or the caller went away: not an error for the person.
      throw new ApiError(0, 'canceled', null, 'CANCELED');
    }
    showError(NETWORK_MSG, silent);
    throw new ApiError(0, NETWORK_MSG, null, 'NETWORK_ERROR');
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onOuterAbort);
    if (pending.get(key) === controller) pending.delete(key);
  }

  if (!envelope) {
    showError(DEFAULT_ERROR_MSG, silent);
    throw new ApiError(response.status, DEFAULT_ERROR_MSG);
  }
  if (envelope.code === SUCCESS_CODE) return envelope.data;

  const msg = envelope.msg || DEFAULT_ERROR_MSG;
  if (!skipAuth && LOGOUT_CODES.includes(envelope.code)) {
    logout(msg, silent, stayOnLogout);
  } else {
    showError(msg, silent);
  }
  throw new ApiError(envelope.code, msg, envelope.data ?? null);
}

export const api = {
  get<T>(path: string, options?: Omit<RequestOptions, 'body'>): Promise<T> {
    return request<T>('GET', path, options);
  },
  post<T>(path: string, body?: Params, options?: Omit<RequestOptions, 'body'>): Promise<T> {
    return request<T>('POST', path, { ...options, body });
  },
  put<T>(path: string, body?: Params, options?: Omit<RequestOptions, 'body'>): Promise<T> {
    return request<T>('PUT', path, { ...options, body });
  },
  delete<T>(path: string, options?: Omit<RequestOptions, 'body'>): Promise<T> {
    return request<T>('DELETE', path, options);
  },
};
