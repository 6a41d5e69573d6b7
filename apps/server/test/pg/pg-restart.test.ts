import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM } from '../fixtures.ts';
import { newPhone, REDIS_URL, TEST_KEYS } from '../helpers.ts';
import { freePort, ServerProcess } from '../server-process.ts';

/**
 * PostgreSQL really restarted under load (issue 8): the test runs its own throwaway cluster (never
 * the shared server on 5432), starts the real API process on it, drives journeys over HTTP from
 * several clients, stops PostgreSQL for a few seconds and starts it again. The API answers the
 * envelope throughout (200 or the 503 catalogue error), never exits, recovers by itself, and keeps
 * what was saved before the restart.
 */
const run = promisify(execFile);

/** The newest /usr/lib/postgresql/<major>/bin that has initdb and pg_ctl. */
function postgresBin(): string {
  const base = '/usr/lib/postgresql';
  const majors = existsSync(base)
    ? readdirSync(base)
        .filter(
          (d) => existsSync(join(base, d, 'bin', 'initdb')) && existsSync(join(base, d, 'bin', 'pg_ctl')),
        )
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!majors[0]) {
    throw new Error(
      `PostgreSQL server binaries not found: no ${base}/*/bin with initdb and pg_ctl. ` +
        'This test restarts a throwaway cluster of its own; install the PostgreSQL server package.',
    );
  }
  return join(base, majors[0], 'bin');
}

const asRoot = process.getuid?.() === 0;
/** PostgreSQL refuses to run as root: as root its tools run as the `postgres` OS user. */
async function pgTool(bin: string, tool: string, args: string[], timeoutMs = 60_000) {
  const [cmd, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]]
    : [join(bin, tool), args];
  try {
    return await run(cmd, argv, { timeout: timeoutMs });
  } catch (err) {
    const e = err as Error & { stdout?: string; stderr?: string };
    throw new Error(`${tool} ${args.join(' ')} failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }
}

/** What a body must never show: driver errors, stack traces, SQL. */
const INTERNALS =
  /ECONN|EPIPE|terminat|shutting down|"stack"|\bat \/|node_modules|SQLSTATE|\bsql\b|relation "/i;
const UNAVAILABLE_MSG = '服务暂时不可用，请稍后重试';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Answer {
  path: string;
  status: number;
  text: string;
  at: number;
}

let bin = '';
let tmp = '';
let dataDir = '';
let pgPort = 0;
let server: ServerProcess | null = null;
let url = '';
/** The API's output (lines pushed as they come). */
let logs: string[] = [];
const redisPrefix = `lm-pgrestart-${randomBytes(4).toString('hex')}:`;

const pgCtl = (...args: string[]) => pgTool(bin, 'pg_ctl', ['-D', dataDir, ...args]);
const startPostgres = () =>
  pgCtl(
    '-o',
    `-p ${pgPort} -k ${tmp} -c listen_addresses=127.0.0.1`,
    '-l',
    join(tmp, 'log'),
    '-w',
    '-t',
    '60',
    'start',
  );

beforeAll(async () => {
  bin = postgresBin();
  tmp = mkdtempSync(join(tmpdir(), 'lm-pg-restart-'));
  dataDir = join(tmp, 'data');
  if (asRoot) await run('chown', ['postgres:', tmp]);
  await pgTool(bin, 'initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  pgPort = await freePort();
  await startPostgres();

  const appDir = join(tmp, 'app'); // the API's DATA_DIR (dev keys), removed with the cluster
  mkdirSync(appDir);
  server = await ServerProcess.create({
    ...TEST_KEYS,
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    DATA_DIR: appDir,
    DATABASE_URL: `postgres://postgres@127.0.0.1:${pgPort}/postgres`,
    ...(REDIS_URL ? { REDIS_URL, REDIS_KEY_PREFIX: redisPrefix } : {}),
    PARTNER_SANDBOX: 'off',
    DELIVERY_WORKER: 'off',
    // Every client here is 127.0.0.1: the per-IP SMS cap must not be what refuses the load.
    SMS_IP_HOURLY_LIMIT: '1000000',
    WEB_DIST: join(appDir, 'no-web'),
    ADMIN_DIST: join(appDir, 'no-admin'),
  });
  url = server.url;
  logs = server.logs;
  await server.start();
}, 120_000);

