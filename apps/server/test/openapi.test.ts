/**
 * The API document (issue 15 §4): valid OpenAPI, every operation's refusals listed with the shared
 * envelope, every answer of the API tests checked against it (api-contract.ts), served in production only
 * with API_DOCS=on; the Permissions-Policy of API answers and H5 pages (ADR 020).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import SwaggerParser from '@apidevtools/swagger-parser';
import { ErrorCode, errorCatalogue } from '@lm/shared/errors';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config/env.ts';
import { openDatabase } from '../src/db/client.ts';
import { envelope, ok } from '../src/lib/envelope.ts';
import { H5_PERMISSIONS_POLICY, PERMISSIONS_POLICY } from '../src/plugins/external/security.ts';
import {
  BACKEND,
  body,
  createTestApp,
  loginAs,
  post,
  staffLogin,
  type TestContext,
  testConfig,
} from './helpers.ts';

type Json = Record<string, unknown>;
interface Operation {
  parameters?: { in: string; name: string; schema: unknown; style?: string; explode?: boolean }[];
  requestBody?: unknown;
  security?: unknown[];
  responses: Record<string, Json>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json> };
}

const PRODUCTION = {
  NODE_ENV: 'production',
  SMS_PROVIDER: 'aliyun',
  ALIYUN_SMS_ACCESS_KEY_ID: 'test-id',
  ALIYUN_SMS_ACCESS_KEY_SECRET: 'test-secret',
  ALIYUN_SMS_TEMPLATE_CODE: 'SMS_0000',
};

function operations(doc: Document) {
  return Object.entries(doc.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
  );
}

let ctx: TestContext;
let doc: Document;

beforeAll(async () => {
  ctx = await createTestApp();
  const res = await ctx.app.inject({ url: '/api/docs/json' });
  expect(res.statusCode).toBe(200);
  doc = res.json() as Document;
});
afterAll(async () => {
  await ctx?.close();
});

describe(`the OpenAPI document (${BACKEND})`, () => {
  it('is valid OpenAPI 3 (swagger-parser)', async () => {
    // validate() dereferences in place: give it a copy.
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it('gives every parameter a schema object; a free-form query is one exploded parameter', () => {
    for (const { key, op } of operations(doc)) {
      for (const p of op.parameters ?? []) expect(typeof p.schema, `${key} ${p.in} ${p.name}`).toBe('object');
    }
    const log = doc.paths['/api/user/info/log']!.get!;
    expect(log.parameters).toHaveLength(1);
    expect(log.parameters![0]).toMatchObject({ in: 'query', style: 'form', explode: true });
    expect(log.parameters![0]!.schema).toMatchObject({ type: 'object', additionalProperties: {} });
  });

  it('lists on every operation the refusals that apply, each the one envelope', () => {
    expect(doc.components.schemas.ErrorEnvelope).toMatchObject({
      type: 'object',
      required: ['code', 'msg', 'data'],
      properties: { code: { type: 'integer' }, msg: { type: 'string' } },
    });
    for (const { key, op } of operations(doc)) {
      const statuses = Object.keys(op.responses);
      expect(statuses, key).toContain('5XX');
      for (const status of statuses.filter((s) => /^[45]/.test(s))) {
        expect(op.responses[status]!.$ref, `${key} ${status}`).toMatch(/^#\/components\/responses\/\w+$/);
      }
      if (op.requestBody) expect(statuses, key).toEqual(expect.arrayContaining(['400', '413', '415']));
      if (op.parameters?.some((p) => p.in === 'query')) expect(statuses, key).toContain('400');
      if (key.includes('{')) expect(statuses, key).toContain('404');
    }
    const refusalsOf = (method: string, path: string) =>
      Object.keys(doc.paths[path]![method]!.responses).filter((s) => s !== '200');
    // A person's session: 401 (401 / 1005 / 1006), no 403; 400 for a query parameter it does not take.
    expect(refusalsOf('get', '/api/getLoginUserInfo')).toEqual(['400', '401', '5XX']);
    expect(doc.paths['/api/getLoginUserInfo']!.get!.security).toEqual([{ accessToken: [] }]);
    // A console session with roles: 401 and 403.
    expect(refusalsOf('get', '/api/admin/staff')).toEqual(['400', '401', '403', '5XX']);
    expect(refusalsOf('get', '/api/admin/partners/{id}')).toEqual(['400', '401', '403', '404', '5XX']);
    // A body without a session, limited per phone and IP.
    expect(refusalsOf('post', '/api/login')).toEqual(['400', '413', '415', '429', '5XX']);
    // Declared by the route: a state conflict, a token checked by a custom hook.
    expect(refusalsOf('put', '/api/user/info/auth')).toContain('409');
    expect(refusalsOf('get', '/api/common/upload/policy')).toEqual(['400', '401', '403', '429', '5XX']);
    expect(refusalsOf('get', '/api/user/health')).toEqual(['400', '5XX']);
    // Non-envelope answers are described as such.
    expect(doc.paths['/api/common/temp/link/open']!.get!.responses['302']).toBeDefined();
    expect(doc.paths['/api/storage']!.post!.responses['204']).toBeDefined();
  });

  it('describes each refusal with the catalogue codes of its HTTP status', () => {
    const codesOf = (name: string) =>
      (
        (doc.components.responses[name]!.content as Json)['application/json'] as {
          schema: { allOf: [Json, { properties: { code: { enum: number[] } } }] };
        }
      ).schema.allOf[1].properties.code.enum;
    const catalogue = (status: number) =>
      (Object.keys(errorCatalogue) as (keyof typeof errorCatalogue)[])
        .filter((n) =>
          status === 500 ? errorCatalogue[n].status >= 500 : errorCatalogue[n].status === status,
        )
        .map((n) => ErrorCode[n])
        .sort((a, b) => a - b);
    expect(codesOf('Unauthorized')).toEqual(catalogue(401));
    expect(codesOf('Unauthorized')).toEqual(expect.arrayContaining([401, 1005, 1006]));
    expect(codesOf('Forbidden')).toEqual([403, 1007]);
    expect(codesOf('Conflict')).toEqual(catalogue(409));
    expect(codesOf('BadRequest')).toEqual(catalogue(400));
    expect(codesOf('ServerError')).toEqual(catalogue(500));
    expect(String(doc.components.responses.Unauthorized!.description)).toContain(
      '`1006` 账号已在其他地方登录',
    );
  });
});

/** Test routes: one answers what the document lists, the others drift from it. */
const driftRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const response = { 200: envelope(z.object({ n: z.number() })) };
  app.get('/api/test/contract/ok', { schema: { response } }, async () => ok({ n: 1 }));
  // A string payload is not serialised, so nothing stops a wrong body but the check (untyped for that).
  root.get('/api/test/contract/wrong-body', { schema: { response } }, async (_req, reply) =>
    reply.type('application/json').send('{"code":200,"msg":"success","data":{"n":"one"}}'),
  );
  root.get('/api/test/contract/teapot', async (_req, reply) =>
    reply.status(418).send({ code: 418, msg: '我是茶壶', data: null }),
  );
};

