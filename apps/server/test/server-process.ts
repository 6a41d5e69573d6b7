import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect, createServer } from 'node:net';
import { resolve } from 'node:path';
import type { MatchResultData } from '@lm/shared/schemas/matching';
import pg from 'pg';
import { expect } from 'vitest';
import { newPhone } from './helpers.ts';

/** The real API server as a child process, for the fault tests (kill -9, database restarts). */
const ROOT = resolve(import.meta.dirname, '../../..');

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
    srv.on('error', rej);
  });
}

/** Opens a new TCP connection to `port`: 'connected' or the error's code (ECONNREFUSED). */
export function probe(port: number): Promise<string> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve('connected');
    });
    s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Settings of the shell that would mislead a server whose settings must be exactly the test's. */
const MISLEADING = [
  'DATABASE_URL',
  'REDIS_URL',
  'REDIS_KEY_PREFIX',
  'PII_KEYS',
  'PII_INDEX_KEY',
  'ENCRYPTED_MOBILE_KEYS',
];

/**
 * How the server is started: node's arguments and its working directory. By default the sources, with
 * tsx's loader (one process, so SIGKILL kills the server: the tsx CLI would run it in a child process that
 * survives its parent's SIGKILL); `{ args: [<dir>/main.js] }` runs a build (ADR 064).
 */
export interface ServerCommand {
  args?: string[];
  cwd?: string;
}

/** This process's environment without the settings in MISLEADING, for a child that must see only its own. */
export function inheritedEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of MISLEADING) delete env[k];
  return env;
}

export class ServerProcess {
  readonly logs: string[] = [];
  child: ChildProcess | null = null;

  /** `env` on top of this process's environment without the settings in MISLEADING. */
  constructor(
    readonly url: string,
    private readonly env: Record<string, string>,
    private readonly command: ServerCommand = {},
  ) {}

  static async create(env: Record<string, string>, command: ServerCommand = {}): Promise<ServerProcess> {
    const port = await freePort();
    return new ServerProcess(
      `http://127.0.0.1:${port}`,
      {
        // No metrics listener (tests run servers side by side) and no drain delay unless asked for.
        METRICS_PORT: '0',
        SHUTDOWN_DELAY_MS: '0',
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
      },
      command,
    );
  }

  get output(): string {
    return this.logs.join('');
  }

  /** Starts the server and waits until its health answers (60 s at most). */
  async start(): Promise<void> {
    const args = this.command.args ?? ['--import', 'tsx', 'apps/server/src/main.ts'];
    const c = spawn(process.execPath, args, {
      cwd: this.command.cwd ?? ROOT,
      env: { ...inheritedEnv(), ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = c;
    c.stdout?.on('data', (d) => this.logs.push(String(d)));
    c.stderr?.on('data', (d) => this.logs.push(String(d)));
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (c.exitCode !== null) throw new Error(`server exited:\n${this.output}`);
      try {
        if ((await fetch(`${this.url}/api/user/health`)).ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`server did not start within 60 s:\n${this.output}`);
      await sleep(200);
    }
  }

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Sends `signal` and waits for the exit; then nothing answers on the port any more. */
  async stop(signal: 'SIGKILL' | 'SIGTERM' = 'SIGKILL'): Promise<void> {
    const c = this.child;
    if (c && c.exitCode === null && c.signalCode === null) {
      const exited = new Promise((r) => c.once('exit', r));
      c.kill(signal);
      await exited;
    }
    let answered = false;
    try {
      await fetch(`${this.url}/api/user/health`);
      answered = true;
    } catch {
      // the port is dead, as it must be
    }
    if (answered) throw new Error(`something still answers on ${this.url} after the server exited`);
  }
}

/** A PostgreSQL database of its own for one test (on the server of `pgUrl`); drop() removes it. */
export async function scratchDatabase(
  pgUrl: string,
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(pgUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export type ApiCall = <T>(
  method: string,
  path: string,
  payload?: unknown,
  token?: string,
) => Promise<{ code: number; msg: string; data: T }>;

/** JSON calls to the server at `url`, as the H5 makes them: each answers the envelope. */
export function apiCaller(url: string): ApiCall {
  return async <T>(method: string, path: string, payload?: unknown, token?: string) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { accesstoken: token } : {}) },
      ...(payload !== undefined ? { body: JSON.stringify(payload) } : {}),
    });
    return (await res.json()) as { code: number; msg: string; data: T };
  };
}

/**
 * Through `call`: a new person logs in with the code from the dev outbox, saves `form` and consents to
 * every product offered; answers the consents (each call's success asserted).
 */
export async function consentOverHttp(call: ApiCall, form: object): Promise<{ mode: string }[]> {
  const phone = newPhone();
  expect((await call('POST', '/api/login/sendPhoneVerifyCode', { phone })).code).toBe(200);
  const code = (await call<{ code: string }[]>('GET', `/api/dev/sms-outbox?phone=${phone}`)).data[0]!.code;
  const token = (await call<{ token: string }>('POST', '/api/login', { phone, code })).data.token;
  const match = await call<MatchResultData>('POST', '/api/user/info/save', form, token);
  expect(match.code, match.msg).toBe(200);
  const ids = [match.data, ...match.data.mayAuthProductList].filter((o) => o.id).map((o) => o.id!);
  const auth = await call<{ consented: { mode: string }[] }>(
    'PUT',
    '/api/user/info/auth',
    { productIds: ids },
    token,
  );
  expect(auth.code, auth.msg).toBe(200);
  return auth.data.consented;
}
