/// <reference lib="dom" />
/**
 * The HTTP core of both front ends (apps/web, apps/admin; ADR 028): JSON bodies, a 10 s timeout,
 * `cleanParams` on bodies and query parameters, the envelope `{code, msg, data}` of spec §8
 * (200 → data; 401/1005/1006 → the app's log-out; anything else → the app's error message and an
 * ApiError), and optionally one pending request per method + path. Each app passes what differs:
 * its headers, how it shows an error and what logging out means. Zod-free: it runs in the browser.
 */
import { type Envelope, LOGOUT_CODES, SUCCESS_CODE } from '../errors.ts';
import { cleanParams } from '../values.ts';

export const REQUEST_TIMEOUT_MS = 10_000;
export const DEFAULT_ERROR_MSG = '服务器错误';
export const TIMEOUT_MSG = '请求超时，请稍后重试';
export const NETWORK_MSG = '网络连接错误';

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
  /** JSON body (a request type of packages/shared); empty values are dropped, strings trimmed. */
  body?: object;
  /** Do not show errors (the log-out on 401/1005/1006 still happens, without its message). */
  silent?: boolean;
  /** Envelope codes the caller handles itself: not shown (e.g. 1008, answered with a challenge). */
  quiet?: readonly number[];
  /** Headers of this call on top of the client's (e.g. X-Known-Device on the login calls, ADR 055). */
  headers?: Record<string, string>;
  /** Send no token and treat 401/1005/1006 as ordinary errors (no log-out). */
  skipAuth?: boolean;
  /** On 401/1005/1006 forget the session but stay on this page (a login page checking its token). */
  stayOnLogout?: boolean;
  /** Abort the pending request to the same method + path (the client's default when absent). */
  cancelPrevious?: boolean;
  /** Extra abort signal, e.g. the one React Query passes to query functions. */
  signal?: AbortSignal;
  /** Let the request outlive the page (analytics sent right before a navigation). */
  keepalive?: boolean;
}

export interface ApiClientConfig {
  /** The headers of a call (the token unless `skipAuth`). Content-Type is added for bodies. */
  headers(options: { skipAuth: boolean }): Record<string, string>;
  /** Show an error message (toast, notification). Not called for silent calls. */
  showError(msg: string): void;
  /** The session is no longer valid (401/1005/1006): forget it and, unless `stay`, go to the login. */
  logout(msg: string, options: { silent: boolean; stay: boolean }): void;
  /** Whether a new call aborts the pending one to the same method + path: the default of the option. */
  cancelPrevious: boolean;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type NoBody = Omit<RequestOptions, 'body'>;

export function buildUrl(path: string, params?: Params): string {
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

export function createApiClient(config: ApiClientConfig) {
  const pending = new Map<string, AbortController>();

  async function request<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
    const {
      params,
      body,
      silent = false,
      skipAuth = false,
      stayOnLogout = false,
      signal,
      keepalive,
      quiet,
    } = options;
    const cancelPrevious = options.cancelPrevious ?? config.cancelPrevious;
    const showError = (msg: string) => {
      if (!silent) config.showError(msg);
    };
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

    const headers = { ...config.headers({ skipAuth }), ...options.headers };
    let payload: string | undefined;
    if (method !== 'GET') {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(body ? cleanParams(body as Params) : {});
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
        showError(TIMEOUT_MSG);
        throw new ApiError(0, TIMEOUT_MSG, null, 'TIMEOUT_ERROR');
      }
      if (controller.signal.aborted) {
        // Replaced by a newer request or the caller went away: not an error for the person.
        throw new ApiError(0, 'canceled', null, 'CANCELED');
      }
      showError(NETWORK_MSG);
      throw new ApiError(0, NETWORK_MSG, null, 'NETWORK_ERROR');
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onOuterAbort);
      if (pending.get(key) === controller) pending.delete(key);
    }

    if (!envelope) {
      showError(DEFAULT_ERROR_MSG);
      throw new ApiError(response.status, DEFAULT_ERROR_MSG);
    }
    if (envelope.code === SUCCESS_CODE) return envelope.data;

    const msg = envelope.msg || DEFAULT_ERROR_MSG;
    if (!skipAuth && LOGOUT_CODES.includes(envelope.code)) {
      config.logout(msg, { silent, stay: stayOnLogout });
    } else if (!quiet?.includes(envelope.code)) {
      showError(msg);
    }
    throw new ApiError(envelope.code, msg, envelope.data ?? null);
  }

  return {
    get<T>(path: string, options?: NoBody): Promise<T> {
      return request<T>('GET', path, options);
    },
    post<T, B extends object = Params>(path: string, body?: B, options?: NoBody): Promise<T> {
      return request<T>('POST', path, { ...options, body });
    },
    put<T, B extends object = Params>(path: string, body?: B, options?: NoBody): Promise<T> {
      return request<T>('PUT', path, { ...options, body });
    },
    delete<T>(path: string, options?: NoBody): Promise<T> {
      return request<T>('DELETE', path, options);
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
