#!/usr/bin/env node
// Load test of the whole applicant journey against each database backend. See bench/README.md,
// section "journey".
//
//   node bench/journey.mjs [--only pglite|postgres|postgres+redis] [--duration 20 | --journeys N]
//                          [--connections 20] [--warmup 100] [--by-step N] [--pg-url url] [--cpu-prof]
//
// One journey, with a phone never used before (139 + 8-digit counter):
//   send    POST /api/login/sendPhoneVerifyCode {phone}
//   outbox  GET  /api/dev/sms-outbox?phone=…            → data[0].code
//   login   POST /api/login {phone, code}                → data.token
//   save    POST /api/user/info/save (the form; matches) → data.matchId, data.id, data.mayAuthProductList
//   auth    PUT  /api/user/info/auth {productIds, matchId} with every offered id (skipped when the
//           match offered nothing: caps reached, applyStatus 0 or null)
// `--connections` virtual applicants run journeys back to back (closed loop, one request in flight
// each, keep-alive sockets) for `--duration` s or until `--journeys` have started. Any answer whose
// JSON envelope is not {code: 200} (or a socket error / timeout) is an error and ends that journey.
//
// For each backend: start apps/server as a child process (fresh temp DATA_DIR; for postgres a wiped
// schema in a database of its own; for redis a key prefix of its own, cleared before and after),
// wait for /api/user/health, warm up (`--warmup` journeys, not recorded), run, stop the server
// (SIGTERM, wait for exit). CPU time of this script, the server, PostgreSQL and Redis over the run
// is read from /proc. Results go to bench/results/journey-<timestamp>.json.
//
// --by-step N (diagnosis): after the journey run, N more journeys are run step by step: N sends,
// then N outbox reads, N logins, N saves, N consents (each phase at --connections), so the CPU time
// of the server and of PostgreSQL can be told per step. --cpu-prof: the server runs with
// `node --cpu-prof` and the profile of the measured run is summarised (self time by package,
// inclusive time of the app's functions).

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { clearRedisKeys, otherPgSessions, prepareBackend } from './backend.mjs';
import { call, FORM, journey, makeClient, newCtx, STEP_FNS, STEPS, StepError } from './journey-steps.mjs';
import {
  checkQuiet,
  cpuTimes,
  log,
  sleep,
  startBenchServer,
  startHello,
  stopChild,
  warnings,
} from './lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_DIR = path.join(ROOT, 'apps/server');
const RESULTS_DIR = path.join(ROOT, 'bench/results');
// A database of its own, created if missing: the bench wipes its `public` schema before each run,
// which must not happen under a test suite working in the shared `test` database (see README).
const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/lm_bench';
// Limiter keys get a prefix of their own, so clearing them leaves other users' keys alone (login.mjs
// uses `lmbench:`).
const REDIS_PREFIX = 'lmbench-journey:';
const REDIS_URL = 'redis://127.0.0.1:6379';
const BACKENDS = ['pglite', 'postgres', 'postgres+redis'];

const { values: args } = parseArgs({
  options: {
    only: { type: 'string' },
    duration: { type: 'string', default: '20' },
    journeys: { type: 'string' },
    connections: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '100' },
    'by-step': { type: 'string' },
    'pg-url': { type: 'string', default: process.env.BENCH_DATABASE_URL || DEFAULT_PG_URL },
    'cpu-prof': { type: 'boolean', default: false },
    ramp: { type: 'string' },
    'load-factor': { type: 'string', default: '0.8' },
    instances: { type: 'string', default: '1' },
    'skip-ceiling': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (args.help) {
  console.log(
    'usage: node bench/journey.mjs [--only pglite|postgres|postgres+redis] [--duration s | --journeys n] [--connections n] [--warmup n] [--by-step n] [--pg-url url] [--cpu-prof]\n' +
      '       node bench/journey.mjs --ramp 1,2,5,10,20,40 [--load-factor 0.8] [--instances 2] [--skip-ceiling] [--only …] [--duration s]',
  );
  process.exit(0);
}
const PG_URL = args['pg-url'];
const PG_DB = new URL(PG_URL).pathname.slice(1);
const DURATION = Number(args.duration);
const JOURNEYS = args.journeys !== undefined ? Number(args.journeys) : undefined;
const CONNECTIONS = Number(args.connections);
const WARMUP = Number(args.warmup);
const CPU_PROF = args['cpu-prof'];
const BY_STEP = args['by-step'] !== undefined ? Number(args['by-step']) : 0;
/** --ramp: closed-loop levels of concurrency, then an open loop at LOAD_FACTOR × the best rate. */
const RAMP = args.ramp ? args.ramp.split(',').map(Number) : null;
const LOAD_FACTOR = Number(args['load-factor']);
const INSTANCES = Number(args.instances);
/** The goal of issue 8: no errors, and every call's p99 under this at LOAD_FACTOR × saturation. */
const P99_GOAL_MS = 200;
const MAX_CONNECTIONS = Math.max(CONNECTIONS, ...(RAMP ?? []));
const backends = args.only ? args.only.split(',') : BACKENDS;
for (const b of backends) {
  if (!BACKENDS.includes(b)) {
    console.error(`unknown backend ${b}; expected one of ${BACKENDS.join(', ')}`);
    process.exit(2);
  }
}
if (
  (RAMP && !RAMP.every((n) => Number.isInteger(n) && n > 0)) ||
  !(LOAD_FACTOR > 0 && LOAD_FACTOR <= 1) ||
  !(Number.isInteger(INSTANCES) && INSTANCES >= 1) ||
  (INSTANCES > 1 && backends.includes('pglite')) ||
  !(DURATION > 0) ||
  !(CONNECTIONS > 0) ||
  !(WARMUP >= 0) ||
  !(Number.isInteger(BY_STEP) && BY_STEP >= 0) ||
  (JOURNEYS !== undefined && !(Number.isInteger(JOURNEYS) && JOURNEYS > 0))
) {
  console.error(
    '--duration, --connections and --journeys must be positive, --warmup and --by-step non-negative; --ramp is a list of\n' +
      'positive integers, --load-factor in (0, 1]; --instances > 1 needs a shared database (postgres, postgres+redis: add --only)',
  );
  process.exit(2);
}

// ---------------------------------------------------------------------------------------------
// helpers (as in bench/login.mjs)

// (helpers shared with the other benchmarks: bench/lib.mjs)
// ---------------------------------------------------------------------------------------------
// CPU accounting from /proc: who used the two cores during the run

const CLK_TCK = 100; // USER_HZ: 100 on Linux x86/arm
/** [utime + stime, cutime + cstime, stime] of a process in clock ticks, or null when it is gone. */
function procTicks(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may contain spaces) start at the last ')'.
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    // f[0] is field 3 (state): utime is field 14 → f[11].
    return [Number(f[11]) + Number(f[12]), Number(f[13]) + Number(f[14]), Number(f[12])];
  } catch {
    return null;
  }
}

