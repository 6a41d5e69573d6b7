import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  FRONT_ANSWER_LIMIT,
  type FrontAnswer,
  FrontAnswers,
  type FrontReply,
  type FrontRoute,
} from './front-answers.ts';

/** What answer() writes, recorded. */
function response() {
  const written: { status?: number; headers?: string[]; body?: Buffer; destroyed?: Error } = {};
  const res = {
    writeHead(status: number, headers: string[]) {
      written.status = status;
      written.headers = [...headers];
    },
    destroy(err: Error) {
      written.destroyed = err;
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
    clientIp: () => '203.0.113.7',
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

  describe('front routes (ADR 046)', () => {
    const reply = (status: number, text: string): FrontReply => ({
      status,
      headers: ['content-type', 'text/plain', 'content-length', String(text.length)],
      body: Buffer.from(text),
    });
    /** A route that records what it was given and answers by the query: `sync`, `later`, `fail`, `throw`, else not taken. */
    function route() {
      const seen: { query: string; id: string; ip: string | undefined }[] = [];
      const r: FrontRoute = {
        route: '/click',
        take(query, _req, request) {
          seen.push({ query, id: request.id, ip: request.ip() });
          if (query.startsWith('sync')) return reply(200, 'now');
          if (query.startsWith('later')) return Promise.resolve(reply(429, 'later'));
          if (query.startsWith('fail')) return Promise.reject(new Error('broken'));
          if (query.startsWith('throw')) throw new Error('thrown before taking');
          return undefined;
        },
      };
      return { r, seen };
    }

    it('writes what the route answers, now or when its promise resolves, with the request id and histogram', async () => {
      const { f, observed } = front();
      const { r, seen } = route();
      f.route('/click', r);
      const now = response();
      expect(f.answer(request('/click?sync=1&c=2'), now.res)).toBe(true);
      expect(now.written).toEqual({
        status: 200,
        headers: ['x-request-id', 'id-1', 'content-type', 'text/plain', 'content-length', '3'],
        body: Buffer.from('now'),
      });
      expect(seen).toEqual([{ query: 'sync=1&c=2', id: 'id-1', ip: '203.0.113.7' }]);

      const later = response();
      expect(f.answer(request('/click?later'), later.res)).toBe(true);
      expect(later.written.status).toBeUndefined();
      await Promise.resolve();
      expect(later.written.status).toBe(429);
      expect(later.written.body?.toString()).toBe('later');
      expect(observed).toEqual([
        ['/click', 'GET', 200],
        ['/click', 'GET', 429],
      ]);
      expect(f.served).toBe(2);
    });

    it('leaves to the framework what the route does not take, or throws on, and every other request', async () => {
      let closing = false;
      const { f, observed } = front(() => closing);
      const { r, seen } = route();
      f.route('/click', r);
      for (const req of [
        request('/click?other'),
        request('/click?throw'),
        request('/click'),
        request('/click/?sync'),
        request('/clicks?sync'),
        request('/click?sync', 'HEAD'),
        request('/click?sync', 'POST'),
      ]) {
        const { res, written } = response();
        expect(f.answer(req, res), req.url).toBe(false);
        expect(written.status).toBeUndefined();
      }
      // The route saw only the two GETs of its path with a query.
      expect(seen.map((s) => s.query)).toEqual(['other', 'throw']);
      closing = true;
      expect(f.answer(request('/click?sync'), response().res)).toBe(false);
      expect(seen).toHaveLength(2);
      closing = false;
      // A promise that rejects (against the contract) does not leave the client waiting.
      const failed = response();
      expect(f.answer(request('/click?fail'), failed.res)).toBe(true);
      await new Promise((resolve) => setImmediate(resolve));
      expect(failed.written.destroyed?.message).toBe('broken');
      expect(observed).toEqual([]);
      f.disable();
      expect(f.answer(request('/click?sync'), response().res)).toBe(false);
      expect(() => f.route('/click', r)).toThrow(/front route already/);
    });
  });
});