describe(`every answer is checked against the document (${BACKEND})`, () => {
  let drift: TestContext;
  beforeAll(async () => {
    drift = await createTestApp({ plugins: [driftRoutes] });
  });
  afterAll(async () => {
    await drift?.close();
  });

  it('lets an answer through that matches the document', async () => {
    const res = await drift.app.inject({ url: '/api/test/contract/ok' });
    expect(body(res).data).toEqual({ n: 1 });
  });

  it('fails the request whose body does not match, naming the route, the status and the field', async () => {
    await expect(drift.app.inject({ url: '/api/test/contract/wrong-body' })).rejects.toThrow(
      /GET \/api\/test\/contract\/wrong-body → 200: the body does not match the 200 schema: .*body\/data\/n must be number/,
    );
  });

  it('fails the request whose status is not documented', async () => {
    await expect(drift.app.inject({ url: '/api/test/contract/teapot' })).rejects.toThrow(
      /GET \/api\/test\/contract\/teapot → 418: status 418 is not documented \(documented: 200, 400, 5XX\)/,
    );
  });

  it('refusals keep the whole envelope (code, msg, data) through serialisation', async () => {
    const invalid = await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { phone: '123' } });
    expect(invalid.statusCode).toBe(400);
    expect(body<{ fields: { field: string }[] }>(invalid)).toMatchObject({
      code: 400,
      msg: expect.stringContaining('手机号'),
      data: { fields: [expect.objectContaining({ field: 'phone' })] },
    });
    const anonymous = await ctx.app.inject({ url: '/api/getLoginUserInfo' });
    expect(anonymous.statusCode).toBe(401);
    expect(body(anonymous)).toEqual({ code: 401, msg: errorCatalogue.UNAUTHORIZED.msg, data: null });
    const xml = await post(ctx.app, '/api/login', '<phone/>', { 'content-type': 'application/xml' });
    expect(xml.statusCode).toBe(415);
    expect(body(xml)).toMatchObject({ code: 415, data: null });
    const unknown = await ctx.app.inject({ url: '/api/no/such/call' });
    expect(unknown.statusCode).toBe(404);
    expect(body(unknown)).toMatchObject({ code: 404, data: null });
    // A viewer on a change: 403 from the role check, before validation.
    const viewer = await staffLogin(ctx.app, 'viewer');
    const refused = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/partners',
      payload: {},
      headers: { accesstoken: viewer.token },
    });
    expect(refused.statusCode).toBe(403);
    expect(body(refused)).toEqual({ code: 403, msg: errorCatalogue.FORBIDDEN.msg, data: null });
  });
});

