#!/usr/bin/env node
// The ad-burst hot path (issue 17.3): bare Fastify, the cached h5Config read, the channel landing HTML and
// the click report, each as a ratio to bare Fastify in the same run, then each at 80 % of its own
// saturation rate for its p99. See bench/README.md.
//
//   node bench/hot-path.mjs [--only hello,h5config,landing,click-new,click-repeat] [--duration 10]
//                           [--connections 10,30,100 | 10] [--pg-url url [--redis-url url]] [--skip-pglite]
//                           [--cpu-prof] [--slices n [--compare-root checkout]] [--string-bodies] [--pin]
//                           [--paced-fractions 0.5,0.65,0.8] [--paced-connections n]
//
// The load generator keeps each answer's body as bytes (bench/lib.mjs keepAutocannonBodiesAsBytes):
// autocannon itself decodes every body into a string, which for the landing's 8.8 KB of brotli costs it a
// whole core at ~9 k answers/s, the server half idle. --string-bodies: autocannon as it comes (the figures
// of bench/README.md before 2026-11-27).
// A click's requests are built before a run, each connection its own visitors (as bare Fastify's one request
// is built once), so building them is not the load generator's work during it. --setup-per-request: built
// per request by autocannon's setupRequest (the figures before 2026-11-27).
//
// --slices n: each endpoint's saturation run in n slices between slices of bare Fastify, its ratio the
// median of the slices' ratios to their neighbours (for a machine whose speed drifts; see bench/README.md).
// --compare-root checkout (with --slices): a second server from that checkout runs beside this one (its own
// database `<db>_cmp` and Redis prefix) and its slices alternate with this one's (hello, this, hello, that,
// hello, this, …), so that both are measured in the same states of the machine: before/after in one run.
//
// --connections 10,30,100 (the default): each endpoint (bare Fastify too) at the level where a 2 s probe found
// it fastest, its ratio against bare Fastify at bare Fastify's own best level (ADR 039); the table says which
// level. --connections 10: every endpoint at 10 (the figures before ADR 039).
//
// The 80 % run sends each connection's share of the rate evenly, client i of n starting i / n of a period
// late, so that the connections' requests are spread over the period (bench/lib.mjs paceEvenly);
// --lock-step: every client starting at once, as until 2026-11-29: all n requests arrive in the same
// millisecond, once a period;
// --per-second-pacing: autocannon's quota per second instead (every client's quota back to back at each
// second's tick: the figures before 2026-11-27's ADR 039).
// --paced-fractions: paced runs at these shares of saturation (default 0.8, which the list must hold: the table
// shows that run, the JSON has every run as `pacedRuns`), to see whether a p99 grows with the load or is there at any load.
// --paced-connections n: the paced runs at n connections instead of the saturation run's level. Without it a
// paced run starts at the saturation run's level and, if those connections did not offer the rate (each waits for
// its answer, so a slow answer delays the next request: the p99 would leave out the requests not sent), runs again
// at the next level of 10, 30, 100; every attempt is in `pacedRuns`, the table shows the last.
// A paced run's p99 is timed from when each request was due, not from its send (bench/lib.mjs paceEvenly: a
// connection waiting for a slow answer sends the requests due meanwhile late, and autocannon's own figure, the
// table's "from send", leaves that wait out); a client owing requests sends them back to back.
// --catch-up-ms ms: a client drops what it owes for longer than that (the runs until 2026-11-29: 20).
// --pin-main-thread: each server's main thread (the one that answers) alone on CPU 0, its other threads (the
// embedded database's, libuv's, V8's) and the load generator on CPU 1.
// --server-node-args='…': more arguments for the servers' node (e.g. '--import ./probe.mjs' or V8 flags).
// --gc: the app's server runs with bench/server-gc.mjs; every saturation and paced run then reports its answering
// thread's collections (count, total and longest ms of scavenges and mark-compacts) and its old generation's use.
//
// --loader c: every run (probes, saturation, paced) made by bench/paced-loader.c (compiled with cc into
// bench/results/ on first use) instead of autocannon: a few µs a request and no collector, where autocannon's
// JavaScript took a large share of this 2-core machine and stopped for its GC. Its paced runs send each request
// when due on whichever connection is free, after --paced-warmup s (default 1) at the rate that are not
// measured, on the saturation run's connections (at least C_PACED_MIN_CONNECTIONS, more while the rate was not
// sent); --loader-cpu n pins it.
//
// --cpu-prof: the server runs with `node --cpu-prof`; the profile is summarised for each section's
// saturation run (self time by package and function, inclusive time of the app's own functions).
//
// --pin: every server (bare Fastify, the app, a compared one) on CPU 0 and this process — the load generator —
// on CPU 1 (bench/lib.mjs pinProcess), so that a server's GC and helper threads and the load generator do not take
// each other's CPU; unpinned, the scheduler mixes them, more for the app (more threads, more garbage) than for bare
// Fastify. PostgreSQL and Redis are not pinned.
//
// PGlite always (unless --skip-pglite); with --pg-url also PostgreSQL (its `public` schema wiped, as in
// login.mjs), with --redis-url too that run has Redis (keys under their own prefix, deleted after).
// Results go to bench/results/hot-path-<timestamp>.json.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { gcBetween, gcLine } from './gc-log.mjs';
import {
  AD_BURST_REQUESTS,
  adLandingPath,
  checkQuiet,
  keepAutocannonBodiesAsBytes,
  LOADER_CPU,
  log,
  median,
  paceEvenly,
  pinMainThread,
  pinProcess,
  SERVER_CPU,
  startBenchServer,
  startHello,
  stolenMs,
  stopChild,
  warnings,
  watchLoopGaps,
} from './lib.mjs';
import { pacedLoaderBinary, runPacedLoader } from './paced-loader.mjs';
import { monoUs, summarizeProfile } from './probes.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// --server-root: another checkout's server (e.g. main, for before/after figures on the same machine).
let SERVER_DIR = path.join(ROOT, 'apps/server');
const RESULTS_DIR = path.join(ROOT, 'bench/results');
const REDIS_PREFIX = 'lmbench-hot:';
const SECTIONS = ['hello', 'h5config', 'landing', 'click-new', 'click-repeat'];
/** Goals of issue 17.3: req/s as a share of bare Fastify's in the same run; p99 at 80 % of saturation. */
const GOALS = { h5config: 0.5, landing: 0.25, 'click-new': 0.2, 'click-repeat': 0.2 };
const P99_GOAL_MS = 20;

