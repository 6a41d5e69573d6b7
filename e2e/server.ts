import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

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

export interface RunningServer {
  url: string;
  dataDir: string;
  /** SIGTERM, then the exit code (0 after a graceful shutdown). */
  stop(): Promise<number | null>;
  logs: string[];
}

/** Starts the real server (as `npm start` does, without rebuilding the UI) on a fresh data dir. */
export function newDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'lm-e2e-'));
}

export async function startServer(
  env: Record<string, string> = {},
  dataDir = newDataDir(),
): Promise<RunningServer> {
  const port = await freePort();
  const logs: string[] = [];
  const child: ChildProcess = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['apps/server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      NODE_ENV: 'development',
      // Its metrics listener on a port of its own: the default 9464 may be another process's (a dev server,
      // the topology test's worker).
      METRICS_PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => logs.push(String(d)));
  child.stderr?.on('data', (d) => logs.push(String(d)));
  const url = `http://127.0.0.1:${port}`;
  // A fresh embedded database migrates and seeds first: on a busy machine that takes a while.
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${logs.join('')}`);
    try {
      const res = await fetch(`${url}/api/user/health`);
      if (res.ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      // Not left running behind the failed test file.
      child.kill('SIGKILL');
      throw new Error(`server did not start in 180 s:\n${logs.join('')}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    dataDir,
    logs,
    stop: async () => {
      if (child.exitCode !== null) return child.exitCode;
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Runs a CLI of the server (admin-create …) on the test server's data, in development as the server runs. */
export function runCli(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((res, rej) => {
    const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), args, {
      cwd: ROOT,
      // Not the shell's NODE_ENV: in production the CLI refuses the generated keys the test server uses.
      env: { ...process.env, NODE_ENV: 'development', ...env },
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('exit', (code) => (code === 0 ? res(out) : rej(new Error(out))));
  });
}
