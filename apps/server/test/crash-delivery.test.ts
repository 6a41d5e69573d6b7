import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { MatchResultData } from '@lm/shared/schemas/matching';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_PARTNERS } from '../src/modules/products/seed.ts';
import { FORM } from './fixtures.ts';
import { BACKEND, newPhone, PG_URL } from './helpers.ts';
import { LocalPartner } from './partner-server.ts';

/**
 * The real server process is killed with SIGKILL while it delivers leads; after a restart every
 * consented lead reaches the partner, each under one idempotency key (one lead for the partner).
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const SECRETS = new Map(DEMO_PARTNERS.map((p) => [p.code, p.signingSecret!]));
// Seeded endpoints: <partner url>/api/dev/partner-sandbox/<code>/leads
const secretOfPath = (path: string) => SECRETS.get(path.split('/')[4] ?? '') ?? 'unknown';

async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
    srv.on('error', rej);
  });
}

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe(`delivery survives kill -9 (${BACKEND})`, () => {
  it('after a SIGKILL mid-delivery and a restart, every consented lead is delivered once', async () => {
    // The partner: the first try of each lead answers too late (it still takes the lead), the second
    // fails, later ones succeed; it de-duplicates on the idempotency key.
    const partner = new LocalPartner(secretOfPath, (attempt) =>
      attempt === 1 ? { hangMs: 1200, thenStatus: 200 } : attempt === 2 ? { status: 500 } : { status: 200 },
    );
    await partner.start();
    cleanups.push(() => partner.stop());

    const dataDir = mkdtempSync(join(tmpdir(), 'lm-crash-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    let databaseUrl: string | undefined;
    if (PG_URL) {
      const name = `lm_crash_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      const u = new URL(PG_URL);
      u.pathname = `/${name}`;
      databaseUrl = u.toString();
      cleanups.push(async () => {
        const c = new pg.Client({ connectionString: PG_URL });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      });
    }

    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const logs: string[] = [];
    let child: ChildProcess | null = null;
    const start = async () => {
      // node itself with tsx's loader: one process, so SIGKILL kills the server (the tsx CLI would
      // run it in a child process that survives its parent's SIGKILL).
      child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
        cwd: ROOT,
        env: {
          ...process.env,
          NODE_ENV: 'development',
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          LOG_LEVEL: 'warn',
          ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
          PARTNER_SANDBOX: 'on',
          PARTNER_SANDBOX_URL: partner.url,
          DELIVERY_POLL_MS: '50',
          DELIVERY_TIMEOUT_MS: '800',
          DELIVERY_BACKOFF_BASE_MS: '50',
          DELIVERY_BACKOFF_MAX_MS: '200',
          DELIVERY_LEASE_MS: '1500',
          WEB_DIST: join(dataDir, 'no-web'),
          ADMIN_DIST: join(dataDir, 'no-admin'),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout?.on('data', (d) => logs.push(String(d)));
      child.stderr?.on('data', (d) => logs.push(String(d)));
      const deadline = Date.now() + 60_000;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`server exited:\n${logs.join('')}`);
        try {
          if ((await fetch(`${url}/api/user/health`)).ok) return;
        } catch {
          // not listening yet
        }
        if (Date.now() > deadline) throw new Error(`server did not start:\n${logs.join('')}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    const kill9 = async () => {
      const c = child!;
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      await exited;
      // Nothing answers on the port any more: the server really is gone.
      await expect(fetch(`${url}/api/user/health`)).rejects.toThrow();
    };
    cleanups.push(() => {
      if (child && child.exitCode === null) child.kill('SIGKILL');
    });

    const call = async <T>(method: string, path: string, payload?: unknown, token?: string) => {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { accesstoken: token } : {}) },
        ...(payload !== undefined ? { body: JSON.stringify(payload) } : {}),
      });
      return (await res.json()) as { code: number; msg: string; data: T };
    };

    await start();
    let expected = 0;
    for (let i = 0; i < 4; i++) {
      const phone = newPhone();
      expect((await call('POST', '/api/login/sendPhoneVerifyCode', { phone })).code).toBe(200);
      const code = (await call<{ code: string }[]>('GET', `/api/dev/sms-outbox?phone=${phone}`)).data[0]!
        .code;
      const login = await call<{ token: string }>('POST', '/api/login', { phone, code });
      const token = login.data.token;
      const match = await call<MatchResultData>('POST', '/api/user/info/save', FORM, token);
      expect(match.code, match.msg).toBe(200);
      const ids = [match.data, ...match.data.mayAuthProductList].filter((o) => o.id).map((o) => o.id!);
      const auth = await call<{ consented: { mode: string }[] }>(
        'PUT',
        '/api/user/info/auth',
        { productIds: ids },
        token,
      );
      expect(auth.code, auth.msg).toBe(200);
      expected += auth.data.consented.filter((c) => c.mode === 'api').length;
    }
    expect(expected).toBeGreaterThan(0);

    // Kill the server while first tries are in flight.
    const until = Date.now() + 10_000;
    while (partner.requests.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(partner.requests.length).toBeGreaterThan(0);
    await kill9();
    const beforeRestart = partner.requests.length;

    await start();
    const deadline = Date.now() + 30_000;
    while (partner.accepted.size < expected && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    // Give a re-sent lead a moment to show up twice if the server were to send it again.
    await new Promise((r) => setTimeout(r, 500));
    await kill9();

    expect(partner.requests.length).toBeGreaterThan(beforeRestart);
    expect(partner.accepted.size, logs.join('')).toBe(expected);
    // Every request of one lead carried that lead's key: the partner saw exactly `expected` leads.
    expect(new Set(partner.requests.map((r) => r.key)).size).toBe(expected);
    expect(partner.requests.every((r) => r.signatureOk)).toBe(true);
  });
});
