import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { FRONT_ANSWER_LIMIT, type FrontAnswer, FrontAnswers } from './front-answers.ts';

/** What answer() writes, recorded. */
function response() {
  const written: { status?: number; headers?: string[]; body?: Buffer } = {};
  const res = {
    writeHead(status: number, headers: string[]) {
      written.status = status;
      written.headers = [...headers];
    },
    end(body: Buffer) {
      written.body = body;
    },
  } as unknown as ServerResponse;
  return { res, written };
}

const request = (url: string, method = 'GET', headers: Record<string, string> = {}) =>
  ({ url, method, headers }) as unknown as IncomingMessage;

function front(closing = () => false) {
  const observed: [string, string, number][] = [];
  let ids = 0;
  const f = new FrontAnswers({
    requestId: () => `id-${++ids}`,
    closing,
    observer: (route) => (method, status) => void observed.push([route, method, status]),
    lines: { on: () => false, incoming() {}, completed() {} },
  });
  return { f, observed };
}

function answer(current: { value: boolean }, body = 'hello'): FrontAnswer {
  return {
    route: '/r',
    current: () => current.value,
    variant: (encoding) => ({
      headers: [
        'content-type',
        'text/plain',
        ...(encoding === 'identity' ? [] : ['content-encoding', encoding]),
      ],
      body: Buffer.from(`${body}:${encoding}`),
    }),
  };
}

describe('FrontAnswers', () => {
  it('answers an offered address while it is current, in the encoding asked for', () => {
    const { f, observed } = front();
    const current = { value: true };
    f.offer('/r?a=1', answer(current));
    const { res, written } = response();
    expect(f.answer(request('/r?a=1', 'GET', { 'accept-encoding': 'gzip, br' }), res)).toBe(true);
    expect(written.status).toBe(200);
    expect(written.headers).toEqual([
      'x-request-id',
      'id-1',
      'content-type',
      'text/plain',
      'content-encoding',
      'br',
    ]);
    expect(written.body?.toString()).toBe('hello:br');
    expect(observed).toEqual([['/r', 'GET', 200]]);
    expect(f.served).toBe(1);

    // No longer current: left to the framework, and forgotten.
    current.value = false;
    const other = response();
    expect(f.answer(request('/r?a=1'), other.res)).toBe(false);
    expect(other.written.status).toBeUndefined();
    expect(f.size).toBe(0);
  });

  it('leaves other methods, addresses, and a closing app to the framework', () => {
    let closing = false;
    const { f } = front(() => closing);
    f.offer('/r', answer({ value: true }));
    for (const req of [request('/r', 'HEAD'), request('/r', 'POST'), request('/r/'), request('/r?')]) {
      const { res, written } = response();
      expect(f.answer(req, res)).toBe(false);
      expect(written.status).toBeUndefined();
    }
    closing = true;
    expect(f.answer(request('/r'), response().res)).toBe(false);
    closing = false;
    expect(f.answer(request('/r'), response().res)).toBe(true);
    f.disable();
    expect(f.answer(request('/r'), response().res)).toBe(false);
    f.offer('/r', answer({ value: true }));
    expect(f.size).toBe(0);
  });

  it('keeps only current answers, and at most FRONT_ANSWER_LIMIT addresses', () => {
    const { f } = front();
    f.offer('/stale', answer({ value: false }));
    expect(f.size).toBe(0);
    for (let i = 0; i < FRONT_ANSWER_LIMIT + 10; i++) f.offer(`/r?c=${i}`, answer({ value: true }));
    expect(f.size).toBe(FRONT_ANSWER_LIMIT);
    // An address already kept is replaced even when full.
    f.offer('/r?c=0', answer({ value: true }, 'new'));
    const { res, written } = response();
    f.answer(request('/r?c=0'), res);
    expect(written.body?.toString()).toBe('new:identity');
  });

  it('answers a family of addresses by their key, the oldest key leaving a full family first', () => {
    const { f, observed } = front();
    // The key: the path and the value of `c`, whatever else the query holds; `x` makes an address no member.
    const keyOf = (url: string) => {
      const [path, query = ''] = url.split('?');
      const params = new URLSearchParams(query);
      return path === '/p' && params.has('c') && !params.has('x') ? `p:${params.get('c')}` : null;
    };
    const family = f.family(keyOf, 2);
    family.offer('/p?c=1&click=a', answer({ value: true }, 'one'));
    family.offer('/p?x=1&c=1', answer({ value: true }, 'not kept'));
    family.offer('/p?c=9', answer({ value: false }, 'stale'));
    expect(family.size).toBe(1);
    const body = (url: string, headers: Record<string, string> = {}) => {
      const { res, written } = response();
      return f.answer(request(url, 'GET', headers), res) ? written.body?.toString() : null;
    };
    expect(body('/p?click=b&c=1')).toBe('one:identity');
    expect(body('/p?c=1&x=2')).toBeNull();
    expect(body('/p?c=2')).toBeNull();
    // A conditional request is the route's (it answers 304 to a page's etag).
    expect(body('/p?c=1', { 'if-none-match': '"e"' })).toBeNull();
    // Exact addresses are looked up first.
    f.offer('/p?c=1', answer({ value: true }, 'exact'));
    expect(body('/p?c=1')).toBe('exact:identity');
    expect(body('/p?c=1&click=c')).toBe('one:identity');

    family.offer('/p?c=2', answer({ value: true }, 'two'));
    family.offer('/p?c=3', answer({ value: true }, 'three'));
    expect(family.size).toBe(2);
    expect(body('/p?c=1&click=d')).toBeNull();
    expect(body('/p?c=3')).toBe('three:identity');
    // No longer current: forgotten.
    const current = { value: true };
    family.offer('/p?c=4', answer(current, 'four'));
    current.value = false;
    expect(body('/p?c=4')).toBeNull();
    expect(family.size).toBe(1);
    expect(observed.every(([route]) => route === '/r')).toBe(true);

    f.disable();
    expect(family.size).toBe(0);
    family.offer('/p?c=5', answer({ value: true }));
    expect(family.size).toBe(0);
  });
});
