import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_URL } from './helpers.ts';
import { freePort, inheritedEnv, ServerProcess, scratchDatabase } from './server-process.ts';

/**
 * Production runs the built JavaScript (ADR 064): apps/server/scripts/build.mjs — the build `npm run build` and
 * `npm start` make — into a directory of its own (beside dist/, so a server running from dist/ is not
 * disturbed), then each entry run by plain `node` from another working directory: the API answers on the
 * embedded database (its thread, its migrations) and stops cleanly on SIGTERM, the worker and admin:create
 * start, the face detector's thread loads its model. Nothing built imports tsx or a development dependency.
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const SERVER = join(ROOT, 'apps/server');

interface Exit {
  code: number | null;
  signal: string | null;
  output: string;
}

/** Runs `node args…` to its end (2 minutes at most). */
function runNode(args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Exit> {
  return new Promise((res, rej) => {
    const c = spawn(process.execPath, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    c.stdout.on('data', (d) => {
      output += String(d);
    });
    c.stderr.on('data', (d) => {
      output += String(d);
    });
    const timer = setTimeout(() => c.kill('SIGKILL'), 120_000);
    c.once('error', rej);
    c.once('close', (code, signal) => {
      clearTimeout(timer);
      res({ code, signal, output });
    });
  });
}

/** The npm package an import names (`drizzle-orm/pglite` → drizzle-orm, `@scope/x/y` → @scope/x). */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

const dependenciesOf = (file: string): string[] =>
  Object.keys((JSON.parse(readFileSync(file, 'utf8')) as { dependencies?: object }).dependencies ?? {});

let out = '';
let build: Exit;
/** The API's data directory, then admin:create's (the embedded database belongs to one process at a time). */
let dataDir = '';
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  mkdirSync(join(SERVER, 'dist'), { recursive: true });
  out = mkdtempSync(join(SERVER, 'dist', 'test-'));
  cleanups.push(() => rmSync(out, { recursive: true, force: true }));
  dataDir = mkdtempSync(join(tmpdir(), 'lm-compiled-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  build = await runNode([join(SERVER, 'scripts/build.mjs'), '--outdir', out], {
    cwd: ROOT,
    env: process.env,
  });
});

afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe('the compiled server (ADR 064)', () => {
  it('builds every entry and every worker thread the sources start', () => {
    expect(build.code, build.output).toBe(0);
    for (const name of [
      'main.js',
      'worker.js',
      'admin-create.js',
      'pglite-worker.mjs',
      'detector-worker.mjs',
    ])
      expect(existsSync(join(out, name)), name).toBe(true);
  });

  it('imports neither tsx nor TypeScript nor anything outside the production dependencies', () => {
    const allowed = new Set([
      ...builtinModules,
      ...dependenciesOf(join(SERVER, 'package.json')),
      ...dependenciesOf(join(ROOT, 'packages/shared/package.json')),
    ]);
    allowed.delete('@lm/shared'); // bundled: its exports are TypeScript, which node does not run
    const files = readdirSync(out).filter((f) => /\.m?js$/.test(f));
    expect(files.length).toBeGreaterThanOrEqual(5);
    const imported = new Set<string>();
    for (const file of files) {
      const text = readFileSync(join(out, file), 'utf8');
      expect(text, file).not.toMatch(/["']tsx(\/[^"']*)?["']/);
      expect(text, file).not.toMatch(/(from|import\(|require\d*\()\s*["'][^"']+\.tsx?["']/);
      const specifiers = [
        ...text.matchAll(/^import\s[^;]*?from\s*"([^"]+)";$/gm),
        ...text.matchAll(/^import\s*"([^"]+)";$/gm),
        ...text.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g),
        ...text.matchAll(/\brequire\d*(?:\.resolve)?\(\s*"([^"]+)"\s*\)/g),
      ].map((m) => m[1]!);
      for (const s of specifiers) {
        expect(s.startsWith('.'), `${file} imports ${s}: everything of ours is bundled`).toBe(false);
        imported.add(s.startsWith('node:') ? s.slice(5) : packageOf(s));
      }
    }
    const outside = [...imported].filter((p) => !allowed.has(p));
    expect(outside, 'packages the built server imports that production installs do not have').toEqual([]);
    // The scan reads the bundles' imports at all.
    expect(imported).toContain('fastify');
    expect(imported).toContain('@electric-sql/pglite');
  });

  it('node main.js answers on the embedded database, from another working directory, and exits 0 on SIGTERM', async () => {
    const metricsPort = await freePort();
    const server = await ServerProcess.create(
      {
        NODE_ENV: 'development',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
        METRICS_PORT: String(metricsPort),
        DELIVERY_WORKER: 'off',
      },
      { args: ['--enable-source-maps', join(out, 'main.js')], cwd: dataDir },
    );
    try {
      await server.start();
      const ready = await fetch(`http://127.0.0.1:${metricsPort}/readyz`);
      expect(ready.status, server.output).toBe(200);

      // The demo channel: the migrations ran and the seed wrote it, through the database's own thread.
      const res = await fetch(`${server.url}/api/adChannel/h5Config?adChannelCode=demo`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { code: number; data: { adChannelCode: string } };
      expect(body.code).toBe(200);
      expect(body.data.adChannelCode).toBe('demo');

      // The front ends' builds are looked for beside apps/server, not beside the bundle nor in the cwd.
      const webDist = join(ROOT, 'apps/web/dist');
      if (existsSync(join(webDist, 'index.html'))) {
        const page = await fetch(`${server.url}/`);
        expect(page.status).toBe(200);
        expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      } else {
        expect(server.output).toContain(`"webDir":${JSON.stringify(webDist)}`);
      }

      await server.stop('SIGTERM');
    } finally {
      // Never left running (admin:create opens its database next).
      if (server.running) await server.stop('SIGKILL');
    }
    expect(server.child?.exitCode, server.output).toBe(0);
    expect(server.output).not.toMatch(/"level":50|Failed to start/);
  });

  it("node admin-create.js writes an account into the stopped server's embedded database", async () => {
    const args = ['--phone', '13900000000', '--name', '构建测试', '--role', 'viewer'];
    const r = await runNode([join(out, 'admin-create.js'), ...args], {
      cwd: dataDir,
      env: { ...inheritedEnv(), NODE_ENV: 'development', DATA_DIR: dataDir },
    });
    expect(r.code, r.output).toBe(0);
    expect(r.output).toMatch(/Created staff account #\d+ 构建测试 139\*+0000 role=viewer/);
  });

  it('node worker.js starts: refuses the embedded database, and drains on PostgreSQL when there is one', async () => {
    const env = { ...inheritedEnv(), NODE_ENV: 'development', METRICS_PORT: '0', DATA_DIR: dataDir };
    const refused = await runNode([join(out, 'worker.js')], { cwd: dataDir, env });
    expect(refused.code, refused.output).toBe(2);
    expect(refused.output).toContain('npm run worker needs DATABASE_URL (PostgreSQL)');
    if (!PG_URL) return;
    const database = await scratchDatabase(PG_URL, 'lm_compiled');
    cleanups.push(() => database.drop());
    const drained = await runNode([join(out, 'worker.js'), '--drain'], {
      cwd: dataDir,
      env: { ...env, DATABASE_URL: database.url },
    });
    expect(drained.code, drained.output).toBe(0);
    expect(drained.output).toContain('drained due leads');
  });

  it("the face detector's thread loads its model from the build's place", async () => {
    const worker = new Worker(join(out, 'detector-worker.mjs'), { workerData: { minConfidence: 0.5 } });
    try {
      const answer = await new Promise<{ id: number; ok: boolean; faces?: unknown[]; error?: string }>(
        (res, rej) => {
          worker.once('message', res);
          worker.once('error', rej);
          worker.postMessage({ id: 1, width: 64, height: 64, data: new Uint8Array(64 * 64 * 3) });
        },
      );
      expect(answer, answer.error).toMatchObject({ id: 1, ok: true, faces: [] });
    } finally {
      await worker.terminate();
    }
  });
});