afterAll(async () => {
  if (server?.running) await server.stop('SIGKILL');
  if (dataDir && existsSync(join(dataDir, 'postmaster.pid'))) {
    await pgCtl('-m', 'immediate', '-w', 'stop').catch(() => undefined);
  }
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  if (REDIS_URL) {
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${redisPrefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  }
}, 60_000);

/** Every answer the API gave during the run. */
const answers: Answer[] = [];
/** Requests that got no HTTP answer at all (the API not answering is a failure). */
const noAnswer: string[] = [];

async function call<T = unknown>(method: string, path: string, payload?: unknown, token?: string) {
  let res: Response;
  try {
    res = await fetch(`${url}${path}`, {
      method,
      headers: {
        ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { accesstoken: token } : {}),
      },
      ...(payload !== undefined ? { body: JSON.stringify(payload) } : {}),
      signal: AbortSignal.timeout(45_000),
    });
  } catch (err) {
    noAnswer.push(`${method} ${path}: ${(err as Error).message}`);
    return { status: 0, code: 0, data: null as T };
  }
  const text = await res.text();
  answers.push({ path: `${method} ${path.split('?')[0]}`, status: res.status, text, at: Date.now() });
  let parsed: { code?: unknown; data?: unknown } = {};
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    // checked on `answers` afterwards
  }
  return { status: res.status, code: parsed.code, data: parsed.data as T };
}

/**
 * The H5 journey: health, send a code, read it from the dev outbox, log in, save the form.
 * Answers the token when every step succeeded, else null (the first failing step ends it).
 */
async function journey(): Promise<{ token: string } | null> {
  await call('GET', '/api/user/health');
  const phone = newPhone();
  if ((await call('POST', '/api/login/sendPhoneVerifyCode', { phone })).status !== 200) return null;
  const outbox = await call<{ code: string }[]>('GET', `/api/dev/sms-outbox?phone=${phone}`);
  const code = outbox.data?.[0]?.code;
  if (outbox.status !== 200 || !code) return null;
  const login = await call<{ token: string }>('POST', '/api/login', { phone, code });
  if (login.status !== 200 || !login.data?.token) return null;
  const saved = await call('POST', '/api/user/info/save', FORM, login.data.token);
  if (saved.status !== 200) return null;
  return { token: login.data.token };
}