function procComm(pid) {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return null;
  }
}

/**
 * CPU ticks by group right now. PostgreSQL: every `postgres` process plus the reaped children
 * counted in the postmaster's cutime (backends that exited during the run); likewise Redis.
 */
function cpuSnapshot(serverPids) {
  const pids = Array.isArray(serverPids) ? serverPids : [serverPids];
  const groups = { server: 0, serverSystem: 0, postgres: 0, redis: 0 };
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const comm = procComm(name);
    const group = comm === 'postgres' ? 'postgres' : comm?.startsWith('redis-server') ? 'redis' : null;
    if (!group) continue;
    const t = procTicks(name);
    if (!t) continue;
    groups[group] += t[0];
    // Reaped children's time shows up in the parent's cutime: count it once, at the parent.
    groups[group] += t[1];
  }
  for (const pid of pids) {
    const s = procTicks(pid);
    if (s) {
      groups.server += s[0] + s[1];
      groups.serverSystem += s[2];
    }
  }
  const u = process.cpuUsage();
  const machine = cpuTimes();
  return { ...groups, client: (u.user + u.system) / 1e6, machine };
}

/** CPU seconds by group between two snapshots, and the machine's busy share. */
function cpuDelta(a, b) {
  const ticks = (k) => (b[k] - a[k]) / CLK_TCK;
  const totalTicks = b.machine.total - a.machine.total;
  const busyTicks = totalTicks - (b.machine.idle - a.machine.idle);
  const busy = busyTicks / CLK_TCK;
  const out = {
    client: b.client - a.client,
    server: ticks('server'),
    // Kernel time of the server (socket writes and reads to PostgreSQL and to the clients).
    serverSystem: ticks('serverSystem'),
    postgres: ticks('postgres'),
    redis: ticks('redis'),
    machineBusy: busy,
    machineCapacity: totalTicks / CLK_TCK,
  };
  out.other = Math.max(0, busy - out.client - out.server - out.postgres - out.redis);
  out.busyPercent = Math.round((busy / out.machineCapacity) * 100);
  for (const k of Object.keys(out)) out[k] = Math.round(out[k] * 100) / 100;
  return out;
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL's view: what the server's backends are doing (sampled from pg_stat_activity)

/**
 * Samples the bench database's client backends every 100 ms over the run: running a statement,
 * waiting on a lock, on WAL I/O, or idle in a transaction (waiting for the API server's next
 * statement). Returns a stopper that gives the mean number of backends in each state.
 */
async function startPgSampler() {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: PG_URL, application_name: 'lm-bench-journey-sampler' });
  await client.connect();
  const counts = {};
  const byQuery = {};
  let samples = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const r = await client.query(
        `select state, wait_event_type, wait_event, left(regexp_replace(query, '\\s+', ' ', 'g'), 70) as query
           from pg_stat_activity
          where datname = $1 and pid <> pg_backend_pid() and backend_type = 'client backend'`,
        [PG_DB],
      );
      samples++;
      for (const row of r.rows) {
        let key;
        if (row.state === 'active') {
          key = row.wait_event
            ? `active, waiting: ${row.wait_event_type}/${row.wait_event}`
            : 'active: running';
        } else if (row.state === 'idle in transaction') {
          key = 'idle in transaction (waiting for the API server)';
        } else {
          key = row.state ?? 'unknown';
        }
        counts[key] = (counts[key] ?? 0) + 1;
        // By statement too (for idle in transaction: the last one it ran).
        if (row.state !== 'idle') {
          const q = `${key} | ${row.query}`;
          byQuery[q] = (byQuery[q] ?? 0) + 1;
        }
      }
      await sleep(100);
    }
  })();
  return async () => {
    stopped = true;
    await loop.catch(() => {});
    await client.end().catch(() => {});
    const mean = {};
    for (const [k, n] of Object.entries(counts).sort((a, b) => b[1] - a[1])) {
      mean[k] = Math.round((n / Math.max(samples, 1)) * 100) / 100;
    }
    const byStatement = {};
    for (const [k, n] of Object.entries(byQuery)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 15)) {
      byStatement[k] = Math.round((n / Math.max(samples, 1)) * 100) / 100;
    }
    return { samples, meanBackends: mean, byStatement };
  };
}

