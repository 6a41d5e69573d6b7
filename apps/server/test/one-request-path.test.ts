/**
 * Issue 45.1 (ADR 063): the ad burst's three answers — h5Config, a channel's landing page and the click report —
 * go through Fastify like every other request. Asked through a real socket and through `inject()`, each has the
 * same headers, a request id of its own in its header and in both request lines, and its count in the request
 * histogram under its route; a draining instance closes the connection on all three.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { type IncomingHttpHeaders, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { UNMATCHED_ROUTE } from '../src/lib/metrics.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { webBuild } from './web-build.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** What Node's HTTP server adds on a socket and inject() does not (the connection's own headers). */
const CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

let root: string;
let ctx: TestContext;
let app: FastifyInstance;
let origin: string;
const lines: Record<string, unknown>[] = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'lm-one-path-'));
  ctx = await createTestApp({
    env: { WEB_DIST: webBuild(root), ADMIN_DIST: join(root, 'no-admin'), LOG_LEVEL: 'info' },
    serveStatic: true,
    logStream: { write: (line) => void lines.push(JSON.parse(line)) },
    // Any app-wide hook sees every answer (ADR 037's ban on per-answer hooks is lifted).
    plugins: [
      fp(async (instance) => {
        instance.addHook('onSend', async (_req, reply) => {
          reply.header('x-seen-by-hook', 'onSend');
        });
      }),
    ],
  });
  app = ctx.app;
  await app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await ctx?.close();
  rmSync(root, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A GET over a real TCP connection to the listening app. */
function overSocket(url: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${url}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

async function throughInject(url: string, headers: Record<string, string>): Promise<Answer> {
  const res = await app.inject({ method: 'GET', url, headers });
  return { status: res.statusCode, headers: res.headers as IncomingHttpHeaders, body: res.rawPayload };
}

/** The answer's headers without the connection's own and the request id (its value differs per request). */
function answerHeaders(a: Answer): Record<string, string> {
  return Object.fromEntries(
    Object.entries(a.headers)
      .filter(([name]) => !CONNECTION_HEADERS.has(name) && name !== 'x-request-id')
      .map(([name, value]) => [name, String(value)]),
  );
}

async function histogramCount(route: string): Promise<number> {
  const metric = await app.metrics.httpDuration.get();
  return metric.values
    .filter(
      (v) =>
        v.metricName === 'lm_http_request_duration_seconds_count' &&
        v.labels.route === route &&
        v.labels.method === 'GET' &&
        String(v.labels.status) === '200',
    )
    .reduce((sum, v) => sum + v.value, 0);
}

const PHONE = { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148' };

/** The three answers of an ad burst, each with the template it is counted under. */
const cases = [
  {
    name: 'h5Config',
    url: () => '/api/adChannel/h5Config?adChannelCode=demo',
    route: '/api/adChannel/h5Config',
    headers: { ...PHONE, 'accept-encoding': 'gzip, deflate, br' },
    type: /^application\/json/,
  },
  {
    name: "a channel's landing page",
    url: () => '/?adChannelCode=demo&clickid=c1',
    route: UNMATCHED_ROUTE,
    headers: { ...PHONE, 'accept-encoding': 'gzip, deflate, br' },
    type: /^text\/html/,
  },
  {
    name: 'the click report',
    // A new visitor each time: counted, so both ways give the same answer.
    url: () =>
      `/api/reportAdChannelClick?adChannelCode=demo&fingerprint=fp${Math.random().toString(36).slice(2)}`,
    route: '/api/reportAdChannelClick',
    headers: PHONE,
    type: /^application\/json/,
  },
];

describe('one request path for the ad burst (issue 45.1)', () => {
  for (const c of cases) {
    it(`${c.name}: the same headers, request id, request lines and histogram through a socket and inject()`, async () => {
      // Twice over the socket: a cached answer (the second) takes the same path as the first.
      await overSocket(c.url(), c.headers);
      const before = await histogramCount(c.route);
      const socket = await overSocket(c.url(), c.headers);
      const injected = await throughInject(c.url(), c.headers);
      expect(socket.headers['x-seen-by-hook']).toBe('onSend');
      expect(socket.status).toBe(200);
      expect(injected.status).toBe(200);
      expect(socket.headers['content-type']).toMatch(c.type);
      // Every header the app sets, with the same value, both ways (security headers, cache-control, vary …).
      expect(answerHeaders(socket)).toEqual(answerHeaders(injected));
      expect(socket.headers['x-content-type-options']).toBe('nosniff');
      expect(socket.body.equals(injected.body)).toBe(true);
      // A request id of its own, in the header and in Fastify's two request lines.
      const ids = [socket.headers['x-request-id'], injected.headers['x-request-id']];
      // The completed line and the count come from the onResponse hook, which runs once the answer is written:
      // waited for (a client may read the answer first), not assumed.
      for (const id of ids) {
        expect(id).toMatch(UUID);
        await vi.waitFor(() => {
          const mine = lines.filter((l) => l.reqId === id).map((l) => l.msg);
          expect(mine).toEqual(['incoming request', 'request completed']);
        });
      }
      expect(ids[0]).not.toBe(ids[1]);
      // Counted under its route both ways, by the app's one onResponse hook.
      await vi.waitFor(async () => expect((await histogramCount(c.route)) - before).toBe(2));
    });
  }

  it('a draining instance asks the client to close the connection on each of them', async () => {
    app.draining = true;
    try {
      for (const c of cases) {
        const res = await overSocket(c.url(), c.headers);
        expect(res.status, c.name).toBe(200);
        expect(res.headers.connection, c.name).toBe('close');
      }
    } finally {
      app.draining = false;
    }
  });
});