describe(`API_DOCS (${BACKEND})`, () => {
  async function docsOf(env: Record<string, string>) {
    const app = await createTestApp({ env });
    try {
      const json = await app.app.inject({ url: '/api/docs/json' });
      const ui = await app.app.inject({ url: '/api/docs' });
      return { json, ui, generated: Object.keys(app.app.swagger().paths ?? {}).length };
    } finally {
      await app.close();
    }
  }

  it('serves the document and the UI outside production by default', async () => {
    const { json, ui } = await docsOf({});
    expect(json.statusCode).toBe(200);
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toContain('text/html');
  });

  it('answers the 404 envelope in production, and outside it with API_DOCS=off', async () => {
    for (const env of [PRODUCTION, { API_DOCS: 'off' }]) {
      const { json, ui, generated } = await docsOf(env);
      for (const res of [json, ui]) {
        expect(res.statusCode, JSON.stringify(env)).toBe(404);
        expect(body(res)).toMatchObject({ code: 404, data: null });
      }
      // The document is still generated (the API tests check answers against it); it is just not served.
      expect(generated).toBeGreaterThan(100);
    }
  });

  it('serves them in production with API_DOCS=on', async () => {
    const { json, ui } = await docsOf({ ...PRODUCTION, API_DOCS: 'on' });
    expect(json.statusCode).toBe(200);
    expect(ui.statusCode).toBe(200);
  });

  it('accepts only on and off', () => {
    expect(() => loadConfig({ API_DOCS: 'yes' })).toThrow(/API_DOCS/);
    expect(loadConfig({ API_DOCS: 'off' }).API_DOCS).toBe('off');
    expect(loadConfig({}).API_DOCS).toBeUndefined();
  });
});

