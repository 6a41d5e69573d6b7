/**
 * Issue 44 items 7–9, over the whole API document: what Schemathesis found (docs/security-tests.md).
 * - 7: a path parameter of any length on every route that takes one answers a 4xx envelope, logged and
 *   counted (the router refused over 200 characters with a 500 no hook, log line or metric saw); staff ids
 *   beyond int4 are refused (400), not a database error.
 * - 8: the document and the validation say the same: unknown query parameters refused (400) except on the
 *   calls an ad link reaches (documented there), `name=` the same as no `name` (documented), ranges and
 *   one-of-required bodies in the document, 405 with `Allow` for a method a path does not list.
 * - 9: no cache keeps an API answer: `no-store` on every answer of every operation, but the public ones
 *   a route deliberately caches.
 */
import { get as httpGet } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKEND, body, createTestApp, loginAs, type TestContext } from './helpers.ts';
import { staffLogin } from './security/fixtures.ts';

type Json = Record<string, unknown>;
interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  allowEmptyValue?: boolean;
  schema: Json;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Json }> };
  security?: unknown[];
  responses: Record<string, Json>;
}
type Document = { paths: Record<string, Record<string, Operation>> };

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** The calls an ad link reaches: they ignore the parameters they do not name. */
const AD_LINK_CALLS = [
  'GET /api/adChannel/h5Config',
  'GET /api/reportAdChannelClick',
  'GET /api/getAdChannel',
  'GET /api/adChannel/plan/adChannelCode',
  'GET /api/adChannel/exchange/adChannelCode',
];

const lines: string[] = [];
let ctx: TestContext;
let app: FastifyInstance;
let doc: Document;
const tokens: { user?: string; admin?: string } = {};

function operations() {
  return Object.entries(doc.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );
}

/** An address of `path` with each parameter `value` (percent-encoded as a client would). */
function address(path: string, value: (name: string) => string): string {
  return path.replace(/\{([^}]+)\}/g, (_m, name: string) =>
    name === '*' ? `public/x/${value(name)}.png` : encodeURIComponent(value(name)),
  );
}

/** The token an operation asks for: an admin's for the console, a person's for the rest. */
function tokenFor(path: string, op: Operation): Record<string, string> {
  if (!op.security) return {};
  return { accesstoken: (path.startsWith('/api/admin') ? tokens.admin : tokens.user)! };
}

/** A request line ("incoming request", "request completed") of a request, by its id. */
function lineOf(id: string, msg: string): Json | undefined {
  return lines.map((l) => JSON.parse(l) as Json).find((l) => l.reqId === id && l.msg === msg);
}

async function countOf(route: string, method: string, status: number): Promise<number> {
  const text = await app.metrics.registry.getSingleMetricAsString('lm_http_request_duration_seconds');
  const line = text
    .split('\n')
    .find((l) =>
      l.startsWith(
        `lm_http_request_duration_seconds_count{method="${method}",route="${route}",status="${status}"}`,
      ),
    );
  return line ? Number(line.split(' ').pop()) : 0;
}

function expectEnvelope(res: LightMyRequestResponse, label: string) {
  expect(res.headers['content-type'], label).toMatch(/application\/json/);
  const b = body(res);
  expect(typeof b.code, label).toBe('number');
  expect(typeof b.msg, label).toBe('string');
  expect(b, label).toHaveProperty('data');
}

beforeAll(async () => {
  ctx = await createTestApp({
    env: { LOG_LEVEL: 'info' },
    logStream: { write: (line: string) => void lines.push(line) },
  });
  app = ctx.app;
  doc = (await app.inject({ url: '/api/docs/json' })).json() as Document;
  tokens.user = (await loginAs(app)).token;
  tokens.admin = (await staffLogin(app, 'admin')).token;
});
afterAll(async () => {
  await ctx?.close();
});

