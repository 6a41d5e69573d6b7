// Helpers shared by the load benchmarks (login.mjs, journey.mjs): fresh phones, free ports, CPU
// accounting from /proc, quiet-machine checks, child-process servers.

import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const warnings = [];
export let phoneCounter = 0;
/** A phone never used before in this run: 139 + 8-digit counter (random start). */
export const phoneBase = Math.floor(Math.random() * 50_000_000);
export function nextPhone() {
  const n = (phoneBase + phoneCounter++) % 100_000_000;
  return `139${String(n).padStart(8, '0')}`;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function cpuTimes() {
  const [, ...f] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const n = f.map(Number);
  const idle = n[3] + (n[4] ?? 0); // idle + iowait
  return { idle, total: n.reduce((a, b) => a + b, 0) };
}

/**
 * Share of the machine's CPU busy over `ms` while this script is idle: work by something else
 * (another session's test suite, say) that will skew the figures. null where /proc is missing.
 */
export async function foreignCpuBusy(ms = 2000) {
  try {
    const a = cpuTimes();
    await sleep(ms);
    const b = cpuTimes();
    return Math.round((1 - (b.idle - a.idle) / (b.total - a.total)) * 100);
  } catch {
    return null;
  }
}

/** Before a measured section: note how busy the machine is, and warn when it is. */
export async function checkQuiet(label) {
  const busy = await foreignCpuBusy();
  if (busy !== null && busy > 20) {
    log(`${label}: WARNING: CPU ${busy}% busy before the run (not this script); figures will be low`);
    warnings.push({ section: label, cpuBusyBeforePercent: busy });
  }
  return busy;
}

export function watchLoopGaps() {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  return () => {
    clearInterval(timer);
    return Math.round(Math.max(longest, performance.now() - last) * 10) / 10;
  };
}

export function log(...a) {
  console.error(`[${new Date().toISOString().slice(11, 19)}]`, ...a);
}

/** Starts a child process, keeping the tail of its output for error reports. */
export function startChild(cmd, argv, opts) {
  const child = spawn(cmd, argv, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  // BENCH_SERVER_OUTPUT=<file>: every child's whole output is appended there too (e.g. a server's
  // `--trace-gc` lines, with `--server-node-args`), after one line naming its command. Written synchronously by
  // the bench's own thread: keep it for traces, not for the figures of a run that must be undisturbed.
  const copyTo = process.env.BENCH_SERVER_OUTPUT;
  if (copyTo) appendFileSync(copyTo, `\n==== ${new Date().toISOString()} ${cmd} ${argv.join(' ')}\n`);
  const keep = (d) => {
    if (copyTo) appendFileSync(copyTo, d);
    output += d.toString();
    if (output.length > 20_000) output = output.slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  let exitInfo = null;
  exited.then((e) => {
    exitInfo = e;
  });
  return {
    child,
    exited,
    output: () => output,
    hasExited: () => exitInfo !== null,
    exitInfo: () => exitInfo,
  };
}

export async function stopChild(proc, label) {
  if (proc.hasExited()) return proc.exitInfo();
  proc.child.kill('SIGTERM');
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve('timeout'), 15_000);
  });
  const r = await Promise.race([proc.exited, timeout]);
  clearTimeout(timer);
  if (r === 'timeout') {
    log(`${label}: no exit 15 s after SIGTERM; sending SIGKILL`);
    proc.child.kill('SIGKILL');
    return proc.exited;
  }
  return r;
}

// The ceiling of this machine: bare Fastify 5 (no plugins, no logger) in a child process, so it does
// not share an event loop with the load generator. `GET /` answers a small JSON envelope, `POST /echo`
// parses and returns a JSON body.
const HELLO_SRC = `
import Fastify from 'fastify';
const app = Fastify({ logger: false });
app.get('/', async () => ({ code: 200, msg: 'ok', data: { hello: 'world' } }));
app.post('/echo', async (req) => ({ code: 200, msg: 'ok', data: req.body }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('ready');
`;

/**
 * Starts the hello-world server (or another bare server: `src`, a module that listens on PORT and prints
 * `ready`); resolves {proc, base} once it listens. Stop it with stopChild.
 */
