// Helpers shared by the load benchmarks (login.mjs, journey.mjs): fresh phones, free ports, CPU
// accounting from /proc, quiet-machine checks, child-process servers.

import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
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

/**
 * CPU time the hypervisor gave to other guests while this VM's CPUs wanted to run (the `steal` column of
 * /proc/stat, all CPUs summed), in ms; null where there is no /proc/stat. Read before and after a run: a
 * stolen stretch stops the server and the load generator alike, and a latency tail goes with it.
 */
export function stolenMs() {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/);
    return (Number(cpu[8]) * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

/**
 * The longest this process's event loop did not turn, from a 1-ms timer, until the returned function is
 * called (it answers ms): the load generator's own stalls, which add to every latency it times.
 */
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

/**
 * The CPUs of this 2-core machine's benches that pin (race.mjs; hot-path.mjs --pin): servers on one, load
 * generators on the other, so that neither takes the other's CPU (a server's GC and helper threads, the load
 * generator's parsing). Each side then has exactly one core, for bare Fastify and the app alike.
 */
export const SERVER_CPU = '0';
export const LOADER_CPU = '1';

/** Pins every thread of a process (and the threads it makes later, which inherit it) to one CPU. */
export function pinProcess(pid, cpu) {
  execFileSync('taskset', ['-a', '-p', '-c', cpu, String(pid)], { stdio: 'ignore' });
}

/**
 * Pins a process's main thread (the one that answers requests) to `mainCpu` and every other thread it has now
 * (the database's thread of ADR 047, libuv's pool, V8's helpers) to `otherCpu`. Threads made later inherit the
 * affinity of the thread that makes them, the main one mostly: call it again once they exist (after a warm-up).
 */
export function pinMainThread(pid, mainCpu, otherCpu) {
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const cpu = tid === String(pid) ? mainCpu : otherCpu;
    execFileSync('taskset', ['-p', '-c', cpu, tid], { stdio: 'ignore' });
  }
}

/** The middle value (the mean of the two middle ones for an even count). */
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
 * The landing's address as an ad platform opens it for one visitor: the channel's link with that click's own
 * parameters (a click id and a callback address, new per visitor), so no two visitors ask for the same address.
 */
export function adLandingPath(n) {
  const clickid = `bench${n.toString(36)}`;
  const callback = encodeURIComponent(`https://ad.example.com/conv?clickid=${clickid}&event=landing`);
  return `${AD_BURST_REQUESTS.landing.path}&clickid=${clickid}&callback=${callback}`;
}

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

/**
 * autocannon 8 appends every chunk of every answer to a string (`req.body += data`,
 * lib/pipelinedRequestsQueue.js): a UTF-8 decode of each body, binary or not. For a brotli page of 8.8 KB
 * that decode is the load generator's whole core at ~9 k answers/s while the server is half idle (issue
 * 17.3, measured 2026-11-27): the figure would be the load generator's, not the server's. After this call
 * the body handed to `onResponse` is the answer's bytes (a Buffer; `JSON.parse` and `String()` read it as
 * UTF-8, as before). Each answer is still read off the socket and parsed as HTTP; only the decode goes.
 */
export function keepAutocannonBodiesAsBytes() {
  const require = createRequire(import.meta.url);
  const Queue = require('autocannon/lib/pipelinedRequestsQueue.js');
  if (Queue.prototype.addBody.bytes) return;
  const addBody = function addBody(data) {
    const req = this.peek();
    if (req) req.body = req.body === '' ? data : Buffer.concat([req.body, data]);
  };
  addBody.bytes = true;
  Queue.prototype.addBody = addBody;
}