describe(`path parameters of any length (issue 44 item 7, ${BACKEND})`, () => {
  it('answer a 4xx envelope on every route that takes one, logged and counted', async () => {
    const withParams = operations().filter(({ path }) => path.includes('{'));
    expect(withParams.length).toBeGreaterThan(25);
    for (const { path, method, op } of withParams) {
      for (const length of [201, 250, 2_000]) {
        const url = address(path, () => 'a'.repeat(length));
        const label = `${method} ${path} (${length})`;
        const res = await app.inject({
          method: method as 'GET',
          url,
          headers: { ...tokenFor(path, op), 'content-type': 'application/json' },
          ...(method === 'GET' || method === 'DELETE' ? {} : { payload: '{}' }),
        });
        expect(res.statusCode, `${label}: ${res.body.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, label).toBeLessThan(500);
        expectEnvelope(res, label);
        // Logged: its "request completed" line follows its "incoming request" line (a route may keep
        // both off by design, logLevel 'warn': uploads, reveals …, whose addresses carry personal data).
        const id = String(res.headers['x-request-id']);
        if (lineOf(id, 'incoming request'))
          expect(lineOf(id, 'request completed'), `${label}: no "request completed" line`).toMatchObject({
            res: { statusCode: res.statusCode },
          });
      }
      // Counted: under its route (its schema refused it) or as unmatched (no route took it).
      const template = path.replace(/\{\*\}/, '*').replace(/\{(\w+)\}/g, ':$1');
      const url = address(path, () => 'a'.repeat(250));
      const counted = async () =>
        (await countOf(template, method, 400)) +
        (await countOf(template, method, 404)) +
        (await countOf(template, method, 401)) +
        (await countOf('unmatched', method, 404)) +
        (await countOf('unmatched', method, 400));
      const before = await counted();
      await app.inject({
        method: method as 'GET',
        url,
        headers: { ...tokenFor(path, op), 'content-type': 'application/json' },
        ...(method === 'GET' || method === 'DELETE' ? {} : { payload: '{}' }),
      });
      expect(await counted(), `${method} ${path}: not counted`).toBe(before + 1);
    }
  });

  it('a malformed address through the real listener: the 400 envelope, its lines and its count', async () => {
    // The HTTP server's listener (app.ts: the front answers, then Fastify), as a client reaches it.
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const get = (path: string) =>
      new Promise<{ status: number; headers: Record<string, unknown>; text: string }>((resolve, reject) => {
        httpGet({ host: '127.0.0.1', port, path }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => {
            text += d;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        }).on('error', reject);
      });
    const before = await countOf('unmatched', 'GET', 400);
    for (const path of [`/api/news/${'a'.repeat(300)}`, `/api/agreement/${'b'.repeat(300)}`]) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      expect(JSON.parse(res.text)).toMatchObject({
        code: 400,
        data: { fields: [{ field: expect.any(String) }] },
      });
    }
    const bad = await get('/api/news/%E0%A0%8');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text)).toEqual({ code: 400, msg: '请求地址格式不正确', data: null });
    expect(bad.headers['cache-control']).toBe('no-store');
    await expect
      .poll(() => lineOf(String(bad.headers['x-request-id']), 'request completed'))
      .toMatchObject({
        res: { statusCode: 400 },
      });
    expect(await countOf('unmatched', 'GET', 400)).toBe(before + 1);
  });

  it('refuses staff ids beyond the database integer (400), not a 500', async () => {
    const admin = { accesstoken: tokens.admin! };
    for (const id of ['2147483648', '9007199254740991', '99999999999']) {
      for (const [method, url, payload] of [
        ['PUT', `/api/admin/staff/${id}`, { name: '张三' }],
        ['PUT', `/api/admin/staff/${id}/status`, { status: 'disabled' }],
        ['POST', `/api/admin/staff/${id}/reset-password`, {}],
      ] as const) {
        const res = await app.inject({ method, url, payload, headers: admin });
        expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(400);
        expect(body(res)).toMatchObject({ code: 400, data: { fields: [{ field: 'id' }] } });
      }
    }
    // The largest id the column holds is an id like any other: nobody has it.
    const res = await app.inject({
      method: 'PUT',
      url: '/api/admin/staff/2147483647',
      payload: {},
      headers: admin,
    });
    expect(res.statusCode).toBe(404);
    const staffId = doc.paths['/api/admin/staff/{id}']!.put!.parameters!.find((p) => p.in === 'path')!;
    expect(staffId.schema).toMatchObject({ maximum: 2_147_483_647 });
  });
});

describe(`the document says what is enforced (issue 44 item 8, ${BACKEND})`, () => {
  it('refuses a query parameter a call does not name, except on the calls an ad link reaches', async () => {
    const strict = await app.inject({
      url: '/api/user/applications?x=1',
      headers: { accesstoken: tokens.user! },
    });
    expect(strict.statusCode).toBe(400);
    expect(body(strict).msg).toContain('x');
    const none = await app.inject({
      url: '/api/getLoginUserInfo?x=1',
      headers: { accesstoken: tokens.user! },
    });
    expect(none.statusCode).toBe(400);
    const listed = await app.inject({
      url: '/api/user/applications?page=1',
      headers: { accesstoken: tokens.user! },
    });
    expect(listed.statusCode).toBe(200);

    const h5 = await app.inject({ url: '/api/adChannel/h5Config?adChannelCode=demo&clickid=abc&callback=x' });
    expect(h5.statusCode).toBe(200);
    expect(body<{ adChannelCode: string }>(h5).data.adChannelCode).toBe('demo');
    const click = await app.inject({
      url: '/api/reportAdChannelClick?adChannelCode=demo&fingerprint=fp1&clickid=1',
    });
    expect(click.statusCode).toBe(200);

    // The document says which calls are which.
    for (const { path, method, op } of operations()) {
      const names = (op.parameters ?? []).map((p) => p.name);
      const adLink = AD_LINK_CALLS.includes(`${method} ${path}`);
      expect(names.includes('adLinkParameters'), `${method} ${path}`).toBe(adLink);
    }
  });

  it('takes `name=` as no `name`, as the document says', async () => {
    const empty = await app.inject({ url: '/api/adChannel/h5Config?adChannelCode=' });
    const absent = await app.inject({ url: '/api/adChannel/h5Config' });
    expect(empty.statusCode).toBe(200);
    expect(body(empty).data).toEqual(body(absent).data);
    const page = await app.inject({
      url: '/api/user/applications?page=',
      headers: { accesstoken: tokens.user! },
    });
    expect(page.statusCode).toBe(200);
    expect(body<{ page: number }>(page).data.page).toBe(1);
    // A required parameter given empty is missing.
    const required = await app.inject({ url: '/api/getAdChannel?adChannelCode=' });
    expect(required.statusCode).toBe(400);
    expect(body(required).data).toMatchObject({ fields: [{ field: 'adChannelCode' }] });

    const param = (path: string, name: string) =>
      doc.paths[path]!.get!.parameters!.find((p) => p.name === name)!;
    expect(param('/api/adChannel/h5Config', 'adChannelCode')).toMatchObject({
      allowEmptyValue: true,
      schema: { anyOf: [expect.objectContaining({ minLength: 1 }), { type: 'string', maxLength: 0 }] },
    });
    expect(param('/api/getAdChannel', 'adChannelCode')).toMatchObject({
      required: true,
      schema: { minLength: 1 },
    });
    expect(param('/api/getAdChannel', 'adChannelCode').allowEmptyValue).toBeUndefined();
  });

  it('puts ranges and one-of-required bodies in the document', async () => {
    const news = doc.paths['/api/news']!.get!.parameters!.find((p) => p.name === 'page')!;
    const [integer, digits] = (news.schema.anyOf as Json[])[0]!.anyOf as Json[];
    expect(integer).toEqual({ type: 'integer', minimum: 1, maximum: 10_000 });
    expect(new RegExp(String(digits!.pattern)).test('0')).toBe(false);
    expect(new RegExp(String(digits!.pattern)).test('10000')).toBe(true);
    expect((await app.inject({ url: '/api/news?page=0' })).statusCode).toBe(400);

    const login = doc.paths['/api/login']!.post!.requestBody!.content['application/json']!.schema;
    expect(login.anyOf).toEqual([
      { required: ['phone'] },
      { required: ['mobile'] },
      { required: ['encryptionMobile', 'source'] },
      { required: ['encryptionMobile'], properties: { encryptionMobile: { pattern: '^emt\\.' } } },
    ]);
    expect(login.required).toEqual(['code']);
    expect((await app.inject({ method: 'POST', url: '/api/login', payload: {} })).statusCode).toBe(400);
    const staff = doc.paths['/api/crm/admin/login']!.post!.requestBody!.content['application/json']!.schema;
    expect(staff.anyOf).toEqual([{ required: ['password'] }, { required: ['code'] }]);
    // Patterns in the one dialect every tool reads alike: `\d` is ASCII in ECMAScript, not in Python.
    expect(JSON.stringify(doc)).not.toMatch(/"pattern":"[^"]*\\\\[dw]/);
  });

  it('answers 405 with Allow for a method a path does not list, on every path', async () => {
    for (const [path, byMethod] of Object.entries(doc.paths)) {
      const listed = Object.keys(byMethod).map((m) => m.toUpperCase());
      const url = address(path, () => '1');
      // A method no route takes this address with (`GET /api/admin/channels/preview` is another
      // operation's: `GET /api/admin/channels/{id}`).
      const other = METHODS.map((m) => m.toUpperCase()).find(
        (m) => !listed.includes(m) && app.findRoute({ method: m, url }) === null,
      )!;
      const res = await app.inject({
        method: other as 'PATCH',
        url,
        headers: tokenFor(path, Object.values(byMethod)[0]!),
      });
      expect(res.statusCode, `${other} ${path}: ${res.body}`).toBe(405);
      expectEnvelope(res, path);
      // The path's methods, and those of another operation taking the same address, each answered.
      const allow = String(res.headers.allow).split(', ');
      expect(allow, path).toEqual(expect.arrayContaining(listed));
      for (const m of allow) expect(app.findRoute({ method: m, url }), `${path} ${m}`).not.toBeNull();
    }
  });
});

describe(`no cache keeps an API answer (issue 44 item 9, ${BACKEND})`, () => {
  it('answers every operation of the document with no-store, but the public answers meant for caches', async () => {
    const cacheable: string[] = [];
    for (const { path, method, op } of operations()) {
      const res = await app.inject({
        method: method as 'GET',
        url: address(path, (name) => (name === 'code' ? 'privacy-policy' : '1')),
        headers: { ...tokenFor(path, op), 'content-type': 'application/json' },
        ...(method === 'GET' || method === 'DELETE' ? {} : { payload: '{}' }),
      });
      const label = `${method} ${path} → ${res.statusCode}`;
      const cacheControl = String(res.headers['cache-control'] ?? '');
      if (op.security || res.statusCode !== 200) {
        // A session's answer, and every refusal: never kept.
        expect(cacheControl, label).toMatch(/\bno-store\b/);
      } else if (!/\bno-store\b/.test(cacheControl)) {
        // A public answer kept on purpose says how (for how long, or only once revalidated); a shared cache
        // (nginx's micro-cache, ADR 062) may keep only a public one, for its own `s-maxage`.
        expect(cacheControl, label).toMatch(
          /^(no-cache|private, max-age=\d+(, immutable)?|public, max-age=\d+(, s-maxage=\d+)?(, immutable)?)$/,
        );
        cacheable.push(`${method} ${path}`);
      }
    }
    // What may be cached is public content, none of it a person's.
    for (const op of cacheable)
      expect(op).toMatch(/h5Config|\/api\/(agreement|news|content)\b|\/api\/storage\//);
  });

  it('the issue’s answers carrying personal data, with a session, are no-store', async () => {
    const user = { accesstoken: tokens.user! };
    const admin = { accesstoken: tokens.admin! };
    for (const [url, headers] of [
      ['/api/getLoginUserInfo', user],
      ['/api/user/info/detail', user],
      ['/api/user/sessions', user],
      ['/api/user/applications', user],
      ['/api/user/data-sharing', user],
      ['/api/user/info/protocol2/getContent?productId=1', user],
      ['/api/admin/users/1', admin],
      ['/api/admin/leads/1', admin],
    ] as const) {
      const res = await app.inject({ url, headers });
      expect(res.headers['cache-control'], `${url} → ${res.statusCode}`).toBe('no-store');
    }
  });
});