export async function startHello(cwd, src = HELLO_SRC) {
  const port = await freePort();
  const proc = startChild(process.execPath, ['--input-type=module', '-e', src], {
    cwd,
    env: { ...process.env, PORT: String(port) },
  });
  const deadline = Date.now() + 20_000;
  while (!proc.output().includes('ready')) {
    if (proc.hasExited() || Date.now() > deadline) {
      throw new Error(`hello-world server failed to start:\n${proc.output()}`);
    }
    await sleep(50);
  }
  return { proc, base: `http://127.0.0.1:${port}` };
}

export function median(xs) {
  const v = [...xs].sort((x, y) => x - y);
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
}

/**
 * The ad burst's first requests as a phone's browser sends them (Chrome's Accept-Encoding): the channel's
 * configuration, and the server-rendered landing of channel demo-skin8.
 */
export const AD_BURST_REQUESTS = Object.freeze({
  h5config: Object.freeze({
    path: '/api/adChannel/h5Config?adChannelCode=demo',
    headers: Object.freeze({ 'accept-encoding': 'gzip, deflate, br, zstd' }),
  }),
  landing: Object.freeze({
    path: '/?adChannelCode=demo-skin8',
    headers: Object.freeze({ 'accept-encoding': 'br, gzip' }),
  }),
});

/**
 * The demo application form: a Shenzhen employee whom several seeded lenders match. Shared by the journey
 * and web benchmarks; a copy of apps/server/test/fixtures.ts FORM (which the e2e tests use too), as plain
 * JavaScript run by node cannot import TypeScript.
 */
export const DEMO_FORM = Object.freeze({
  adChannelCode: 'demo',
  isHuaWeiPhone: false,
  applyLimit: 2,
  job: 1,
  payoffForm: 1,
  socialSecurity: 2,
  housingFund: 2,
  insurance: 2,
  houseProperty: 2,
  carProperty: 1,
  sesameCredit: 4,
  creditInvestigation: 1,
  realName: '张三',
  identity: '110101199003074514',
  workCity: '深圳市',
  workCityCode: '440300',
});

/**
 * Starts `apps/server` (in `serverDir`) as `node --import tsx src/main.ts` — what `npx tsx` runs, minus
 * the npx and tsx-cli wrapper processes, so that SIGTERM reaches the server — on a free port with a
 * fresh `DATA_DIR`, not in production (demo channels, the SMS outbox), LOG_LEVEL=warn; on PostgreSQL
 * (`pgUrl`) and Redis (`redisUrl`, keys under `redisPrefix`) when given. Waits (90 s at most) for
 * `GET /api/user/health` to answer code 200; a server that does not is stopped, its data removed.
 */
export async function startBenchServer({
  serverDir,
  label,
  env: extra = {},
  pgUrl,
  redisUrl,
  redisPrefix,
  tmpPrefix,
  nodeArgs = [],
}) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), tmpPrefix ?? 'lm-bench-'));
  const env = {
    ...process.env,
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // The metrics listener on a free port: 9464 may be another process's.
    METRICS_PORT: '0',
    ...extra,
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  delete env.REDIS_KEY_PREFIX;
  delete env.PARTNER_SANDBOX_URL;
  if (pgUrl) env.DATABASE_URL = pgUrl;
  if (redisUrl) {
    env.REDIS_URL = redisUrl;
    env.REDIS_KEY_PREFIX = redisPrefix;
  }
  const started = Date.now();
  const proc = startChild(process.execPath, ['--import', 'tsx', ...nodeArgs, 'src/main.ts'], {
    cwd: serverDir,
    env,
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  let last = '';
  while (Date.now() < deadline && !proc.hasExited()) {
    try {
      const body = await (await fetch(`${base}/api/user/health`)).json();
      last = JSON.stringify(body);
      if (body?.code === 200) {
        return { proc, base, port, dataDir, startupMs: Date.now() - started, health: body.data };
      }
    } catch (err) {
      last = String(err?.cause?.code ?? err);
    }
    await sleep(200);
  }
  await stopChild(proc, label);
  rmSync(dataDir, { recursive: true, force: true });
  throw new Error(
    `server (${label}) did not become healthy: last health answer ${last}; exit ${JSON.stringify(proc.exitInfo())}\n` +
      `--- server output ---\n${proc.output()}`,
  );
}
