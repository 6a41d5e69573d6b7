import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, buildUrl, createApiClient, isCanceledError } from './api-client.ts';

type Call = { url: string; init: RequestInit };

function fakeFetch(answers: Array<unknown | 'hang'>): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const answer = answers.shift();
    if (answer === 'hang') {
      return new Promise((_, reject) => {
        init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    }
    return Promise.resolve(new Response(typeof answer === 'string' ? answer : JSON.stringify(answer)));
  });
  return calls;
}

function client(cancelPrevious = true) {
  const shown: string[] = [];
  const logouts: Array<{ msg: string; silent: boolean; stay: boolean }> = [];
  const api = createApiClient({
    cancelPrevious,
    headers: ({ skipAuth }): Record<string, string> => (skipAuth ? {} : { accessToken: 't' }),
    showError: (msg) => shown.push(msg),
    logout: (msg, o) => logouts.push({ msg, ...o }),
  });
  return { api, shown, logouts };
}

afterEach(() => vi.unstubAllGlobals());

describe('the shared API client core', () => {
  it('returns the data of a 200 envelope and sends a cleaned JSON body with the app headers', async () => {
    const calls = fakeFetch([{ code: 200, msg: 'ok', data: { id: 1 } }]);
    const { api } = client();
    await expect(api.post('/api/x', { a: ' 1 ', b: '', c: null })).resolves.toEqual({ id: 1 });
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({ a: '1' });
    expect(calls[0]?.init.headers).toEqual({ accessToken: 't', 'Content-Type': 'application/json' });
  });

  it('shows the message of a failed envelope and rejects with its code', async () => {
    fakeFetch([{ code: 400, msg: '参数错误', data: null }, 'not json']);
    const { api, shown } = client();
    await expect(api.get('/api/x')).rejects.toMatchObject({ code: 400, msg: '参数错误' });
    await expect(api.get('/api/y', { silent: true })).rejects.toMatchObject({ msg: '服务器错误' });
    expect(shown).toEqual(['参数错误']);
  });

  it('logs out on 1005 unless the call skips auth', async () => {
    fakeFetch([
      { code: 1005, msg: '登录已过期', data: null },
      { code: 1005, msg: '登录已过期', data: null },
    ]);
    const { api, logouts, shown } = client();
    await expect(api.get('/api/me', { stayOnLogout: true })).rejects.toBeInstanceOf(ApiError);
    await expect(api.get('/api/me', { skipAuth: true })).rejects.toBeInstanceOf(ApiError);
    expect(logouts).toEqual([{ msg: '登录已过期', silent: false, stay: true }]);
    expect(shown).toEqual(['登录已过期']);
  });

  it('aborts the pending call to the same path when the client cancels by default', async () => {
    fakeFetch(['hang', { code: 200, msg: 'ok', data: 2 }]);
    const { api, shown } = client(true);
    const first = api.get('/api/x');
    const second = api.get('/api/x');
    const error = await first.catch((e: unknown) => e);
    expect(isCanceledError(error)).toBe(true);
    await expect(second).resolves.toBe(2);
    expect(shown).toEqual([]);
  });

  it('keeps both calls when the client does not cancel by default', async () => {
    fakeFetch([
      { code: 200, msg: 'ok', data: 1 },
      { code: 200, msg: 'ok', data: 2 },
    ]);
    const { api } = client(false);
    await expect(Promise.all([api.get('/api/x'), api.get('/api/x')])).resolves.toEqual([1, 2]);
  });

  it('appends cleaned query parameters to a path that may already have some', () => {
    expect(buildUrl('/api/x', { a: 1, b: '', c: { d: 1 } })).toBe('/api/x?a=1&c=%7B%22d%22%3A1%7D');
    expect(buildUrl('/api/x?z=1', { a: 'b' })).toBe('/api/x?z=1&a=b');
    expect(buildUrl('/api/x', {})).toBe('/api/x');
  });
});