describe('PostgreSQL restarted under load (real API process, own PostgreSQL cluster)', () => {
  it('answers the envelope while PostgreSQL is down, never exits, recovers by itself, loses nothing', async () => {
    // Someone saves their form before the restart.
    const before = await journey();
    expect(before, logs.join('')).not.toBeNull();
    const detailBefore = await call('GET', '/api/user/info/detail', undefined, before!.token);
    const draftBefore = await call('GET', '/api/user/info/form/show', undefined, before!.token);
    expect(detailBefore.data).toMatchObject({ applyLimit: FORM.applyLimit, workCity: FORM.workCity });

    // Load: four clients running journeys until told to stop.
    let stop = false;
    let completed = 0;
    const client = async () => {
      while (!stop) {
        if (await journey()) completed++;
        else await sleep(20); // a failed step: start again with a new person, without spinning
      }
    };
    const load = Promise.all([client(), client(), client(), client()]);

    // Some journeys complete before the restart.
    const warm = Date.now() + 30_000;
    while (completed < 4 && Date.now() < warm && noAnswer.length === 0) await sleep(50);
    expect(completed, logs.join('')).toBeGreaterThanOrEqual(4);

    // PostgreSQL stops (fast: sessions are terminated), stays down a couple of seconds, starts again.
    await pgCtl('-m', 'fast', '-w', 'stop');
    const downAt = Date.now();
    const minDown = downAt + 2_000;
    const maxDown = downAt + 15_000;
    const unavailableWhileDown = () => answers.filter((a) => a.at >= downAt && a.status === 503).length;
    while ((Date.now() < minDown || unavailableWhileDown() < 3) && Date.now() < maxDown) await sleep(50);
    const seenWhileDown = unavailableWhileDown();
    const upAt = Date.now();
    await startPostgres();
    const startedAt = Date.now();

    // The clients recover without the API being restarted: journeys complete again.
    const afterRestart = completed;
    const recoverBy = Date.now() + 30_000;
    while (completed < afterRestart + 4 && Date.now() < recoverBy) await sleep(100);
    stop = true;
    await load;
    expect(
      completed,
      `journeys completed after PostgreSQL came back\n${logs.join('')}`,
    ).toBeGreaterThanOrEqual(afterRestart + 4);

    // The outage was seen: requests while PostgreSQL was down were answered 503.
    expect(seenWhileDown, 'answers 503 while PostgreSQL was down').toBeGreaterThan(0);
    // Health answered too while it was down, and said so.
    const healthDown = answers.filter(
      (a) => a.path === 'GET /api/user/health' && a.at >= downAt && a.at <= upAt && a.status === 200,
    );
    expect(healthDown.some((a) => (JSON.parse(a.text) as { data: { db: string } }).data.db === 'down')).toBe(
      true,
    );

    // Every answer of the whole run: JSON with the envelope, 200 or the 503 catalogue error, no internals.
    expect(noAnswer, 'requests without an HTTP answer').toEqual([]);
    const bad = answers.filter((a) => {
      if (a.status !== 200 && a.status !== 503) return true;
      if (INTERNALS.test(a.text)) return true;
      let env: { code?: unknown; msg?: unknown; data?: unknown };
      try {
        env = JSON.parse(a.text) as typeof env;
      } catch {
        return true;
      }
      if (typeof env.code !== 'number' || typeof env.msg !== 'string' || !('data' in env)) return true;
      return a.status === 503 && (env.code !== 503 || env.msg !== UNAVAILABLE_MSG);
    });
    expect(bad.slice(0, 5), `unexpected answers (${bad.length})`).toEqual([]);
    const statuses = new Set(answers.map((a) => a.status));
    expect([...statuses].sort()).toEqual([200, 503]);

    // Health says the database is back, without restarting the API.
    const healthBy = Date.now() + 30_000;
    let health = await call<{ db: string }>('GET', '/api/user/health');
    while (health.data?.db !== 'ok' && Date.now() < healthBy) {
      await sleep(200);
      health = await call<{ db: string }>('GET', '/api/user/health');
    }
    expect(health.data).toMatchObject({ status: 'ok', db: 'ok' });

    // A whole new journey succeeds.
    expect(await journey(), logs.join('')).not.toBeNull();

    // The person who saved before the restart still has their form (and their session).
    const detailAfter = await call('GET', '/api/user/info/detail', undefined, before!.token);
    expect(detailAfter.status).toBe(200);
    expect(detailAfter.data).toEqual(detailBefore.data);
    const draftAfter = await call('GET', '/api/user/info/form/show', undefined, before!.token);
    expect(draftAfter.status).toBe(200);
    expect(draftAfter.data).toEqual(draftBefore.data);

    // The process never exited and still listens; nothing went unhandled.
    expect(server!.running).toBe(true);
    expect((await fetch(`${url}/api/user/health`)).status).toBe(200);
    expect(logs.join('')).not.toMatch(/unhandled (rejection|error)|uncaught/i);

    // What happened, for the log of a run (figures in bench/README.md).
    const firstOk = answers.find(
      (a) => a.at >= startedAt && a.status === 200 && a.path !== 'GET /api/user/health',
    );
    console.info(
      `pg-restart: ${answers.length} answers (${answers.filter((a) => a.status === 503).length} × 503, the rest 200); ` +
        `PostgreSQL down ${((startedAt - downAt) / 1000).toFixed(1)} s (stopped ${((upAt - downAt) / 1000).toFixed(1)} s, then starting); ` +
        `${seenWhileDown} × 503 while down; first journey call answered 200 ${firstOk ? `${firstOk.at - startedAt} ms` : '-'} after PostgreSQL was up; ` +
        `${completed} journeys completed`,
    );
  });
});