/**
 * autocannon 8 paces a client (`overallRate`, `connectionRate`) by a quota per second: at each second's tick
 * every client sends its quota back to back, then waits for the next tick (lib/httpClient.js). At 80 % of
 * saturation that is a second of full load in 0.8 s and 0.2 s of nothing, every client starting together:
 * the p99 is the burst's queue, not what a visitor meets at 80 % load (issue 17.3, ADR 039; measured
 * 2026-11-27 with 100 connections: p99 51 ms paced, 14 ms saturated). For `setupClient`: this client sends
 * its share of the rate on a schedule instead, one request due every period (one timer for all clients,
 * every millisecond or as soon as the load generator's loop allows).
 *
 * `phase` (0 to 1) is where in its period this client starts: give client i of n the phase i / n. Clients
 * that all start at once, as they did until 2026-11-29, stay in lock-step: every client's request comes due
 * in the same millisecond and the server gets all n requests at once, once a period — at 80 % of saturation,
 * n connections' requests in one burst, the p99 being that burst's queue again (measured with 100
 * connections, click-new on PGlite: p99 13 ms at 50 % and 26 ms at 80 % in lock-step; see bench/README.md,
 * eighteenth session).
 *
 * A connection waits for each answer before it sends again, so a slow answer delays the requests due after
 * it: autocannon times a request from its send, and leaves that wait out (coordinated omission: a server that
 * stops for 50 ms is charged for the few requests in flight, not for the hundreds that came due meanwhile and
 * would have waited in a real visitor's place). `latencies` (an array): each answer's time from when its
 * request was DUE is pushed onto it, in ms, the wait before the send included, as wrk2 does. A client that
 * owes requests sends them back to back; `catchUpMs` (default: no limit) drops those owed more than that
 * long (counted in `missed`), the pacing of 2026-11-29's runs being `catchUpMs` 20 without `latencies`.
 */
export function paceEvenly(
  client,
  { phase = 0, catchUpMs = Number.POSITIVE_INFINITY, latencies, missed } = {},
) {
  const perSecond = client.rate;
  if (!perSecond) return;
  // autocannon's own quota off: no per-second interval is started for a client without a rate.
  client.rate = 0;
  const period = 1000 / perSecond;
  const paced = {
    client,
    period,
    // The first request is due `phase` of a period from now, each next one a period later.
    next: performance.now() + Math.min(Math.max(phase, 0), 1 - Number.EPSILON) * period,
    // Due times of the requests owed (not sent yet), oldest first; at most `cap` of them.
    due: [],
    cap: Math.max(2, (perSecond * catchUpMs) / 1000),
    // Due times of the requests sent and not answered (one, without pipelining).
    inFlight: [],
    waiting: false,
    missed,
  };
  const send = client._doRequest;
  client._doRequest = function (...rest) {
    comeDue(paced, performance.now());
    if (paced.due.length > 0) {
      paced.inFlight.push(paced.due.shift());
      return send.apply(this, rest);
    }
    paced.waiting = true;
  };
  if (latencies) {
    // autocannon emits 'response' before it sends the next request: the oldest in flight is this answer's.
    client.on('response', () => {
      const dueAt = paced.inFlight.shift();
      if (dueAt !== undefined) latencies.push(performance.now() - dueAt);
    });
  }
  // A timed-out or broken connection's request gets no answer (autocannon counts it as an error).
  client.on('timeout', () => paced.inFlight.shift());
  client.on('connError', () => {
    paced.inFlight.length = 0;
  });
  pacedClients.add(paced);
  client.on('done', () => pacedClients.delete(paced));
  if (!pacer) pacer = setInterval(refill, 1);
}

/** Moves the requests of `p` that came due by `now` onto its owed list (the oldest dropped past its cap). */
function comeDue(p, now) {
  while (p.next <= now) {
    p.due.push(p.next);
    p.next += p.period;
    if (p.due.length > p.cap) {
      p.due.shift();
      if (p.missed) p.missed.count++;
    }
  }
}

/** Clients paced by `paceEvenly`; one timer sends each waiting client's request that came due. */
const pacedClients = new Set();
let pacer = null;

function refill() {
  if (pacedClients.size === 0) {
    clearInterval(pacer);
    pacer = null;
    return;
  }
  const now = performance.now();
  for (const p of pacedClients) {
    comeDue(p, now);
    if (p.waiting && p.due.length > 0 && !p.client.destroyed) {
      p.waiting = false;
      p.client._doRequest();
    }
  }
}