describe(`Permissions-Policy (${BACKEND})`, () => {
  it('leaves API answers, refusals included, to a CSP that lets them run and frame nothing (ADR 036)', async () => {
    const { token } = await loginAs(ctx.app);
    for (const res of [
      await ctx.app.inject({ url: '/api/user/health' }),
      await ctx.app.inject({ url: '/api/getLoginUserInfo', headers: { accesstoken: token } }),
      await ctx.app.inject({ url: '/api/getLoginUserInfo' }),
      await ctx.app.inject({ url: '/api/no/such/call' }),
      await ctx.app.inject({ method: 'POST', url: '/api/login', payload: {} }),
    ]) {
      // A JSON answer opened as a page runs nothing, so it can use no feature: no policy to send.
      expect(res.headers['permissions-policy'], res.body).toBeUndefined();
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    }
    expect(PERMISSIONS_POLICY).toContain('camera=()');
    expect(PERMISSIONS_POLICY).toContain('geolocation=()');
  });

  describe('with the front ends', () => {
    let root: string;
    let app: FastifyInstance;
    let close: () => Promise<void>;

    beforeAll(async () => {
      root = mkdtempSync(join(tmpdir(), 'lm-pp-'));
      const web = join(root, 'web');
      const admin = join(root, 'admin');
      mkdirSync(join(web, 'assets'), { recursive: true });
      mkdirSync(admin, { recursive: true });
      const page = (name: string) => `<!doctype html><html lang="zh-CN"><body>${name}</body></html>`;
      writeFileSync(join(web, 'index.html'), page('h5'));
      // As the build leaves them (scripts/compress-dist.mjs): a browser that accepts brotli gets these.
      writeFileSync(join(web, 'index.html.br'), brotliCompressSync(page('h5')));
      writeFileSync(join(admin, 'index.html.br'), brotliCompressSync(page('console')));
      writeFileSync(join(web, 'assets', 'app.js'), 'console.log(1)');
      writeFileSync(join(admin, 'index.html'), page('console'));
      const database = await openDatabase({});
      app = await buildApp({
        config: testConfig({ WEB_DIST: web, ADMIN_DIST: admin }),
        database,
        logger: false,
      });
      close = async () => {
        await app.close();
        await database.close();
      };
    });
    afterAll(async () => {
      await close?.();
      rmSync(root, { recursive: true, force: true });
    });

    it('lets H5 pages use the camera and location for themselves (a single-page app: any page may lead there)', async () => {
      for (const url of [
        '/',
        '/?adChannelCode=demo',
        '/login',
        '/credit-process/identity-verification',
        '/fill-information/waiting-result',
        '/privacy-agreement',
        '/index.html',
      ]) {
        for (const encoding of [undefined, 'gzip, deflate, br']) {
          const res = await app.inject({ url, headers: encoding ? { 'accept-encoding': encoding } : {} });
          expect(res.statusCode, url).toBe(200);
          expect(res.headers['content-type'], url).toContain('text/html');
          expect(res.headers['content-encoding'], `${url} ${encoding}`).toBe(encoding ? 'br' : undefined);
          expect(res.headers['permissions-policy'], `${url} ${encoding}`).toBe(H5_PERMISSIONS_POLICY);
        }
      }
      expect(H5_PERMISSIONS_POLICY).toContain('camera=(self)');
      expect(H5_PERMISSIONS_POLICY).toContain('geolocation=(self)');
      expect(H5_PERMISSIONS_POLICY).toContain('microphone=()');
      expect(H5_PERMISSIONS_POLICY).toContain('payment=()');
    });

    it('denies them to the console, scripts and the API document; API answers run nothing (ADR 036)', async () => {
      for (const url of ['/admin/', '/admin/leads', '/assets/app.js', '/api/docs']) {
        for (const encoding of [undefined, 'gzip, deflate, br']) {
          const res = await app.inject({ url, headers: encoding ? { 'accept-encoding': encoding } : {} });
          expect(res.headers['permissions-policy'], `${url} ${encoding}`).toBe(PERMISSIONS_POLICY);
        }
      }
      for (const url of ['/api/user/health', '/api/x']) {
        const res = await app.inject({ url });
        expect(res.headers['permissions-policy'], url).toBeUndefined();
        expect(res.headers['content-security-policy'], url).toBe(
          "default-src 'none'; frame-ancestors 'none'",
        );
      }
    });
  });
});
