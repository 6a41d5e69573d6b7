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

import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { clearRedisKeys, otherPgSessions, prepareBackend } from './backend.mjs';
import { f, gitCommit, printRamp, table } from './journey-report.mjs';
import { helloJourney, runByStep, runFigures, runJourneys, runOpenLoop } from './journey-runs.mjs';
import { makeClient, STEPS } from './journey-steps.mjs';
import { checkQuiet, log, startBenchServer, startHello, stopChild, warnings } from './lib.mjs';
import { cpuDelta, cpuSnapshot, monoUs, startPgSampler, summarizeProfile } from './probes.mjs';

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
      const w = await runJourneys(client, { count: WARMUP, connections: CONNECTIONS });
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
      const stopSampler = backend === 'pglite' ? null : await startPgSampler(PG_URL);
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
      const stopSampler = backend === 'pglite' ? null : await startPgSampler(PG_URL);
      const cpuA = cpuSnapshot(pids);
      out.window = { startUs: monoUs() };
      let s;
      let cpuB;
      try {
        s = await runJourneys(client, {
          until: performance.now() + DURATION * 1000,
          count: JOURNEYS,
          connections: CONNECTIONS,
        });
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
        out.byStep = await runByStep(client, BY_STEP, pids, CONNECTIONS);
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
    await runJourneys(client, { count: 500, fn: helloJourney, connections: CONNECTIONS }); // warm-up
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
  if (ramped.length)
    printRamp(ramped, results.ceiling, {
      duration: DURATION,
      instances: INSTANCES,
      loadFactor: LOAD_FACTOR,
      p99GoalMs: P99_GOAL_MS,
    });
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
