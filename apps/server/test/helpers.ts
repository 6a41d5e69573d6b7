import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyPluginAsync, LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../src/app.ts';
import { type Env, loadConfig } from '../src/config/env.ts';
import { type Database, openDatabase } from '../src/db/client.ts';
import { checkEveryAnswer, routeMarker } from './api-contract.ts';

/**
 * Test apps. By default each one has its own in-memory PGlite. With TEST_DATABASE_URL the same
 * tests run on PostgreSQL, each app in a fresh schema; with TEST_REDIS_URL limits live in Redis
 * under a fresh key prefix. .ci/run sets both; an unreachable service fails the run.
 */
export const PG_URL = process.env.TEST_DATABASE_URL || undefined;
export const REDIS_URL = process.env.TEST_REDIS_URL || undefined;
export const BACKEND = `${PG_URL ? 'postgres' : 'pglite'}${REDIS_URL ? '+redis' : ''}`;

export const TEST_KEYS = {
  PII_KEYS: `k2:${Buffer.alloc(32, 2).toString('base64')},k1:${Buffer.alloc(32, 1).toString('base64')}`,
  PII_INDEX_KEY: Buffer.alloc(32, 9).toString('base64'),
  ENCRYPTED_MOBILE_KEYS: `partner:${Buffer.alloc(16, 7).toString('base64')},cbc:${Buffer.alloc(32, 5).toString('base64')}:${Buffer.alloc(16, 3).toString('base64')}`,
};

export function testConfig(overrides: Record<string, string> = {}): Env {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: ':memory:',
    ...TEST_KEYS,
    ...(PG_URL ? { DATABASE_URL: PG_URL } : {}),
    ...(REDIS_URL ? { REDIS_URL } : {}),
    ...overrides,
  });
}

export interface TestContext {
  app: FastifyInstance;
  /** Shared handles for a second instance (same database, same Redis, same limiter prefix). */
  shared: { database: Database; schemaName?: string; limiterPrefix: string };
  close(): Promise<void>;
}

const uniq = () => randomBytes(5).toString('hex');

export interface TestAppOptions {
  env?: Record<string, string>;
  plugins?: FastifyPluginAsync[];
  logStream?: { write(line: string): void };
  /** Serve the H5 and the console (WEB_DIST / ADMIN_DIST in `env`): the page tests. */
  serveStatic?: boolean;
}

export async function createTestApp(opts: TestAppOptions = {}): Promise<TestContext> {
  const config = testConfig(opts.env);
  const schemaName = PG_URL ? `t_${uniq()}` : undefined;
  const database = await openDatabase({ url: config.DATABASE_URL, schemaName, poolSize: 5 });
  const limiterPrefix = `test:${uniq()}:`;
  const app = await buildApp({
    config,
    database,
    ...(schemaName ? { schemaName } : {}),
    limiterPrefix,
    logger: Boolean(opts.logStream),
    ...(opts.logStream ? { logStream: opts.logStream } : {}),
    plugins: [...(opts.plugins ?? []), routeMarker],
    serveStatic: opts.serveStatic ?? false,
  });
  // Every answer of an API test is checked against the OpenAPI document (api-contract.ts).
  checkEveryAnswer(app);
  return {
    app,
    shared: { database, ...(schemaName ? { schemaName } : {}), limiterPrefix },
    close: async () => {
      await app.close();
      await database.close();
      if (schemaName && PG_URL) {
        const client = new pg.Client({ connectionString: PG_URL });
        await client.connect();
        await client.query(`drop schema if exists ${schemaName} cascade`);
        await client.end();
      }
      if (REDIS_URL) {
        const redis = new Redis(REDIS_URL);
        const keys = await redis.keys(`lm:${limiterPrefix}*`);
        if (keys.length) await redis.del(...keys);
        redis.disconnect();
      }
    },
  };
}

/** Options of an app whose log lines, at trace level, are kept in `lines`. */
export function traceLogInto(lines: string[]): TestAppOptions {
  return { env: { LOG_LEVEL: 'trace' }, logStream: { write: (line: string) => void lines.push(line) } };
}

/**
 * The file's test app: created in a `beforeAll`, closed in an `afterAll` (both registered here, so
 * hooks registered before this call run before it). The answer reads the app once it exists: use it
 * inside tests and later hooks. `opts` may be a function when it needs what an earlier hook made.
 */
export function useTestApp(opts: TestAppOptions | (() => TestAppOptions) = {}): TestContext {
  let current: TestContext | undefined;
  const ctx = () => {
    if (!current) throw new Error('the test app exists only inside hooks and tests after useTestApp');
    return current;
  };
  beforeAll(async () => {
    current = await createTestApp(typeof opts === 'function' ? opts() : opts);
  });
  afterAll(async () => {
    await current?.close();
    current = undefined;
  });
  return {
    get app() {
      return ctx().app;
    },
    get shared() {
      return ctx().shared;
    },
    close: async () => {
      const closing = ctx();
      current = undefined;
      await closing.close();
    },
  };
}

/**
 * A test app listening on a port of its own, behind a trusted proxy at 127.0.0.1, with its lines at `info` kept
 * in `logLines`: for what inject() cannot reach, the server's request listener where the front of ADRs 042, 043
 * and 046 answers.
 */
export function useListeningTestApp(): { ctx: TestContext; logLines: string[]; port(): number } {
  const logLines: string[] = [];
  const ctx = useTestApp({
    env: { LOG_LEVEL: 'info', TRUST_PROXY: '127.0.0.1' },
    logStream: { write: (line: string) => void logLines.push(line) },
  });
  let port = 0;
  beforeAll(async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    port = (ctx.app.server.address() as AddressInfo).port;
  });
  return { ctx, logLines, port: () => port };
}