function newRunState() {
  return {
    started: 0,
    ok: 0,
    consented: 0,
    noOffer: 0,
    noOfferByApplyStatus: {},
    offersTotal: 0,
    errors: 0,
    errorsByStep: {},
    errorSamples: {},
    journeyMs: [],
    stepMs: Object.fromEntries(STEPS.map((s) => [s, []])),
  };
}

/** Runs one journey (`fn`: journey or helloJourney) and records it in `state`. */
async function recordJourney(client, state, fn) {
  state.started++;
  const ctx = newCtx();
  try {
    const r = await fn(client, ctx);
    state.ok++;
    state.journeyMs.push(r.ms);
    state.offersTotal += r.offers;
    if (r.offers > 0) state.consented++;
    else {
      state.noOffer++;
      const k = String(r.applyStatus);
      state.noOfferByApplyStatus[k] = (state.noOfferByApplyStatus[k] ?? 0) + 1;
    }
  } catch (err) {
    if (!(err instanceof StepError)) throw err;
    state.errors++;
    state.errorsByStep[err.step] = (state.errorsByStep[err.step] ?? 0) + 1;
    state.errorSamples[err.key] = (state.errorSamples[err.key] ?? 0) + 1;
  }
  // Steps of failed journeys count too: the failing step's time is the error answer's.
  for (const [s, ms] of Object.entries(ctx.times)) state.stepMs[s].push(ms);
}

/**
 * Runs journeys with `connections` applicants in a closed loop (each starts its next journey when
 * the last one ends) until `until` (ms, performance.now()) or until `count` journeys have started.
 */
async function runJourneys(client, { until, count, connections = CONNECTIONS, fn = journey }) {
  const state = newRunState();
  const t0 = performance.now();
  let lastEnd = t0;
  const more = () => (count !== undefined ? state.started < count : performance.now() < until);
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (more()) {
        await recordJourney(client, state, fn);
        lastEnd = performance.now();
      }
    }),
  );
  state.seconds = (lastEnd - t0) / 1000;
  return state;
}

/**
 * Open loop: journeys start at a fixed `rate` per second for `seconds`, whether or not the earlier
 * ones have ended (as applicants arrive from ad channels), so a slow answer does not slow the
 * arrivals down and queueing shows in the latencies. Records the most journeys in flight at once.
 */
async function runOpenLoop(client, { rate, seconds }) {
  const state = newRunState();
  const n = Math.max(1, Math.round(rate * seconds));
  const t0 = performance.now();
  let inFlight = 0;
  state.maxInFlight = 0;
  state.lateStarts = 0;
  const running = [];
  for (let i = 0; i < n; i++) {
    const wait = t0 + (i * 1000) / rate - performance.now();
    if (wait >= 1) await sleep(wait);
    else if (wait < -100) state.lateStarts++; // the load generator itself fell behind
    inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    running.push(
      recordJourney(client, state, journey).finally(() => {
        inFlight--;
      }),
    );
  }
  await Promise.all(running);
  state.seconds = (performance.now() - t0) / 1000;
  state.startSeconds = (n - 1) / rate;
  return state;
}

/**
 * The same five requests against the bare Fastify hello-world (`POST /echo` with each step's body,
 * `GET /` for the outbox read): what this machine, this client and HTTP alone allow, the ceiling of
 * journeys/s.
 */
async function helloJourney(client, ctx) {
  const t0 = performance.now();
  const bodies = {
    send: { phone: ctx.phone },
    login: { phone: ctx.phone, code: '123456' },
    save: FORM,
    auth: { productIds: [1, 2, 3], matchId: 1 },
  };
  for (const name of STEPS) {
    if (name === 'outbox') await call(client, ctx, name, 'GET', '/');
    else await call(client, ctx, name, 'POST', '/echo', bodies[name]);
  }
  return { ms: performance.now() - t0, offers: 1, applyStatus: null };
}

/** Figures of one run (closed or open loop) with the CPU used over it. */
function runFigures(s, cpu) {
  const perJourney = {};
  for (const k of ['client', 'server', 'serverSystem', 'postgres', 'redis', 'other']) {
    perJourney[k] = s.started ? Math.round(((cpu[k] * 1000) / s.started) * 100) / 100 : null;
  }
  return {
    journeysPerSec: Math.round((s.ok / s.seconds) * 10) / 10,
    started: s.started,
    ok: s.ok,
    errors: s.errors,
    consented: s.consented,
    noOffer: s.noOffer,
    noOfferByApplyStatus: s.noOfferByApplyStatus,
    offersPerConsentingJourney: s.consented ? Math.round((s.offersTotal / s.consented) * 100) / 100 : null,
    seconds: Math.round(s.seconds * 1000) / 1000,
    requestsPerSec: Math.round(Object.values(s.stepMs).reduce((a, v) => a + v.length, 0) / s.seconds),
    journeyMs: latency(s.journeyMs),
    stepMs: Object.fromEntries(STEPS.map((k) => [k, latency(s.stepMs[k])])),
    errorsByStep: s.errorsByStep,
    errorSamples: s.errorSamples,
    cpuSeconds: cpu,
    cpuMsPerJourney: perJourney,
  };
}

