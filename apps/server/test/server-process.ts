import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import pg from 'pg';

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

export class ServerProcess {
  readonly logs: string[] = [];
  child: ChildProcess | null = null;

  /** `env` on top of this process's environment without the settings in MISLEADING. */
  constructor(
    readonly url: string,
    private readonly env: Record<string, string>,
  ) {}

  static async create(env: Record<string, string>): Promise<ServerProcess> {
    const port = await freePort();
    return new ServerProcess(`http://127.0.0.1:${port}`, {
      // No metrics listener (tests run servers side by side) and no drain delay unless asked for.
      METRICS_PORT: '0',
      SHUTDOWN_DELAY_MS: '0',
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
    });
  }

  get output(): string {
    return this.logs.join('');
  }

  /** Starts the server and waits until its health answers (60 s at most). */
  async start(): Promise<void> {
    const inherited = { ...process.env };
    for (const k of MISLEADING) delete inherited[k];
    // node itself with tsx's loader: one process, so SIGKILL kills the server (the tsx CLI would run
    // it in a child process that survives its parent's SIGKILL).
    const c = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: ROOT,
      env: { ...inherited, ...this.env },
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