const { values: args } = parseArgs({
  options: {
    only: { type: 'string' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10,30,100' },
    'pg-url': { type: 'string' },
    'redis-url': { type: 'string' },
    'skip-pglite': { type: 'boolean', default: false },
    'skip-paced': { type: 'boolean', default: false },
    'paced-fractions': { type: 'string', default: '0.8' },
    'paced-connections': { type: 'string' },
    'catch-up-ms': { type: 'string' },
    'server-node-args': { type: 'string' },
    gc: { type: 'boolean', default: false },
    'pin-main-thread': { type: 'boolean', default: false },
    'lock-step': { type: 'boolean', default: false },
    slices: { type: 'string', default: '1' },
    'server-root': { type: 'string' },
    'compare-root': { type: 'string' },
    'cpu-prof': { type: 'boolean', default: false },
    'string-bodies': { type: 'boolean', default: false },
    'setup-per-request': { type: 'boolean', default: false },
    'per-second-pacing': { type: 'boolean', default: false },
    'landing-without-clicks': { type: 'boolean', default: false },
    pin: { type: 'boolean', default: false },
    loader: { type: 'string', default: 'autocannon' },
    'loader-cpu': { type: 'string' },
    'paced-warmup': { type: 'string', default: '1' },
    'paced-rounds': { type: 'string' },
    'round-seconds': { type: 'string', default: '3' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (args.help) {
  console.log(
    'usage: node bench/hot-path.mjs [--only hello,h5config,landing,click-new,click-repeat] [--duration s] [--connections n | n,n,…] [--pg-url url [--redis-url url]] [--skip-pglite] [--skip-paced] [--server-root checkout] [--cpu-prof] [--slices n [--compare-root checkout]] [--string-bodies] [--setup-per-request] [--per-second-pacing] [--lock-step] [--landing-without-clicks] [--pin] [--paced-fractions f,f] [--paced-connections n] [--pin-main-thread] [--catch-up-ms ms] [--server-node-args=args] [--gc] [--loader autocannon|c [--loader-cpu n] [--paced-warmup s] [--paced-rounds n [--round-seconds s]]]',
  );
  process.exit(0);
}
if (args['server-root']) SERVER_DIR = path.join(path.resolve(args['server-root']), 'apps/server');
if (!args['string-bodies']) keepAutocannonBodiesAsBytes();
const DURATION = Number(args.duration);
if (!['autocannon', 'c'].includes(args.loader))
  throw new Error(`--loader autocannon or c, not ${args.loader}`);
const C_LOADER = args.loader === 'c';
/** --loader c: the seconds a paced run goes at its rate before it is measured (bench/paced-loader.c --warmup). */
const PACED_WARMUP = Number(args['paced-warmup']);
/**
 * --loader c: a paced run's connections: its saturation run's, at least C_PACED_MIN_CONNECTIONS, and the next of
 * C_PACED_LEVELS when it could not send its rate. At 10, a few slower answers held every connection and the next
 * visitors waited for the loader, not the server (click-repeat: 98.6 ms from due, 14.1 ms at most from the send).
 * Tried and dropped: going up while the connections were busy more than half the time (`meanInFlight`, still
 * reported) — the server's answers got slower with every level (click-repeat at 30/100/300: 1.8/6.3/23.6 ms p50
 * from the send, 21/75/299 busy), so each level asked for the next; and opening one more connection whenever
 * all were busy, which went to 1 000 within a second even for bare Fastify, whose answers then took 20 ms each.
 */
const C_PACED_MIN_CONNECTIONS = 30;
const C_PACED_LEVELS = [30, 100, 300];
if (C_LOADER) pacedLoaderBinary(); // compiled before any server starts: a missing compiler stops the bench here
/**
 * --paced-rounds n (with --loader c): each endpoint's p99 at 80 % judged against bare Fastify's in the same minute
 * (pacedRounds below); --round-seconds s: each round's paced runs (default 3), its saturation runs 2 s.
 */
const PACED_ROUNDS = args['paced-rounds'] === undefined ? 0 : Number(args['paced-rounds']);
const ROUND_SECONDS = Number(args['round-seconds']);
const ROUND_SATURATION_SECONDS = 2;
if (
  PACED_ROUNDS &&
  (!C_LOADER || !Number.isInteger(PACED_ROUNDS) || PACED_ROUNDS < 1 || !(ROUND_SECONDS > 0))
) {
  console.error(
    '--paced-rounds n needs --loader c, n a positive integer and --round-seconds a positive number',
  );
  process.exit(2);
}
const SLICES = Number(args.slices);
if (!Number.isInteger(SLICES) || SLICES < 1) {
  console.error('--slices must be a positive integer');
  process.exit(2);
}
const COMPARE_DIR = args['compare-root']
  ? path.join(path.resolve(args['compare-root']), 'apps/server')
  : null;
if (COMPARE_DIR && SLICES < 2) {
  console.error('--compare-root needs --slices n (n ≥ 2): the two servers alternate slice by slice');
  process.exit(2);
}
// --connections 10,30,100: each endpoint, bare Fastify too, is measured at the level where it goes fastest
// (a short probe at each level first): an endpoint that waits on Redis or the database is not saturated by
// 10 connections (ADR 039). One level (e.g. --connections 10): every endpoint at it.
/** A paced run that answered less than this share of its rate is marked: its p99 was measured at less load. */
const REACHED_SHARE = 0.95;
/** The connection levels a paced run climbs when the one below could not offer its rate. */
const PACED_ESCALATION = [10, 30, 100];
/** --catch-up-ms: a paced client drops the requests it owes for longer than this (default: none dropped). */
const CATCH_UP_MS = args['catch-up-ms'] === undefined ? undefined : Number(args['catch-up-ms']);
/** Shares of saturation for the paced runs; the table's column is the goal's 80 %, the others run beside it. */
const PACED_FRACTIONS = args['paced-fractions'].split(',').map(Number);
if (!PACED_FRACTIONS.includes(0.8) || PACED_FRACTIONS.some((f) => !(f > 0 && f <= 1))) {
  console.error('--paced-fractions: shares between 0 and 1, 0.8 among them (e.g. 0.5,0.8)');
  process.exit(2);
}
const CONNECTION_LEVELS = args.connections.split(',').map(Number);
const CONNECTIONS = CONNECTION_LEVELS[0];
/** Seconds each (endpoint, connections) pair runs in the probe. */
const PROBE_SECONDS = 2;
const only = args.only ? args.only.split(',') : SECTIONS;
for (const s of only) {
  if (!SECTIONS.includes(s)) {
    console.error(`unknown section ${s}; expected some of ${SECTIONS.join(', ')}`);
    process.exit(2);
  }
}
// The ratio needs the ceiling of the same run.
const sections = SECTIONS.filter((s) => s === 'hello' || only.includes(s));
if (!(DURATION > 0) || !CONNECTION_LEVELS.every((c) => Number.isInteger(c) && c > 0)) {
  console.error('--duration must be a positive number, --connections positive integers (comma separated)');
  process.exit(2);
}
const PG_URL = args['pg-url'];
const REDIS_URL = args['redis-url'];
if (REDIS_URL && !PG_URL) {
  console.error('--redis-url goes with --pg-url (the PostgreSQL run gets Redis)');
  process.exit(2);
}
const backends = [
  ...(args['skip-pglite'] ? [] : ['pglite']),
  ...(PG_URL ? [REDIS_URL ? 'postgres+redis' : 'postgres'] : []),
];

// ---------------------------------------------------------------------------------------------
// visitors of an ad burst

let visitorCounter = Math.floor(Math.random() * 1e9);
/** A visitor never seen before: a fresh fingerprint, an IP of a carrier pool (10.0.0.0/8, 16 M addresses). */
function newVisitor() {
  const n = visitorCounter++;
  return { fingerprint: `bench-${n.toString(36)}`, ip: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` };
}
/** Returning visitors (reloads): this pool, already counted today by the warm-up. */
const REPEAT_POOL = Array.from({ length: 1000 }, () => newVisitor());
let repeatIndex = 0;
/** Addresses the returning visitors' clicks come from (10.200.0.0 on, apart from new visitors' up to 10.199). */
const REPEAT_ADDRESSES = 20_000;
let repeatAddress = 0;

// The server sits behind a proxy (TRUST_PROXY: this machine), as in production: the visitor's IP is X-Forwarded-For.
const ENDPOINTS = {
  // What a phone's browser sends (Chrome's Accept-Encoding): the H5 fetches it this way.
  h5config: () => ({
    method: 'GET',
    path: AD_BURST_REQUESTS.h5config.path,
    headers: { ...AD_BURST_REQUESTS.h5config.headers },
  }),
  landing: () => ({
    method: 'GET',
    path: AD_BURST_REQUESTS.landing.path,
    headers: { ...AD_BURST_REQUESTS.landing.headers },
  }),
  'click-new': () => ({
    method: 'GET',
    setupRequest: (req) => {
      const v = newVisitor();
      return {
        ...req,
        path: `/api/reportAdChannelClick?adChannelCode=demo&fingerprint=${v.fingerprint}`,
        headers: { ...req.headers, 'x-forwarded-for': v.ip },
      };
    },
  }),
  'click-repeat': () => ({
    method: 'GET',
    setupRequest: (req) => {
      const v = REPEAT_POOL[repeatIndex++ % REPEAT_POOL.length];
      return {
        ...req,
        path: `/api/reportAdChannelClick?adChannelCode=demo&fingerprint=${v.fingerprint}`,
        headers: { ...req.headers, 'x-forwarded-for': v.ip },
      };
    },
  }),
};

// ---------------------------------------------------------------------------------------------
// servers

const psqlEnv = { ...process.env, PGOPTIONS: '--client-min-messages=warning' };
function psql(url, sql) {
  return execFileSync('psql', [url, '-q', '-At', '-v', 'ON_ERROR_STOP=1', '-c', sql], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: psqlEnv,
  });
}

function clearRedisKeys(prefix = REDIS_PREFIX) {
  const u = new URL(REDIS_URL);
  const cli = `redis-cli -h ${u.hostname} -p ${u.port || 6379}`;
  execFileSync(
    'sh',
    ['-c', `${cli} --scan --pattern '${prefix}*' | xargs -r -n 500 ${cli} del > /dev/null`],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
}

/** The compared server's database: the bench database's name with `_cmp`. */
function compareUrl(url) {
  const u = new URL(url);
  u.pathname = `${u.pathname}_cmp`;
  return u.href;
}

function preparePostgres(pgUrl = PG_URL) {
  const db = new URL(pgUrl).pathname.slice(1);
  if (!/^[a-z_][a-z0-9_]*$/.test(db)) throw new Error(`unexpected database name ${db}`);
  if (db === 'test' || db === 'postgres')
    throw new Error(`refusing to wipe database ${db}: use a bench database`);
  const admin = new URL(pgUrl);
  admin.pathname = '/postgres';
  if (psql(admin.href, `select 1 from pg_database where datname = '${db}'`).trim() !== '1') {
    log(`creating database ${db}`);
    psql(admin.href, `create database ${db}`);
  }
  psql(pgUrl, 'drop schema public cascade; create schema public; drop schema if exists drizzle cascade;');
}

/** '127.0.0.1', or 'true' for a --server-root checkout older than issue 19.3 (which knew no address list). */
function trustProxyValue(serverDir) {
  if (!args['server-root'] && serverDir === SERVER_DIR) return '127.0.0.1';
  const env = readFileSync(path.join(serverDir, 'src/config/env.ts'), 'utf8');
  return env.includes('not a bare yes') ? '127.0.0.1' : 'true';
}

/** bench/server-gc.mjs' log of this run's server of `backend` (--gc). */
function gcLogOf(backend) {
  return path.join(os.tmpdir(), `lm-hot-gc-${process.pid}-${backend.replace(/[^a-z]/g, '')}.log`);
}

/** --gc: the app server's collections during a run of `section` that began at `fromMs` (wall clock). */
function noteGc(backend, section, fromMs, run) {
  if (!args.gc || section === 'hello') return;
  run.gc = gcBetween(gcLogOf(backend), fromMs, Date.now());
  log(`  gc: ${gcLine(run.gc)}`);
}

async function startServer(backend, profDir, compared = false) {
  const serverDir = compared ? COMPARE_DIR : SERVER_DIR;
  const pgUrl = compared && backend !== 'pglite' ? compareUrl(PG_URL) : PG_URL;
  const redisPrefix = compared ? `${REDIS_PREFIX}cmp:` : REDIS_PREFIX;
  if (backend !== 'pglite') preparePostgres(pgUrl);
  if (backend === 'postgres+redis') clearRedisKeys(redisPrefix);
  // A compared checkout without its own front-end build (a bare worktree) serves this one's: the comparison
  // is of the servers, and without a build its landing would answer 404s.
  const builds = {};
  if (compared && !existsSync(path.join(serverDir, '../web/dist/index.html'))) {
    warnings.push({ comparedCheckoutServes: path.join(ROOT, 'apps/web/dist') });
    builds.WEB_DIST = path.join(ROOT, 'apps/web/dist');
    builds.ADMIN_DIST = path.join(ROOT, 'apps/admin/dist');
  }
  return startBenchServer({
    serverDir,
    label: compared ? `${backend} (compared)` : backend,
    tmpPrefix: 'lm-bench-hot-',
    // A --cpu-prof profile is written at the server's exit.
    nodeArgs: [
      ...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []),
      ...(args['server-node-args'] ? args['server-node-args'].split(' ').filter(Boolean) : []),
      ...(args.gc && !compared
        ? ['--import', pathToFileURL(path.join(ROOT, 'bench/server-gc.mjs')).href]
        : []),
    ],
    // Not production: NODE_ENV=production needs an SMS gateway's credentials and the PII keys, and does
    // not seed the demo channels this bench reads (see bench/README.md).
    env: {
      // The proxy's address (issue 19.3); a checkout from before that change (--server-root) takes a bare yes.
      TRUST_PROXY: trustProxyValue(serverDir),
      ...builds,
      // Several servers on one machine: the metrics listener is not what is measured.
      METRICS_PORT: '0',
      ...(args.gc && !compared ? { SERVER_GC_LOG: gcLogOf(backend) } : {}),
    },
    ...(backend !== 'pglite' ? { pgUrl } : {}),
    ...(backend === 'postgres+redis' ? { redisUrl: REDIS_URL, redisPrefix } : {}),
  });
}

// ---------------------------------------------------------------------------------------------
// autocannon

function runCannon(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, ...opts }, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

/** Answers that are not what the endpoint should answer (a JSON envelope with code 200, or HTML). */
function answerChecker(kind) {
  const state = { bad: 0, samples: {}, startedAt: performance.now(), lastAt: 0 };
  return {
    state,
    onResponse(status, body, _ctx, headers) {
      state.lastAt = performance.now();
      let problem = null;
      if (kind === 'html') {
        if (status !== 200) problem = `${status}`;
        else if (
          headers &&
          !/text\/html/.test(String(headers['content-type'] ?? headers['Content-Type'] ?? ''))
        )
          problem = `content-type ${headers['content-type']}`;
      } else if (headers && /^(br|gzip)$/.test(String(headers['content-encoding'] ?? ''))) {
        // A compressed JSON answer (h5Config to a browser's Accept-Encoding): autocannon hands the body
        // over as text, so only the status and type are checked here (the tests check the decoded body).
        if (status !== 200) problem = `${status}`;
        else if (!/json/.test(String(headers['content-type'] ?? '')))
          problem = `content-type ${headers['content-type']}`;
      } else {
        try {
          const j = JSON.parse(body);
          if (j?.code !== 200) problem = `${status}/${j?.code}: ${String(j?.msg).slice(0, 80)}`;
          // Every click of click-new is a visitor's first: one not counted means the bench repeated one.
          else if (kind === 'new-click' && j?.data?.counted !== true) problem = 'a new visitor not counted';
        } catch {
          problem = `${status}/unparseable`;
        }
      }
      if (problem) {
        state.bad++;
        state.samples[problem] = (state.samples[problem] ?? 0) + 1;
      }
    },
  };
}

function summarize(result, checker) {
  const seconds = checker.state.lastAt
    ? (checker.state.lastAt - checker.state.startedAt) / 1000
    : result.duration;
  return {
    reqPerSec: Math.round((result.requests.total / seconds) * 10) / 10,
    reqPerSecAutocannonMean: result.requests.average,
    latencyMs: {
      mean: result.latency.mean,
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    total: result.requests.total,
    durationSec: Math.round(seconds * 1000) / 1000,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    badAnswers: checker.state.bad,
    badSamples: checker.state.samples,
    statusCodes: result.statusCodeStats,
  };
}

const buildRequest = createRequire(import.meta.url)('autocannon/lib/httpRequestBuilder.js');
/** Distinct ad links each connection of the landing section cycles through (--landing-without-clicks: one). */
const LANDING_LINKS_PER_CONNECTION = 1000;
let landingCounter = Math.floor(Math.random() * 1e9);

/**
 * Each connection's requests of a click section, built before the run: `perConnection` new visitors (never
 * repeated within the run: the pool is sized for it) or the returning visitors' pool. Handed to autocannon's
 * clients in `setupClient` (its request iterator cycles through them and sends each prebuilt buffer).
 */
function clickPools(base, section, connections, perConnection, onResponse) {
  const u = new URL(base);
  const build = buildRequest({ hostname: u.hostname, port: Number(u.port) });
  if (section === 'landing') {
    // Each connection its own visitors' ad links (a click id each), cycled: far more addresses than any
    // cache of exact addresses would keep.
    return Array.from({ length: connections }, () =>
      Array.from({ length: LANDING_LINKS_PER_CONNECTION }, () => {
        const req = { ...ENDPOINTS.landing(), path: adLandingPath(landingCounter++), onResponse };
        req.requestBuffer = build({ ...req, headers: { ...req.headers } });
        return req;
      }),
    );
  }
  const request = (v) => {
    const req = {
      method: 'GET',
      path: `/api/reportAdChannelClick?adChannelCode=demo&fingerprint=${v.fingerprint}`,
      headers: { 'x-forwarded-for': v.ip },
      onResponse,
    };
    req.requestBuffer = build({ ...req, headers: { ...req.headers } });
    return req;
  };
  if (section === 'click-repeat') {
    // The returning visitors, each click from one of REPEAT_ADDRESSES addresses in turn: 1 000 addresses would
    // pass the per-IP limit (600 an hour) within a run at the C loader's rates, and answer 429s.
    return Array.from({ length: connections }, (_, i) =>
      Array.from({ length: Math.min(perConnection, 20_000) }, (_, k) => {
        const v = REPEAT_POOL[(i * 97 + k) % REPEAT_POOL.length];
        const a = repeatAddress++ % REPEAT_ADDRESSES;
        return request({
          fingerprint: v.fingerprint,
          ip: `10.${200 + (a >> 16)}.${(a >> 8) & 255}.${a & 255}`,
        });
      }),
    );
  }
  return Array.from({ length: connections }, () =>
    Array.from({ length: perConnection }, () => request(newVisitor())),
  );
}

/** New visitors a connection of `connections` may need in `seconds` (at most 40 k clicks/s in all, with a margin). */
const poolSize = (seconds, connections, rate = 40_000) =>
  Math.ceil((rate * seconds * 1.2) / connections) + 100;

async function measure(base, section, opts) {
  if (C_LOADER) return measureWithC(base, section, opts);
  const checker = answerChecker(
    section === 'landing' ? 'html' : section === 'click-new' ? 'new-click' : 'json',
  );
  const request = section === 'hello' ? { method: 'GET', path: '/' } : ENDPOINTS[section]();
  const prebuilt =
    ((section === 'click-new' || section === 'click-repeat') && !args['setup-per-request']) ||
    (section === 'landing' && !args['landing-without-clicks']);
  const connections = opts.connections ?? CONNECTIONS;
  let setupClient;
  if (prebuilt) {
    const seconds = opts.duration ?? DURATION;
    const pools = clickPools(
      base,
      section,
      connections,
      poolSize(seconds, connections, opts.overallRate),
      checker.onResponse,
    );
    let next = 0;
    setupClient = (client) => {
      const it = client.requestIterator;
      it.requests = pools[next++ % pools.length];
      it.currentRequestIndex = 0;
      it.currentRequest = it.requests[0];
    };
  }
  // A paced run's answers timed from when each request was due (bench/lib.mjs paceEvenly).
  let fromDue = null;
  if (opts.overallRate && !args['per-second-pacing']) {
    // An even rate, not autocannon's quota per second, each client starting at its own point of its period
    // (bench/lib.mjs paceEvenly), unless --lock-step asks for the way it was measured until 2026-11-29.
    fromDue = { latencies: [], missed: { count: 0 } };
    const setup = setupClient;
    let started = 0;
    setupClient = (client) => {
      setup?.(client);
      paceEvenly(client, {
        phase: args['lock-step'] ? 0 : started++ / connections,
        ...(CATCH_UP_MS === undefined ? {} : { catchUpMs: CATCH_UP_MS }),
        ...fromDue,
      });
    };
  }
  const stolenBefore = stolenMs();
  const loaderGaps = watchLoopGaps();
  const result = await runCannon({
    url: base,
    duration: DURATION,
    ...opts,
    connections,
    ...(setupClient ? { setupClient } : {}),
    requests: [{ ...request, onResponse: checker.onResponse }],
  });
  const summary = summarize(result, checker);
  // What stopped everything (the hypervisor) and what stopped the load generator (its own loop).
  summary.stolenMs = stolenBefore === null ? null : stolenMs() - stolenBefore;
  summary.loadGeneratorLongestStopMs = loaderGaps();
  if (fromDue) {
    summary.latencyFromDueMs = percentilesOf(fromDue.latencies);
    summary.missedDue = fromDue.missed.count;
  }
  return summary;
}

/**
 * What the server must answer each section with, checked by the C loader on every answer: a 2xx status and
 * these bytes in the headers (case-insensitive) or the body (h5config and the landing come compressed).
 */
const C_EXPECT = {
  hello: { expectBody: '"hello"' },
  h5config: { expectHeader: 'content-type: application/json' },
  landing: { expectHeader: 'content-type: text/html' },
  'click-new': { expectBody: '"counted":true' },
  'click-repeat': { expectBody: '"code":200' },
};

/**
 * --loader c: the run made by bench/paced-loader.c (closed loop, or paced with `opts.overallRate`), each
 * connection's requests the same as autocannon's (prebuilt, new visitors never repeated), its answers checked
 * (C_EXPECT). Returns the summary measure() returns; `loadGeneratorLongestStopMs` is the longest a request was
 * sent after it came due on a free connection (the loader's own lateness).
 */
async function measureWithC(base, section, opts) {
  const u = new URL(base);
  const connections = opts.connections ?? CONNECTIONS;
  const seconds = opts.duration ?? DURATION;
  const warmup = opts.overallRate ? PACED_WARMUP : 0;
  let pools;
  if (section === 'click-new' || section === 'click-repeat' || section === 'landing') {
    // A paced connection takes whichever request comes due when it is free: a margin for uneven shares.
    const rate = opts.overallRate ? opts.overallRate * 1.5 : 50_000;
    pools = clickPools(base, section, connections, poolSize(seconds + warmup, connections, rate));
  } else {
    const build = buildRequest({ hostname: u.hostname, port: Number(u.port) });
    const request = section === 'hello' ? { method: 'GET', path: '/' } : ENDPOINTS[section]();
    const buffer = build({ ...request, headers: { ...(request.headers ?? {}) } });
    pools = Array.from({ length: connections }, () => [{ requestBuffer: buffer }]);
  }
  const stolenBefore = stolenMs();
  const r = await runPacedLoader({
    port: Number(u.port),
    pools: pools.map((p) => p.map((req) => req.requestBuffer)),
    duration: seconds,
    rate: opts.overallRate,
    warmup,
    cpu: args['loader-cpu'],
    ...C_EXPECT[section],
  });
  return {
    reqPerSec: r.reqPerSec,
    latencyMs: r.fromSendMs,
    total: r.answered,
    durationSec: r.durationSec,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    timeouts: r.timeouts,
    badAnswers: r.badAnswers,
    badSamples: r.badSample ? { [r.badSample]: r.badAnswers } : {},
    stolenMs: stolenBefore === null ? null : stolenMs() - stolenBefore,
    loadGeneratorLongestStopMs: r.sendLagMs?.max ?? null,
    loader: 'c',
    // The 50-ms windows with the longest answers, on the wall clock too (bench/server-pauses.mjs logs the same).
    worstWindows: r.worstWindows.map((w) => ({ ...w, epochMs: Math.round(r.t0EpochMs + w.atMs) })),
    ...(opts.overallRate
      ? {
          latencyFromDueMs: r.fromDueMs,
          missedDue: 0,
          owedAtEnd: r.owedAtEnd,
          sendLagMs: r.sendLagMs,
          warmupSec: warmup,
          meanInFlight: r.meanInFlight,
          warmupFromDueMs: r.warmupFromDueMs,
        }
      : {}),
  };
}

/** p50, p90, p99 and max of latencies in ms (rounded to 0.1 ms). */
function percentilesOf(values) {
  if (values.length === 0) return null;
  const sorted = Float64Array.from(values).sort();
  const at = (q) =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] * 10) / 10;
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1), count: sorted.length };
}

async function warmUp(base, section) {
  const request = section === 'hello' ? { method: 'GET', path: '/' } : ENDPOINTS[section]();
  const result = await runCannon({ url: base, amount: 2000, requests: [request] });
  // A section that cannot answer is measured for nothing: stop before the runs, not after them.
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) {
    const hint = section === 'landing' ? ' (the landing needs the web build: npm run build:ui)' : '';
    throw new Error(
      `${section}: ${failed} of ${result.requests.total} warm-up requests failed or were not 2xx${hint}`,
    );
  }
}

// ---------------------------------------------------------------------------------------------

/**
 * The connections each section is measured at (ADR 039): with one level, that one; with several, each
 * section (bare Fastify included) runs PROBE_SECONDS at every level, level by level, and takes the level
 * where it answered the most. A click waits for Redis and the database; 10 connections leave the server
 * idle between answers while bare Fastify, which waits for nothing, is saturated by them.
 */
async function chooseConnections(out, sections, baseOf) {
  if (CONNECTION_LEVELS.length === 1) {
    out.connections = Object.fromEntries(sections.map((s) => [s, CONNECTIONS]));
    return out.connections;
  }
  log(`${out.backend}: probing ${CONNECTION_LEVELS.join(', ')} connections, ${PROBE_SECONDS} s each`);
  const probe = Object.fromEntries(sections.map((s) => [s, {}]));
  for (const c of CONNECTION_LEVELS) {
    for (const s of sections) {
      probe[s][c] = (await measure(baseOf(s), s, { duration: PROBE_SECONDS, connections: c })).reqPerSec;
    }
  }
  out.connectionsProbe = probe;
  out.connections = Object.fromEntries(
    sections.map((s) => [
      s,
      CONNECTION_LEVELS.reduce((best, c) => (probe[s][c] > probe[s][best] ? c : best)),
    ]),
  );
  log(`${out.backend}: connections chosen: ${sections.map((s) => `${s} ${out.connections[s]}`).join(', ')}`);
  return out.connections;
}

/**
 * --slices n: each endpoint's saturation run is cut into n slices of duration/n, each between two slices of
 * bare Fastify (hello, s₁, hello, s₂, …, sₙ, hello); a slice's ratio is its req/s over the mean of the
 * hello slices either side, and the endpoint's ratio is the median of its slices'. On a machine whose speed
 * drifts within a run (a shared VM: bare Fastify's own req/s moved by 30 % between two runs a minute apart),
 * a ratio of neighbours drifts far less than one of two runs a minute apart.
 */
async function saturationInSlices(out, sections, baseOf, windows, compareBase, conns) {
  const slice = DURATION / SLICES;
  const helloSlices = [];
  const neighbours = (hello, k) => (hello[k].reqPerSec + hello[k + 1].reqPerSec) / 2;
  const sliceSummary = (mine, ratios) => {
    const mid = median(mine.map((m) => m.reqPerSec));
    return {
      // The slice of median req/s stands for the endpoint (its latencies); errors are the slices' sum.
      saturation: {
        ...mine.find((m) => m.reqPerSec >= mid),
        reqPerSec: mid,
        errors: mine.reduce((n, m) => n + m.errors, 0),
        non2xx: mine.reduce((n, m) => n + m.non2xx, 0),
        badAnswers: mine.reduce((n, m) => n + m.badAnswers, 0),
      },
      ratio: Math.round(median(ratios) * 1000) / 1000,
      sliceRatios: ratios.map((r) => Math.round(r * 1000) / 1000),
      sliceReqPerSec: mine.map((m) => m.reqPerSec),
    };
  };
  for (const s of sections.filter((x) => x !== 'hello')) {
    const what = compareBase ? 'alternating with the compared server' : 'between slices of bare Fastify';
    log(
      `${out.backend}: ${s}: saturation, ${SLICES} slices of ${slice} s at ${conns[s]} connections, ${what}`,
    );
    const mineOpts = { duration: slice, connections: conns[s] };
    const helloOpts = { duration: slice, connections: conns.hello };
    const hello = [await measure(baseOf('hello'), 'hello', helloOpts)];
    const mine = [];
    const theirs = [];
    const startUs = monoUs();
    for (let k = 0; k < SLICES; k++) {
      mine.push(await measure(baseOf(s), s, mineOpts));
      hello.push(await measure(baseOf('hello'), 'hello', helloOpts));
      if (compareBase) {
        theirs.push(await measure(compareBase, s, mineOpts));
        hello.push(await measure(baseOf('hello'), 'hello', helloOpts));
      }
    }
    windows[s] = { startUs, endUs: monoUs() };
    // Without a compared server hello[k] and hello[k+1] frame slice k; with one, hello[2k] and hello[2k+1]
    // frame this server's slice k and hello[2k+1] and hello[2k+2] the compared server's.
    const step = compareBase ? 2 : 1;
    const ratios = mine.map((m, k) => m.reqPerSec / neighbours(hello, step * k));
    out.sections[s] = {
      ...sliceSummary(mine, ratios),
      helloSliceReqPerSec: hello.map((h) => h.reqPerSec),
      loadAvg1: Math.round(os.loadavg()[0] * 100) / 100,
    };
    if (compareBase) {
      const theirRatios = theirs.map((m, k) => m.reqPerSec / neighbours(hello, 2 * k + 1));
      out.sections[`${s} (compared)`] = sliceSummary(theirs, theirRatios);
      // This server's req/s over the compared one's, slice by slice (>1: this one is faster).
      out.sections[s].overCompared = mine.map(
        (m, k) => Math.round((m.reqPerSec / theirs[k].reqPerSec) * 1000) / 1000,
      );
    }
    if (GOALS[s]) out.sections[s].goalRatio = GOALS[s];
    helloSlices.push(...hello);
  }
  const mid = median(helloSlices.map((h) => h.reqPerSec));
  out.sections.hello = { saturation: { ...helloSlices.find((h) => h.reqPerSec >= mid), reqPerSec: mid } };
  out.ceilingReqPerSec = mid;
}

/**
 * --paced-rounds n: the p99 goal judged on the machine of the moment. A paced rate set from a saturation run a
 * minute earlier can be more than this VM then answers (its single-thread speed moved 586–950 ms for the same
 * loop back to back): then bare Fastify misses the goal too, and the endpoint's p99 measures the VM, not the
 * server. Each round, per endpoint: bare Fastify saturated (2 s), the endpoint saturated (2 s), bare Fastify
 * paced at 80 % of the first, the endpoint paced at 80 % of the second (--round-seconds each, after the
 * --paced-warmup). A round counts for the endpoint's p99 when bare Fastify's paced run met the goal and both
 * reached their rate: the machine then kept up with an 80 % load. The endpoint's figure is the median p99 of
 * those rounds, beside how many of them met the goal.
 */
async function pacedRounds(out, sections, baseOf, conns) {
  const pacedConnections = (s) => Math.max(conns[s], C_PACED_MIN_CONNECTIONS);
  const pacedAt = async (s, rate) => {
    const fromMs = Date.now();
    const run = await measure(baseOf(s), s, {
      overallRate: rate,
      connections: pacedConnections(s),
      duration: ROUND_SECONDS,
    });
    noteGc(out.backend, s, fromMs, run);
    return { rate, reqPerSec: run.reqPerSec, reached: run.reqPerSec >= REACHED_SHARE * rate, run };
  };
  for (const s of sections.filter((x) => x !== 'hello')) {
    log(
      `${out.backend}: ${s}: ${PACED_ROUNDS} paced rounds (bare Fastify and ${s} saturated ${ROUND_SATURATION_SECONDS} s, then each paced ${ROUND_SECONDS} s at 80 %)`,
    );
    const rounds = [];
    for (let k = 0; k < PACED_ROUNDS; k++) {
      const sat = { duration: ROUND_SATURATION_SECONDS };
      const helloSat = await measure(baseOf('hello'), 'hello', { ...sat, connections: conns.hello });
      const mineSat = await measure(baseOf(s), s, { ...sat, connections: conns[s] });
      const hello = await pacedAt('hello', Math.max(1, Math.round(helloSat.reqPerSec * 0.8)));
      const mine = await pacedAt(s, Math.max(1, Math.round(mineSat.reqPerSec * 0.8)));
      const round = {
        helloSaturation: Math.round(helloSat.reqPerSec),
        saturation: Math.round(mineSat.reqPerSec),
        ratio: Math.round((mineSat.reqPerSec / helloSat.reqPerSec) * 1000) / 1000,
        helloRate: hello.rate,
        helloReached: hello.reached,
        helloP99: hello.run.latencyFromDueMs.p99,
        rate: mine.rate,
        reached: mine.reached,
        p99: mine.run.latencyFromDueMs.p99,
        p99FromSend: mine.run.latencyMs.p99,
        helloP99FromSend: hello.run.latencyMs.p99,
        meanInFlight: mine.run.meanInFlight,
        // The loader's own lateness (a request sent after it came due on a free connection): a miss with a long
        // one is the load generator's or the VM's stop, not the server's.
        loadGeneratorLongestStopMs: mine.run.loadGeneratorLongestStopMs,
        helloLoadGeneratorLongestStopMs: hello.run.loadGeneratorLongestStopMs,
        worstWindows: mine.run.worstWindows?.slice(0, 3),
        failed: mine.run.errors + mine.run.non2xx + mine.run.badAnswers + helloSat.errors + mineSat.errors,
        ...(mine.run.gc ? { gc: mine.run.gc } : {}),
      };
      round.counts = round.helloReached && round.reached && round.helloP99 < P99_GOAL_MS;
      log(
        `  round ${k + 1}: bare Fastify ${round.helloSaturation} req/s, paced ${hello.reqPerSec.toFixed(0)}/${round.helloRate} p99 ${round.helloP99} ms; ${s} ${round.saturation} req/s (${(round.ratio * 100).toFixed(1)} %), paced ${mine.reqPerSec.toFixed(0)}/${round.rate} p99 ${round.p99} ms (from send ${round.p99FromSend}, loader late ≤ ${round.loadGeneratorLongestStopMs} ms)${round.counts ? '' : ' — not counted'}`,
      );
      rounds.push(round);
    }
    const counted = rounds.filter((r) => r.counts);
    out.sections[s] ??= {};
    out.sections[s].pacedRounds = {
      rounds,
      counted: counted.length,
      metGoal: counted.filter((r) => r.p99 < P99_GOAL_MS).length,
      medianP99: counted.length ? Math.round(median(counted.map((r) => r.p99)) * 10) / 10 : null,
      // Beside bare Fastify in the same rounds (ADR 054): how often each met the goal timed from due, and the
      // longest p99 timed from the send (what autocannon, the issue's tool, reports).
      metGoalAll: rounds.filter((r) => r.p99 < P99_GOAL_MS).length,
      helloMetGoalAll: rounds.filter((r) => r.helloP99 < P99_GOAL_MS).length,
      maxP99FromSend: Math.max(...rounds.map((r) => r.p99FromSend)),
      helloMaxP99FromSend: Math.max(...rounds.map((r) => r.helloP99FromSend ?? 0)),
      medianRatio: Math.round(median(rounds.map((r) => r.ratio)) * 1000) / 1000,
      failed: rounds.reduce((n, r) => n + r.failed, 0),
    };
  }
}

/**
 * P(X ≥ k) for X ~ Binomial(n, ½): how likely k or more of n rounds that tell two servers apart would go against
 * the endpoint if it met the goal as often as bare Fastify (the exact one-sided McNemar test, ADR 054).
 */
function binomialTail(k, n) {
  let p = 0;
  let c = 1; // C(n, i), built up from i = 0
  for (let i = 0; i <= n; i++) {
    if (i >= k) p += c / 2 ** n;
    c = (c * (n - i)) / (i + 1);
  }
  return n === 0 ? 1 : p;
}

async function runBackend(backend) {
  const out = { backend, loadAvgAtStart: os.loadavg().map((x) => Math.round(x * 100) / 100), sections: {} };
  out.cpuBusyBeforePercent = await checkQuiet(backend);
  const hello = await startHello(ROOT);
  if (args.pin) pinProcess(hello.proc.child.pid, SERVER_CPU);
  log(`${backend}: starting server`);
  const profDir = args['cpu-prof']
    ? path.join(RESULTS_DIR, `cpu-prof-${backend}-${new Date().toISOString().replace(/[:.]/g, '-')}`)
    : null;
  if (profDir) mkdirSync(profDir, { recursive: true });
  let server;
  let compared = null;
  try {
    server = await startServer(backend, profDir);
    compared = COMPARE_DIR ? await startServer(backend, null, true) : null;
  } catch (err) {
    // A backend that cannot start (a refused database, a server that never became healthy) leaves nothing
    // running: the next backend and the bench's own exit do not wait for these children.
    if (server) {
      await stopChild(server.proc, backend);
      rmSync(server.dataDir, { recursive: true, force: true });
    }
    await stopChild(hello.proc, 'hello');
    throw err;
  }
  if (args.pin) for (const s of [server, compared]) if (s) pinProcess(s.proc.child.pid, SERVER_CPU);
  // --pin-main-thread: each server's answering thread alone on CPU 0, everything else on CPU 1 (again after
  // the warm-up, for the threads made by then).
  const pinMains = () => {
    if (!args['pin-main-thread']) return;
    for (const s of [hello, server, compared]) if (s) pinMainThread(s.proc.child.pid, SERVER_CPU, LOADER_CPU);
  };
  pinMains();
  const windows = {};
  out.startupMs = server.startupMs;
  log(`${backend}: healthy after ${server.startupMs} ms`);
  const baseOf = (s) => (s === 'hello' ? hello.base : server.base);
  try {
    // The returning visitors are counted once (and their IPs seen) before anything is measured.
    for (const base of [server.base, ...(compared ? [compared.base] : [])]) {
      for (const v of REPEAT_POOL) {
        await fetch(`${base}/api/reportAdChannelClick?adChannelCode=demo&fingerprint=${v.fingerprint}`, {
          headers: { 'x-forwarded-for': v.ip },
        });
      }
    }
    for (const s of sections) await warmUp(baseOf(s), s);
    if (compared) for (const s of sections) if (s !== 'hello') await warmUp(compared.base, s);
    pinMains();
    const conns = await chooseConnections(out, sections, baseOf);
    if (SLICES > 1) await saturationInSlices(out, sections, baseOf, windows, compared?.base, conns);
    else {
      // Saturation: as fast as `connections` go. Bare Fastify first and last; its ratio uses the mean.
      const order = [...sections, 'hello'];
      for (const [i, s] of order.entries()) {
        const name = i === order.length - 1 ? 'hello (again)' : s;
        log(`${backend}: ${name}: saturation, ${DURATION} s at ${conns[s]} connections`);
        const startUs = monoUs();
        const fromMs = Date.now();
        out.sections[name] = { saturation: await measure(baseOf(s), s, { connections: conns[s] }) };
        noteGc(backend, s, fromMs, out.sections[name].saturation);
        windows[name] = { startUs, endUs: monoUs() };
        out.sections[name].loadAvg1 = Math.round(os.loadavg()[0] * 100) / 100;
      }
      const ceiling =
        (out.sections.hello.saturation.reqPerSec + out.sections['hello (again)'].saturation.reqPerSec) / 2;
      out.ceilingReqPerSec = ceiling;
      for (const s of sections) {
        out.sections[s].ratio = Math.round((out.sections[s].saturation.reqPerSec / ceiling) * 1000) / 1000;
        if (GOALS[s]) out.sections[s].goalRatio = GOALS[s];
      }
    }
    if (!args['skip-paced']) {
      for (const s of sections) {
        for (const fraction of PACED_FRACTIONS) {
          const rate = Math.max(1, Math.round(out.sections[s].saturation.reqPerSec * fraction));
          // From the saturation run's level up: a level whose connections could not offer the rate (each waits
          // for its answer) measured its p99 at less load, i.e. without the requests it did not send
          // (coordinated omission); the next level up runs then, until one offers the rate or none is left.
          const levels = args['paced-connections']
            ? [Number(args['paced-connections'])]
            : C_LOADER
              ? (() => {
                  const first = Math.max(conns[s], C_PACED_MIN_CONNECTIONS);
                  return [first, ...C_PACED_LEVELS.filter((c) => c > first)];
                })()
              : [conns[s], ...PACED_ESCALATION.filter((c) => c > conns[s])];
          let paced;
          for (const connections of levels) {
            log(
              `${backend}: ${s}: paced at ${rate} req/s (${fraction * 100} % of saturation) for ${DURATION} s at ${connections} connections`,
            );
            const fromMs = Date.now();
            paced = {
              fraction,
              connections,
              targetReqPerSec: rate,
              ...(await measure(baseOf(s), s, { overallRate: rate, connections })),
            };
            // A run that fell short measured its p99 at less load than asked (the table marks it).
            paced.reachedRate = paced.reqPerSec >= REACHED_SHARE * rate;
            log(
              `${backend}: ${s}: paced ${fraction} at ${connections}${paced.meanInFlight === undefined ? '' : ` (${paced.meanInFlight} busy on average)`}: ${paced.reqPerSec} req/s; ${paced.latencyFromDueMs ? `from due p50 ${paced.latencyFromDueMs.p50} p99 ${paced.latencyFromDueMs.p99} max ${paced.latencyFromDueMs.max}, ${paced.missedDue} dropped; ` : ''}from send p50 ${paced.latencyMs.p50} p99 ${paced.latencyMs.p99} max ${paced.latencyMs.max}; stolen ${paced.stolenMs} ms, load generator stopped ≤ ${paced.loadGeneratorLongestStopMs} ms`,
            );
            if (paced.worstWindows)
              log(
                `  longest answers in 50-ms windows: ${paced.worstWindows
                  .slice(0, 4)
                  .map((w) => `${w.maxMs} ms (${w.maxFromSendMs} from send) at ${w.atMs} ms @${w.epochMs}`)
                  .join('; ')}`,
              );
            noteGc(backend, s, fromMs, paced);
            out.sections[s].pacedRuns = [...(out.sections[s].pacedRuns ?? []), paced];
            if (paced.reachedRate) break;
          }
          if (fraction === 0.8) out.sections[s].paced = paced;
        }
      }
    }
    if (PACED_ROUNDS) await pacedRounds(out, sections, baseOf, conns);
  } finally {
    const exit = await stopChild(server.proc, backend);
    await stopChild(hello.proc, 'hello');
    out.exit = exit;
    rmSync(server.dataDir, { recursive: true, force: true });
    if (args.gc) rmSync(gcLogOf(backend), { force: true });
    if (backend === 'postgres+redis') clearRedisKeys();
    if (compared) {
      out.comparedExit = await stopChild(compared.proc, `${backend} (compared)`);
      out.comparedServerDir = COMPARE_DIR;
      rmSync(compared.dataDir, { recursive: true, force: true });
      if (backend === 'postgres+redis') clearRedisKeys(`${REDIS_PREFIX}cmp:`);
    }
  }
  if (profDir) {
    const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) out.cpuProfile = 'no profile written';
    else
      for (const [name, window] of Object.entries(windows)) {
        if (name.startsWith('hello')) continue;
        out.sections[name].cpuProfile = summarizeProfile(path.join(profDir, file), window);
      }
  }
  const tail = server.proc.output().trim();
  if (tail) out.serverOutputTail = tail.slice(-8000);
  out.loadAvgAtEnd = os.loadavg().map((x) => Math.round(x * 100) / 100);
  return out;
}

function table(runs) {
  const head = [
    'backend',
    'endpoint',
    'conns',
    'req/s',
    'ratio',
    'goal',
    'p50',
    'p99',
    'non2xx',
    'errors',
    'bad',
    '80% rate',
    'conns@80%',
    'p99@80%',
    'from send',
    'stolen@80%',
    'errors@80%',
  ];
  const rows = [];
  for (const run of runs) {
    for (const [name, s] of Object.entries(run.sections)) {
      const sat = s.saturation;
      const p = s.paced;
      rows.push([
        run.backend,
        name,
        String(run.connections?.[name.replace(/ \(.*\)$/, '')] ?? ''),
        sat.reqPerSec.toFixed(0),
        s.ratio === undefined ? '' : `${(s.ratio * 100).toFixed(1)}%`,
        s.goalRatio ? `≥${s.goalRatio * 100}%` : '',
        String(sat.latencyMs.p50),
        String(sat.latencyMs.p99),
        String(sat.non2xx),
        String(sat.errors),
        String(sat.badAnswers),
        p ? `${p.reqPerSec.toFixed(0)}/${p.targetReqPerSec}` : '',
        p ? String(p.connections) : '',
        p ? `${p.latencyFromDueMs?.p99 ?? '–'}${p.reachedRate === false ? '*' : ''}` : '',
        p ? String(p.latencyMs.p99) : '',
        p ? String(p.stolenMs ?? '') : '',
        p ? String(p.errors + p.non2xx + p.badAnswers) : '',
      ]);
    }
  }
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (cells) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [fmt(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt)].join('\n');
}

function gitCommit(root) {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: root,
      encoding: 'utf8',
    }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'apps', 'packages'], {
      cwd: root,
      encoding: 'utf8',
    }).trim();
    return dirty ? `${head}+dirty` : head;
  } catch {
    return null;
  }
}

async function main() {
  if (args.pin || args['pin-main-thread']) {
    if (os.cpus().length < 2) throw new Error('--pin and --pin-main-thread need 2 CPUs');
    pinProcess(process.pid, LOADER_CPU);
  }
  const startedAt = new Date();
  const results = {
    startedAt: startedAt.toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      node: process.version,
      loadAvgAtStart: os.loadavg().map((x) => Math.round(x * 100) / 100),
    },
    commit: gitCommit(path.dirname(path.dirname(SERVER_DIR))),
    serverDir: SERVER_DIR,
    ...(COMPARE_DIR
      ? { comparedCommit: gitCommit(path.dirname(path.dirname(COMPARE_DIR))), comparedServerDir: COMPARE_DIR }
      : {}),
    options: {
      durationSec: DURATION,
      connections: CONNECTION_LEVELS,
      sections,
      backends,
      redisKeyPrefix: REDIS_PREFIX,
      loadGenerator: C_LOADER
        ? { program: 'bench/paced-loader.c', cpu: args['loader-cpu'] ?? 'any' }
        : 'autocannon',
      pinned: args.pin
        ? { servers: SERVER_CPU, loadGenerator: LOADER_CPU }
        : args['pin-main-thread']
          ? { serversMainThread: SERVER_CPU, serversOtherThreads: LOADER_CPU, loadGenerator: LOADER_CPU }
          : false,
    },
    goals: { ratios: GOALS, p99AtEightyPercentMs: P99_GOAL_MS },
    runs: [],
    failures: [],
  };
  for (const backend of backends) {
    try {
      results.runs.push(await runBackend(backend));
    } catch (err) {
      log(`${backend}: FAILED: ${err.message}`);
      results.failures.push({ backend, error: String(err.stack ?? err) });
    }
  }
  results.warnings = warnings;
  results.loadGeneratorBodies = args['string-bodies'] ? 'strings (autocannon as it comes)' : 'bytes';
  results.machine.loadAvgAtEnd = os.loadavg().map((x) => Math.round(x * 100) / 100);
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `hot-path-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(table(results.runs));
  if (results.runs.some((run) => Object.values(run.sections).some((s) => s.paced?.reachedRate === false)))
    console.log(
      `* the paced run reached less than ${REACHED_SHARE * 100} % of its rate: that p99 is not at 80 % of saturation`,
    );
  console.log(
    `p99@80%: each answer timed from when its request was due (a connection's wait for the answer before included); from send: ${C_LOADER ? 'the C loader timed from the send' : "autocannon's own"}`,
  );
  for (const run of results.runs) {
    if (!run.connectionsProbe) continue;
    const levels = Object.entries(run.connectionsProbe).map(
      ([s, byLevel]) =>
        `${s} ${Object.entries(byLevel)
          .map(([c, r]) => `${c}: ${Math.round(r)}`)
          .join(', ')}`,
    );
    console.log(`${run.backend}: req/s by connections (${PROBE_SECONDS} s probes): ${levels.join('; ')}`);
  }
  for (const run of results.runs) {
    for (const [name, sec] of Object.entries(run.sections)) {
      if (!sec.sliceRatios) continue;
      console.log(
        `${run.backend} ${name}: slice ratios ${sec.sliceRatios.map((r) => `${(r * 100).toFixed(1)}%`).join(' ')}` +
          ` (median ${(sec.ratio * 100).toFixed(1)}%); its req/s ${sec.sliceReqPerSec.map(Math.round).join(' ')}` +
          (sec.helloSliceReqPerSec
            ? `; bare Fastify ${sec.helloSliceReqPerSec.map(Math.round).join(' ')}`
            : '') +
          (sec.overCompared
            ? `; over the compared server ${sec.overCompared.map((r) => r.toFixed(3)).join(' ')} (median ${median(sec.overCompared).toFixed(3)})`
            : ''),
      );
    }
  }
  for (const run of results.runs) {
    for (const [name, sec] of Object.entries(run.sections)) {
      const r = sec.pacedRounds;
      if (!r) continue;
      console.log(
        `${run.backend} ${name}: paced rounds: ${r.counted} of ${r.rounds.length} counted (bare Fastify met p99 < ${P99_GOAL_MS} ms, both reached their rate), ` +
          `${r.metGoal} of them met the goal, median p99 ${r.medianP99 ?? '–'} ms; p99 by round ${r.rounds.map((x) => `${x.p99}${x.counts ? '' : '†'} (bare ${x.helloP99})`).join(', ')}; median ratio ${(r.medianRatio * 100).toFixed(1)} %${r.failed ? `; ${r.failed} FAILED` : ''}`,
      );
    }
  }
  // ADR 054: the p99 goal judged beside bare Fastify in the same rounds, per backend.
  for (const run of results.runs) {
    const judged = Object.entries(run.sections).filter(([, sec]) => sec.pacedRounds);
    if (!judged.length) continue;
    const sum = (f) => judged.reduce((n, [, sec]) => n + f(sec.pacedRounds), 0);
    const rounds = sum((r) => r.rounds.length);
    const met = sum((r) => r.metGoalAll);
    const helloMet = sum((r) => r.helloMetGoalAll);
    const fromSend = Math.max(...judged.map(([, sec]) => sec.pacedRounds.maxP99FromSend));
    const all = judged.flatMap(([, sec]) => sec.pacedRounds.rounds);
    const helloMetRounds = all.filter((x) => x.helloP99 < P99_GOAL_MS);
    const metWhere = (xs) => xs.filter((x) => x.p99 < P99_GOAL_MS).length;
    // Rounds that tell the two apart: bare Fastify met the goal and the endpoint did not (worse), or the reverse.
    const worse = helloMetRounds.length - metWhere(helloMetRounds);
    const better = metWhere(all) - metWhere(helloMetRounds);
    const pWorse = binomialTail(worse, worse + better);
    const verdict =
      fromSend >= P99_GOAL_MS
        ? 'goal NOT held: the server itself answered late (ADR 054)'
        : helloMet === 0
          ? 'cannot be judged: bare Fastify never met it on this machine now (ADR 054)'
          : worse + better < 5
            ? `cannot be judged: ${worse + better} rounds tell the endpoints from bare Fastify, fewer than the 5 a test at p < 0.05 needs (ADR 054)`
            : pWorse < 0.05
              ? `goal NOT held: the endpoints met it less often than bare Fastify (${worse} rounds against ${better}, p = ${pWorse.toFixed(3)}; ADR 054)`
              : `goal held: not less often than bare Fastify in the same rounds (${worse} rounds against ${better}, p = ${pWorse.toFixed(2)}; ADR 054)`;
    console.log(
      `${run.backend}: p99 < ${P99_GOAL_MS} ms at 80 % timed from due: the endpoints in ${met} of ${rounds} rounds, bare Fastify in ${helloMet} of the same ` +
        `(${judged.map(([n, sec]) => `${n} ${sec.pacedRounds.metGoalAll} vs ${sec.pacedRounds.helloMetGoalAll}`).join(', ')}); ` +
        `the endpoints met it in ${metWhere(helloMetRounds)} of the ${helloMetRounds.length} rounds bare Fastify met it, ` +
        `${metWhere(all) - metWhere(helloMetRounds)} of the ${all.length - helloMetRounds.length} it missed; ` +
        `longest p99 from the send ${fromSend} ms (bare Fastify ${Math.max(...judged.map(([, sec]) => sec.pacedRounds.helloMaxP99FromSend))}) — ${verdict}`,
    );
  }
  for (const run of results.runs) {
    for (const [name, sec] of Object.entries(run.sections)) {
      const p = sec.cpuProfile;
      if (!p) continue;
      console.log(`\n${run.backend} ${name}: server CPU profile, ${p.busyMs} ms busy, ${p.idleMs} ms idle`);
      for (const f of p.selfFunctions.slice(0, 25))
        console.log(`  ${String(f.percent).padStart(5)} %  ${f.what}`);
      console.log('  app functions, inclusive:');
      for (const f of p.appInclusive.slice(0, 15))
        console.log(`  ${String(f.percent).padStart(5)} %  ${f.what}`);
    }
  }
  console.log(
    `\nratio = req/s ÷ bare Fastify's (mean of its two runs) in the same run; latencies in ms; ` +
      `load average ${results.machine.loadAvgAtStart.join(' ')} → ${results.machine.loadAvgAtEnd.join(' ')}`,
  );
  console.log(`results: ${path.relative(process.cwd(), file)}`);
  const problems = results.runs.flatMap((r) =>
    Object.entries(r.sections)
      .filter(
        ([, s]) =>
          s.saturation.errors || s.saturation.non2xx || s.saturation.badAnswers || s.pacedRounds?.failed,
      )
      .map(([n]) => `${r.backend} ${n}`),
  );
  if (results.failures.length || problems.length) {
    if (problems.length) console.log(`errors or bad answers in: ${problems.join(', ')}`);
    process.exitCode = 1;
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