/** Runs fn over items with at most `limit` in flight. */
async function pool(items, limit, fn) {
  let i = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (i < items.length) {
        const k = i++;
        await fn(items[k], k);
      }
    }),
  );
}

/**
 * N journeys run phase by phase (all sends, then all outbox reads, …): per step, the request rate
 * alone and the CPU time per request of each process. A journey that fails leaves the later phases.
 */
async function runByStep(client, n, serverPid) {
  const ctxs = Array.from({ length: n }, newCtx);
  const steps = {};
  for (const name of STEPS) {
    const items = ctxs.filter((c) => !c.failed && (name !== 'auth' || c.productIds.length > 0));
    const errorSamples = {};
    const times = [];
    const a = cpuSnapshot(serverPid);
    const t0 = performance.now();
    await pool(items, CONNECTIONS, async (c) => {
      try {
        await STEP_FNS[name](client, c);
      } catch (err) {
        if (!(err instanceof StepError)) throw err;
        c.failed = true;
        errorSamples[err.key] = (errorSamples[err.key] ?? 0) + 1;
      }
      times.push(c.times[name]);
    });
    const seconds = (performance.now() - t0) / 1000;
    const cpu = cpuDelta(a, cpuSnapshot(serverPid));
    const per = (k) => (items.length ? Math.round(((cpu[k] * 1000) / items.length) * 100) / 100 : null);
    steps[name] = {
      requests: items.length,
      errors: Object.values(errorSamples).reduce((x, y) => x + y, 0),
      errorSamples,
      seconds: Math.round(seconds * 1000) / 1000,
      reqPerSec: Math.round((items.length / seconds) * 10) / 10,
      latencyMs: latency(times),
      cpuMsPerRequest: {
        client: per('client'),
        server: per('server'),
        serverSystem: per('serverSystem'),
        postgres: per('postgres'),
        redis: per('redis'),
        other: per('other'),
      },
      busyPercent: cpu.busyPercent,
    };
  }
  return { journeys: n, steps };
}

function pct(sorted, p) {
  if (sorted.length === 0) return null;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[i] * 10) / 10;
}

function latency(values) {
  const s = Float64Array.from(values).sort();
  const mean = s.length ? s.reduce((a, b) => a + b, 0) / s.length : null;
  return {
    n: s.length,
    mean: mean === null ? null : Math.round(mean * 10) / 10,
    p50: pct(s, 50),
    p90: pct(s, 90),
    p95: pct(s, 95),
    p99: pct(s, 99),
    max: s.length ? Math.round(s[s.length - 1] * 10) / 10 : null,
  };
}

// ---------------------------------------------------------------------------------------------
// server lifecycle (as in bench/login.mjs)

const INSTANCE_KEYS = {
  PII_KEYS: `k1:${randomBytes(32).toString('base64')}`,
  PII_INDEX_KEY: randomBytes(32).toString('base64'),
  ENCRYPTED_MOBILE_KEYS: `demo:${randomBytes(16).toString('base64')}`,
};

async function startServer(backend, profDir, { prepare = true } = {}) {
  if (backend !== 'pglite' && prepare) {
    const others = otherPgSessions(PG_URL);
    if (others.length) {
      log(
        `${backend}: WARNING: ${others.length} other session(s) in database ${PG_DB}; results may be disturbed:`,
      );
      warnings.push({ backend, otherPgSessions: others });
      for (const o of others) log(`  ${o}`);
    }
  }
  if (prepare) prepareBackend(backend, { pgUrl: PG_URL, redisPrefix: REDIS_PREFIX });
  return startBenchServer({
    serverDir: SERVER_DIR,
    label: backend,
    tmpPrefix: 'lm-bench-journey-',
    env: {
      SMS_IP_HOURLY_LIMIT: '100000000',
      SMS_DEVICE_HOURLY_LIMIT: '100000000',
      // The seeded lenders get no sandbox endpoints: no duplicate pre-check calls back into the server.
      PARTNER_SANDBOX: 'off',
      // No delivery worker in the API process: the figures are the request path only.
      DELIVERY_WORKER: 'off',
      // The same keys for every instance, from the environment as in production (without them each
      // instance would generate its own into its DATA_DIR and could not read the others' data).
      ...INSTANCE_KEYS,
    },
    pgUrl: backend === 'pglite' ? undefined : PG_URL,
    redisUrl: backend === 'postgres+redis' ? REDIS_URL : undefined,
    redisPrefix: REDIS_PREFIX,
    // A --cpu-prof profile is written at the server's exit (SIGTERM reaches node itself, not a wrapper).
    nodeArgs: profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [],
  });
}

// ---------------------------------------------------------------------------------------------
// --cpu-prof: where the server's JS thread spent its time

