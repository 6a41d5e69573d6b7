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
});