/** A second app instance on the same database and limiter store as `ctx`. */
export async function secondInstance(
  ctx: TestContext,
  opts: { env?: Record<string, string>; serveStatic?: boolean } = {},
): Promise<FastifyInstance> {
  const app = await buildApp({
    config: testConfig(opts.env),
    database: ctx.shared.database,
    ...(ctx.shared.schemaName ? { schemaName: ctx.shared.schemaName } : {}),
    limiterPrefix: ctx.shared.limiterPrefix,
    logger: false,
    plugins: [routeMarker],
    serveStatic: opts.serveStatic ?? false,
  });
  checkEveryAnswer(app);
  return app;
}

/** A second instance (as `secondInstance`) for the file's tests: made after `ctx`, closed before it. */
export function useSecondInstance(
  ctx: TestContext,
  opts: { env?: Record<string, string>; serveStatic?: boolean } = {},
): { readonly app: FastifyInstance } {
  let current: FastifyInstance | undefined;
  beforeAll(async () => {
    current = await secondInstance(ctx, opts);
  });
  afterAll(async () => {
    await current?.close();
    current = undefined;
  });
  return {
    get app() {
      if (!current) throw new Error('the second instance exists only inside hooks and tests');
      return current;
    },
  };
}

export function body<T = unknown>(res: LightMyRequestResponse): { code: number; msg: string; data: T } {
  return res.json() as { code: number; msg: string; data: T };
}

let phoneCounter = Number.parseInt(randomBytes(3).toString('hex'), 16) % 10_000_000;
/** A fresh valid phone number per call. */
export function newPhone(): string {
  phoneCounter = (phoneCounter + 1) % 100_000_000;
  return `139${String(phoneCounter).padStart(8, '0')}`;
}

/** Unique client IP per test so IP caps of different tests do not meet. */
export function newIp(): string {
  const b = randomBytes(3);
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}

export async function post(
  app: FastifyInstance,
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) {
  return app.inject({ method: 'POST', url, payload: payload as object, headers });
}

/** A call as the H5 makes it: a browser's user agent, the person's token when given. */
export function h5Call(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  token?: string,
  payload?: unknown,
) {
  return app.inject({
    method,
    url,
    ...(payload !== undefined ? { payload: payload as object } : {}),
    headers: { ...(token ? { accesstoken: token } : {}), 'user-agent': 'vitest-agent' },
  });
}

export async function sendCode(app: FastifyInstance, phone: string, ip = newIp()) {
  return app.inject({
    method: 'POST',
    url: '/api/login/sendPhoneVerifyCode',
    payload: { phone },
    remoteAddress: ip,
  });
}

/** The dev SMS outbox of `phone`, newest first. */
export async function devOutbox(
  app: FastifyInstance,
  phone: string,
): Promise<{ code: string; message: string }[]> {
  const res = await app.inject({ method: 'GET', url: `/api/dev/sms-outbox?phone=${phone}` });
  return body<{ code: string; message: string }[]>(res).data;
}

export async function latestCode(app: FastifyInstance, phone: string): Promise<string> {
  const code = (await devOutbox(app, phone))[0]?.code;
  if (!code) throw new Error(`no code in outbox for ${phone}`);
  return code;
}

/**
 * Sends a code, reads it from the outbox and logs in (with `headers`, e.g. the ad click's `track_report`);
 * returns the token, the uid and the answer's data.
 */
export async function loginAs(
  app: FastifyInstance,
  phone = newPhone(),
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const sent = await sendCode(app, phone);
  if (sent.statusCode !== 200) throw new Error(`send failed: ${sent.body}`);
  const code = await latestCode(app, phone);
  const res = await app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { phone, code, ...extra },
    headers,
    remoteAddress: newIp(),
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.body}`);
  const data = body<{ token: string; loginUser: { uid: number } }>(res).data;
  return { phone, token: data.token, uid: data.loginUser.uid, data };
}

/** Asks for the cancellation code of the person behind `token`, from a fresh address. */
export function sendCancellationCode(app: FastifyInstance, token: string) {
  return app.inject({
    method: 'POST',
    url: '/api/cancellation/sendPhoneVerifyCode',
    headers: { accesstoken: token },
    remoteAddress: newIp(),
  });
}

export type TestStaffRole = 'admin' | 'operator' | 'viewer' | 'channel_partner';

/** A staff member created through the service and logged in with a password: its id, phone and token. */
export async function staffLogin(
  app: FastifyInstance,
  role: TestStaffRole,
  opts: { name?: string; channelCodes?: string[]; password?: string } = {},
): Promise<{ id: number; phone: string; token: string }> {
  const phone = newPhone();
  const password = opts.password ?? 'correct horse battery staple';
  const member = await app.services.staff.create({
    phone,
    name: opts.name ?? `测试${role}`,
    role,
    password,
    ...(opts.channelCodes ? { channelCodes: opts.channelCodes } : {}),
  });
  return { id: member.id, phone, token: await staffPasswordLogin(app, phone, password) };
}

/** A staff member's password login (from a fresh address): the token. */
export async function staffPasswordLogin(app: FastifyInstance, phone: string, password: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/crm/admin/login',
    payload: { phone, password },
    remoteAddress: newIp(),
  });
  if (res.statusCode !== 200) throw new Error(`staff login failed: ${res.body}`);
  return body<{ token: string }>(res).data.token;
}
