/**
 * The only module of the admin app that talks HTTP: JSON bodies, 10 s timeout, `accessToken` header
 * from localStorage ADMIN_TOKEN, envelope `{code, msg, data}` handling (spec §8).
 */
import { type Envelope, LOGOUT_CODES, SUCCESS_CODE } from '@lm/shared/errors';
import { cleanParams } from '@lm/shared/values';
import { adminPath, clearAdminToken, getAdminToken } from './auth';
import { notifyError } from './notify';

const REQUEST_TIMEOUT_MS = 10_000;
const DEFAULT_ERROR_MSG = '服务器错误';

export type ApiErrorName = 'ApiError' | 'TIMEOUT_ERROR' | 'NETWORK_ERROR' | 'CANCELED';

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

type Params = Record<string, unknown>;

export interface RequestOptions {
  params?: Params;
  body?: Params;
  /** Do not show the error message. */
  silent?: boolean;
  /** Send no token and treat 401/1005/1006 as ordinary errors. */
  skipAuth?: boolean;
  signal?: AbortSignal;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

function buildUrl(path: string, params?: Params): string {
  if (!params) return path;
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(cleanParams(params))) {
    query.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  const qs = query.toString();
  return qs ? `${path}?${qs}` : path;
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

/** The staff token is no longer valid: forget it and go back to the login page. */
function backToLogin(msg: string, silent: boolean | undefined): void {
  clearAdminToken();
  const login = adminPath('login');
  if (window.location.pathname === login) return;
  if (!silent) notifyError(msg);
  const from = window.location.pathname + window.location.search;
  window.location.assign(`${login}?from=${encodeURIComponent(from)}`);
}

async function request<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
  const { params, body, silent, skipAuth, signal } = options;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, REQUEST_TIMEOUT_MS);
  const onOuterAbort = () => controller.abort();
  signal?.addEventListener('abort', onOuterAbort);

  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = skipAuth ? null : getAdminToken();
  if (token) headers.accessToken = token;
  let payload: string | undefined;
  if (method !== 'GET') {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body ? cleanParams(body) : {});
  }

  let response: Response;
  let envelope: Envelope<T> | null;
  try {
    response = await fetch(buildUrl(path, params), {
      method,
      headers,
      body: payload,
      signal: controller.signal,
      credentials: 'same-origin',
    });
    envelope = parseEnvelope<T>(await response.text());
  } catch {
    if (timedOut) {
      if (!silent) notifyError('请求超时，请稍后重试');
      throw new ApiError(0, '请求超时，请稍后重试', null, 'TIMEOUT_ERROR');
    }
    if (controller.signal.aborted) throw new ApiError(0, 'canceled', null, 'CANCELED');
    if (!silent) notifyError('网络连接错误');
    throw new ApiError(0, '网络连接错误', null, 'NETWORK_ERROR');
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onOuterAbort);
  }

  if (!envelope) {
    if (!silent) notifyError(DEFAULT_ERROR_MSG);
    throw new ApiError(response.status, DEFAULT_ERROR_MSG);
  }
  if (envelope.code === SUCCESS_CODE) return envelope.data;

  const msg = envelope.msg || DEFAULT_ERROR_MSG;
  if (!skipAuth && LOGOUT_CODES.includes(envelope.code)) backToLogin(msg, silent);
  else if (!silent) notifyError(msg);
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