/** Package (or area) of a profile frame's script. */
function frameArea(url, functionName) {
  if (!url) {
    if (functionName === '(garbage collector)') return '(gc)';
    if (functionName === '(idle)') return '(idle)';
    if (functionName === '(program)') return '(program: native, not attributed)';
    return `(${functionName || 'native'})`;
  }
  if (url.startsWith('node:')) return 'node: internals';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const m = /\/(apps\/[^/]+|packages\/[^/]+)\/(.*)$/.exec(url);
  if (m) return `${m[1]}/${m[2].split('/').slice(0, -1).join('/') || '.'}`;
  return url;
}

/** Microseconds on the monotonic clock, the clock of V8's profile timestamps. */
const monoUs = () => Number(process.hrtime.bigint() / 1000n);

function frameLabel(callFrame) {
  const { url, functionName, lineNumber } = callFrame;
  if (!url) return functionName || '(anonymous)';
  const file = url.replace(/^.*node_modules\//, '').replace(`file://${ROOT}/`, '');
  return `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
}

/**
 * Summary of a .cpuprofile over the samples taken within `window` ({startUs, endUs}, monotonic):
 * self time by area (package) and by function, and inclusive time of the app's own functions
 * (apps/, packages/: a frame counts once per sample however deep it recurs). Percentages are of
 * the non-idle samples.
 */
function summarizeProfile(file, window) {
  const prof = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map();
  let t = prof.startTime;
  for (let i = 0; i < prof.samples.length; i++) {
    t += prof.timeDeltas[i] ?? 0;
    if (window && (t < window.startUs || t > window.endUs)) continue;
    // The delta before sample i+1 is the time sample i stood for.
    const us = prof.timeDeltas[i + 1] ?? 0;
    self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + us);
  }
  const areas = {};
  const fns = {};
  const inclusive = {};
  let busy = 0;
  let idle = 0;
  for (const [id, us] of self) {
    const n = byId.get(id);
    if (n.callFrame.functionName === '(idle)') {
      idle += us;
      continue;
    }
    busy += us;
    const area = frameArea(n.callFrame.url, n.callFrame.functionName);
    areas[area] = (areas[area] ?? 0) + us;
    const fn = frameLabel(n.callFrame);
    fns[fn] = (fns[fn] ?? 0) + us;
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const cf = byId.get(cur).callFrame;
      if (!/\/(apps|packages)\//.test(cf.url) || cf.url.includes('node_modules')) continue;
      const label = frameLabel(cf);
      if (seen.has(label)) continue;
      seen.add(label);
      inclusive[label] = (inclusive[label] ?? 0) + us;
    }
  }
  const top = (o, n) =>
    Object.entries(o)
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, us]) => ({
        what: k,
        ms: Math.round(us / 1000),
        percent: Math.round((us / busy) * 1000) / 10,
      }));
  return {
    file: path.relative(ROOT, file),
    window: window ? 'measured run only' : 'whole process',
    busyMs: Math.round(busy / 1000),
    idleMs: Math.round(idle / 1000),
    areas: top(areas, 25),
    selfFunctions: top(fns, 40),
    appInclusive: top(inclusive, 40),
  };
}

// ---------------------------------------------------------------------------------------------
// one backend

async function runBackend(backend, stamp) {
  const cpuBusyBeforePercent = await checkQuiet(backend);
  const profDir = CPU_PROF
    ? path.join(RESULTS_DIR, `journey-${stamp}-prof-${backend.replace('+', '-')}`)
    : null;
  // With --instances N, N API servers on the one database (and Redis): the first prepares the
  // database and migrates, the others start on it.
  const servers = [];
  const out = { backend, cpuBusyBeforePercent, instances: INSTANCES };
  let client = null;
  try {
    for (let i = 0; i < INSTANCES; i++) {
      log(`${backend}: starting server${INSTANCES > 1 ? ` ${i + 1} of ${INSTANCES}` : ''}`);
      const server = await startServer(backend, profDir, { prepare: i === 0 });
      servers.push(server);
      log(
        `${backend}: healthy after ${server.startupMs} ms on port ${server.port} (${JSON.stringify(server.health)})`,
      );
    }
    out.startupMs = servers[0].startupMs;
    out.health = servers[0].health;
    const pids = servers.map((x) => x.proc.child.pid);
    client = makeClient(servers.map((x) => x.base));
    if (WARMUP > 0) {
      log(`${backend}: warm-up, ${WARMUP} journeys (not recorded)`);
      const w = await runJourneys(client, { count: WARMUP });
      out.warmup = {
        journeys: w.started,
        errors: w.errors,
        errorSamples: w.errorSamples,
        seconds: w.seconds,
      };
      if (w.errors) log(`${backend}: warm-up errors:`, w.errorSamples);
    }
    if (RAMP) {
      out.ramp = [];
      for (const connections of RAMP) {
        log(`${backend}: closed loop, ${connections} connections for ${DURATION} s`);
        const a = cpuSnapshot(pids);
        const r = await runJourneys(client, { until: performance.now() + DURATION * 1000, connections });
        const level = { connections, ...runFigures(r, cpuDelta(a, cpuSnapshot(pids))) };
        out.ramp.push(level);
        log(`${backend}:   ${level.journeysPerSec} journeys/s, ${level.errors} errors`);
      }
      const best = out.ramp.reduce((m, x) => (x.journeysPerSec > m.journeysPerSec ? x : m));
      out.saturation = { journeysPerSec: best.journeysPerSec, connections: best.connections };
      const rate = Math.round(best.journeysPerSec * LOAD_FACTOR * 10) / 10;
      log(
        `${backend}: open loop at ${rate} journeys/s (${LOAD_FACTOR} × ${best.journeysPerSec}) for ${DURATION} s`,
      );
      const stopSampler = backend === 'pglite' ? null : await startPgSampler();
      const a = cpuSnapshot(pids);
      let r;
      try {
        r = await runOpenLoop(client, { rate, seconds: DURATION });
      } finally {
        if (stopSampler) out.pgActivity = await stopSampler();
      }
      out.openLoop = {
        targetRate: rate,
        startedPerSec: Math.round((r.started / Math.max(r.startSeconds, 1e-9)) * 10) / 10,
        maxInFlight: r.maxInFlight,
        lateStarts: r.lateStarts,
        ...runFigures(r, cpuDelta(a, cpuSnapshot(pids))),
      };
      const worst = Math.max(...STEPS.map((k) => out.openLoop.stepMs[k].p99 ?? 0));
      out.openLoop.goal = {
        p99GoalMs: P99_GOAL_MS,
        worstStepP99Ms: worst,
        met: out.openLoop.errors === 0 && worst < P99_GOAL_MS && r.lateStarts === 0,
      };
      log(
        `${backend}: open loop ${out.openLoop.journeysPerSec} journeys/s, ${r.errors} errors, worst step p99 ${worst} ms, at most ${r.maxInFlight} in flight`,
      );
    } else {
      log(
        `${backend}: ${JOURNEYS !== undefined ? `${JOURNEYS} journeys` : `journeys for ${DURATION} s`} at ${CONNECTIONS} connections`,
      );
      const stopSampler = backend === 'pglite' ? null : await startPgSampler();
      const cpuA = cpuSnapshot(pids);
      out.window = { startUs: monoUs() };
      let s;
      let cpuB;
      try {
        s = await runJourneys(client, { until: performance.now() + DURATION * 1000, count: JOURNEYS });
      } finally {
        cpuB = cpuSnapshot(pids);
        out.window.endUs = monoUs();
        if (stopSampler) out.pgActivity = await stopSampler();
      }
      const cpu = cpuDelta(cpuA, cpuB);
      Object.assign(out, runFigures(s, cpu));
      log(
        `${backend}: ${out.journeysPerSec} journeys/s, ${s.ok} ok, ${s.errors} errors, cpu ${JSON.stringify(cpu)}`,
      );
      if (BY_STEP > 0) {
        log(`${backend}: ${BY_STEP} journeys step by step`);
        out.byStep = await runByStep(client, BY_STEP, pids);
      }
    }
  } finally {
    client?.close();
    out.exit = [];
    for (const server of servers) {
      const exit = await stopChild(server.proc, backend);
      out.exit.push(exit);
      if (exit.code !== 0) {
        log(
          `${backend}: server exit ${JSON.stringify(exit)}; tail of output:\n${server.proc.output().slice(-3000)}`,
        );
      }
      rmSync(server.dataDir, { recursive: true, force: true });
    }
    if (backend === 'postgres+redis') clearRedisKeys(REDIS_PREFIX);
  }
  const serverErr = servers
    .map((x) => x.proc.output().trim())
    .filter(Boolean)
    .join('\n--- next instance ---\n');
  if (serverErr) out.serverOutputTail = serverErr.slice(-8000);
  if (profDir) {
    try {
      const files = readdirSync(profDir).filter((f) => f.endsWith('.cpuprofile'));
      out.cpuProfile = files.map((f) => summarizeProfile(path.join(profDir, f), out.window));
    } catch (err) {
      out.cpuProfile = { error: String(err) };
    }
  }
  return out;
}

/** The ceiling: hello-world "journeys" (same five requests, same client) at the highest concurrency. */
async function runCeiling() {
  const cpuBusyBeforePercent = await checkQuiet('ceiling');
  const { proc, base } = await startHello(ROOT);
  const client = makeClient(base);
  const out = { backend: 'fastify hello-world', cpuBusyBeforePercent };
  try {
    await runJourneys(client, { count: 500, fn: helloJourney }); // warm-up
    const connections = MAX_CONNECTIONS;
    log(`ceiling: hello-world journeys, ${connections} connections for ${DURATION} s`);
    const a = cpuSnapshot([proc.child.pid]);
    const r = await runJourneys(client, {
      until: performance.now() + DURATION * 1000,
      connections,
      fn: helloJourney,
    });
    Object.assign(out, { connections }, runFigures(r, cpuDelta(a, cpuSnapshot([proc.child.pid]))));
    log(`ceiling: ${out.journeysPerSec} journeys/s (${out.requestsPerSec} req/s)`);
  } finally {
    client.close();
    await stopChild(proc, 'hello');
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// output

function table(head, body, leftCols = 1) {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const fmt = (cells) =>
    cells.map((c, i) => (i < leftCols ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [fmt(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(fmt)].join('\n');
}

const f = (v) => (v === null || v === undefined ? '-' : String(v));

function gitCommit() {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

/** --ramp: the closed-loop levels, the open loop at LOAD_FACTOR × saturation, and the ceiling. */
function printRamp(ramped, ceiling) {
  const stepP = (x, k) => `${f(x.stepMs[k].p50)}/${f(x.stepMs[k].p95)}/${f(x.stepMs[k].p99)}`;
  console.log(
    `\njourney bench, rising concurrency: ${os.cpus().length} cpus, node ${process.version}, ${DURATION} s per level, ${INSTANCES} API instance(s)\n`,
  );
  console.log(
    table(
      [
        'backend',
        'conns',
        'journeys/s',
        'req/s',
        'journey p50',
        'p99',
        'errors',
        'busy',
        ...STEPS.map((k) => `${k} p50/95/99`),
      ],
      ramped.flatMap((b) =>
        b.ramp.map((x) => [
          b.backend,
          f(x.connections),
          x.journeysPerSec.toFixed(1),
          f(x.requestsPerSec),
          f(x.journeyMs.p50),
          f(x.journeyMs.p99),
          f(x.errors),
          `${x.cpuSeconds.busyPercent}%`,
          ...STEPS.map((k) => stepP(x, k)),
        ]),
      ),
      1,
    ),
  );
  console.log(
    `\nopen loop at ${LOAD_FACTOR} × saturation (journeys start at a fixed rate; latency per call p50/p95/p99 ms; goal: 0 errors, every p99 < ${P99_GOAL_MS} ms):\n`,
  );
  console.log(
    table(
      ['backend', 'saturation', 'rate', 'achieved', 'in flight', 'errors', ...STEPS, 'goal'],
      ramped.map((b) => [
        b.backend,
        `${b.saturation.journeysPerSec} @${b.saturation.connections}`,
        f(b.openLoop.targetRate),
        f(b.openLoop.journeysPerSec),
        f(b.openLoop.maxInFlight),
        f(b.openLoop.errors),
        ...STEPS.map((k) => stepP(b.openLoop, k)),
        b.openLoop.goal.met
          ? 'met'
          : `MISSED (worst p99 ${b.openLoop.goal.worstStepP99Ms} ms${b.openLoop.lateStarts ? `, ${b.openLoop.lateStarts} late starts` : ''})`,
      ]),
    ),
  );
  console.log(
    '\nCPU ms per journey in the open loop: this script, the API server(s), PostgreSQL, Redis, other:\n',
  );
  console.log(
    table(
      ['backend', 'client', 'server', 'postgres', 'redis', 'other', 'machine busy'],
      ramped.map((b) => [
        b.backend,
        f(b.openLoop.cpuMsPerJourney.client),
        f(b.openLoop.cpuMsPerJourney.server),
        f(b.openLoop.cpuMsPerJourney.postgres),
        f(b.openLoop.cpuMsPerJourney.redis),
        f(b.openLoop.cpuMsPerJourney.other),
        `${b.openLoop.cpuSeconds.busyPercent}%`,
      ]),
    ),
  );
  if (ceiling?.journeyMs) {
    console.log(
      `\nceiling: the same five requests against bare Fastify (hello-world), ${ceiling.connections} connections: ${ceiling.journeysPerSec} journeys/s, ${ceiling.requestsPerSec} req/s, journey p50 ${ceiling.journeyMs.p50} ms, p99 ${ceiling.journeyMs.p99} ms`,
    );
  }
}

async function main() {
  const startedAt = new Date();
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  const results = {
    startedAt: startedAt.toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      memGiB: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
      loadAvgAtStart: os.loadavg().map((x) => Math.round(x * 100) / 100),
    },
    commit: gitCommit(),
    options: {
      durationSec: JOURNEYS === undefined ? DURATION : null,
      journeys: JOURNEYS ?? null,
      connections: CONNECTIONS,
      warmupJourneys: WARMUP,
      backends,
      pgUrl: PG_URL,
      redisUrl: REDIS_URL,
      redisKeyPrefix: REDIS_PREFIX,
      serverEnv: { PARTNER_SANDBOX: 'off', DELIVERY_WORKER: 'off', LOG_LEVEL: 'warn' },
      cpuProf: CPU_PROF,
      ramp: RAMP,
      loadFactor: RAMP ? LOAD_FACTOR : null,
      instances: INSTANCES,
    },
    backends: [],
    failures: [],
  };

  for (const backend of backends) {
    try {
      results.backends.push(await runBackend(backend, stamp));
    } catch (err) {
      log(`${backend}: FAILED: ${err.stack ?? err}`);
      results.failures.push({ backend, error: String(err.stack ?? err) });
    }
  }
  if (RAMP && !args['skip-ceiling']) {
    try {
      results.ceiling = await runCeiling();
    } catch (err) {
      log(`ceiling: FAILED: ${err.stack ?? err}`);
      results.failures.push({ backend: 'hello-world', error: String(err.stack ?? err) });
    }
  }
  results.finishedAt = new Date().toISOString();
  results.warnings = warnings;
  results.machine.loadAvgAtEnd = os.loadavg().map((x) => Math.round(x * 100) / 100);

  const done = results.backends.filter((b) => b.journeyMs);
  const ramped = results.backends.filter((b) => b.openLoop);
  if (ramped.length) printRamp(ramped, results.ceiling);
  if (done.length)
    console.log(
      `\njourney bench: ${results.machine.cpus} cpus, node ${process.version}, ${CONNECTIONS} connections, ${
        JOURNEYS !== undefined ? `${JOURNEYS} journeys` : `${DURATION} s`
      } per backend\n`,
    );
  if (done.length)
    console.log(
      table(
        ['backend', 'journeys/s', 'req/s', 'p50 ms', 'p99 ms', 'ok', 'errors', 'consent', 'no offer'],
        done.map((b) => [
          b.backend,
          b.journeysPerSec.toFixed(1),
          f(b.requestsPerSec),
          f(b.journeyMs.p50),
          f(b.journeyMs.p99),
          f(b.ok),
          f(b.errors),
          f(b.consented),
          `${b.noOffer}${b.noOffer ? ` ${JSON.stringify(b.noOfferByApplyStatus)}` : ''}`,
        ]),
      ),
    );
  if (done.length) console.log('\nper step, p50 / p99 ms (mean):\n');
  if (done.length)
    console.log(
      table(
        ['backend', ...STEPS],
        done.map((b) => [
          b.backend,
          ...STEPS.map((s) => `${f(b.stepMs[s].p50)} / ${f(b.stepMs[s].p99)} (${f(b.stepMs[s].mean)})`),
        ]),
      ),
    );
  if (done.length)
    console.log(
      '\nCPU ms per journey: this script, the server (of it in the kernel), PostgreSQL, Redis, other processes;\n' +
        'and how busy the two cores were over the run:\n',
    );
  if (done.length)
    console.log(
      table(
        ['backend', 'client', 'server', '(kernel)', 'postgres', 'redis', 'other', 'machine busy'],
        done.map((b) => [
          b.backend,
          f(b.cpuMsPerJourney.client),
          f(b.cpuMsPerJourney.server),
          f(b.cpuMsPerJourney.serverSystem),
          f(b.cpuMsPerJourney.postgres),
          f(b.cpuMsPerJourney.redis),
          f(b.cpuMsPerJourney.other),
          `${b.cpuSeconds.busyPercent}%`,
        ]),
      ),
    );
  for (const b of results.backends.filter((x) => x.pgActivity)) {
    console.log(
      `\n${b.backend}: PostgreSQL backends of the API server, mean number in each state (${b.pgActivity.samples} samples of pg_stat_activity):`,
    );
    for (const [k, v] of Object.entries(b.pgActivity.meanBackends))
      console.log(`  ${String(v).padStart(6)}  ${k}`);
    console.log('  busiest statements (state | statement):');
    for (const [k, v] of Object.entries(b.pgActivity.byStatement).slice(0, 8))
      console.log(`  ${String(v).padStart(6)}  ${k}`);
  }
  const stepped = done.filter((b) => b.byStep);
  if (stepped.length) {
    console.log('\nstep by step (--by-step: each step alone, phase after phase), CPU ms per request:\n');
    console.log(
      table(
        ['backend', 'step', 'req/s', 'p50 ms', 'p99 ms', 'server', '(kernel)', 'postgres', 'redis', 'errors'],
        stepped.flatMap((b) =>
          STEPS.map((name) => {
            const x = b.byStep.steps[name];
            return [
              b.backend,
              name,
              f(x.reqPerSec),
              f(x.latencyMs.p50),
              f(x.latencyMs.p99),
              f(x.cpuMsPerRequest.server),
              f(x.cpuMsPerRequest.serverSystem),
              f(x.cpuMsPerRequest.postgres),
              f(x.cpuMsPerRequest.redis),
              f(x.errors),
            ];
          }),
        ),
        2,
      ),
    );
  }
  console.log(
    `\nCPU busy just before each section (work by other processes; >20% skews the figures): ${results.backends
      .map((b) => `${b.backend} ${b.cpuBusyBeforePercent ?? '?'}%`)
      .join(', ')}`,
  );
  for (const b of done) {
    if (b.errors) {
      const first = Object.entries(b.errorSamples).slice(0, 5);
      console.log(
        `\n${b.backend}: ${b.errors} errors by step ${JSON.stringify(b.errorsByStep)}; first messages:`,
      );
      for (const [k, n] of first) console.log(`  ${n}× ${k}`);
    }
  }
  for (const b of results.backends) {
    for (const e of b.exit ?? [])
      if (e.code !== 0) console.log(`\n${b.backend}: server exited with ${JSON.stringify(e)}`);
    if (b.serverOutputTail)
      console.log(
        `\n${b.backend}: server output (LOG_LEVEL=warn), last 1500 chars (full tail in JSON):\n${b.serverOutputTail.slice(-1500)}`,
      );
    for (const p of Array.isArray(b.cpuProfile) ? b.cpuProfile.filter((x) => x.busyMs > 0) : []) {
      console.log(
        `\n${b.backend}: server CPU profile ${p.file}, measured run: ${p.busyMs} ms busy, ${p.idleMs} ms idle; self time by area:`,
      );
      for (const a of p.areas.slice(0, 12)) console.log(`  ${String(a.percent).padStart(5)}%  ${a.what}`);
      console.log("  inclusive time of the app's functions:");
      for (const a of p.appInclusive.slice(0, 15))
        console.log(`  ${String(a.percent).padStart(5)}%  ${a.what}`);
    }
  }
  for (const fl of results.failures) console.log(`\nFAILED ${fl.backend}: ${fl.error}`);

  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `journey-${stamp}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nresults: ${path.relative(ROOT, file)}  (${Math.round((Date.now() - startedAt) / 1000)} s)`);
  const anyErrors =
    done.some((b) => b.errors) || ramped.some((b) => b.openLoop.errors || b.ramp.some((x) => x.errors));
  process.exitCode = results.failures.length || anyErrors ? 1 : 0;
}

await main();
