#!/usr/bin/env node

// Load test of the phone-login flow (send code, log in) against each database backend, plus a bare
// Fastify hello-world as the ceiling of this machine. See bench/README.md.
//
//   node bench/login.mjs [--only pglite|postgres|postgres+redis] [--duration 10] [--connections 10]
//                        [--logins N] [--skip-ceiling]
//
// For each backend: start apps/server as a child process (fresh temp DATA_DIR; for postgres a wiped
// schema; for redis the lm:* keys deleted), wait for /api/user/health, then
//   send   autocannon POST /api/login/sendPhoneVerifyCode, a new phone every request, --duration s
//   login  pre-generate N (phone, code) pairs, then autocannon POST /api/login, one pair per
//          request, `amount` = N
// and stop the server (SIGTERM, wait for exit). Results go to bench/results/login-<timestamp>.json.

import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { clearRedisKeys, otherPgSessions, prepareBackend } from './backend.mjs';
import { checkQuiet, log, nextPhone, startBenchServer, startHello, stopChild, warnings } from './lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_DIR = path.join(ROOT, 'apps/server');
const RESULTS_DIR = path.join(ROOT, 'bench/results');
// A database of its own, created if missing: the bench wipes its `public` schema before each run,
// which must not happen under a test suite working in the shared `test` database (see README).
const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/lm_bench';
// Limiter keys get a prefix of their own too, so clearing them leaves other users' lm:* keys alone.
const REDIS_PREFIX = 'lmbench:';
const REDIS_URL = 'redis://127.0.0.1:6379';
const BACKENDS = ['pglite', 'postgres', 'postgres+redis'];

const { values: args } = parseArgs({
  options: {
    only: { type: 'string' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    logins: { type: 'string' },
    'pg-url': { type: 'string', default: process.env.BENCH_DATABASE_URL || DEFAULT_PG_URL },
    'skip-ceiling': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (args.help) {
  console.log(
    'usage: node bench/login.mjs [--only pglite|postgres|postgres+redis] [--duration s] [--connections n] [--logins n] [--pg-url url] [--skip-ceiling]',
  );
  process.exit(0);
}
const PG_URL = args['pg-url'];
const PG_DB = new URL(PG_URL).pathname.slice(1);
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
// Login pairs: by default as many as the send run managed in --duration (so the login run lasts
// about as long), bounded to keep the pre-generation step short.
const LOGINS_FIXED = args.logins ? Number(args.logins) : undefined;
const LOGINS_MIN = 500;
const LOGINS_MAX = 4000;
const backends = args.only ? args.only.split(',') : BACKENDS;
for (const b of backends) {
  if (!BACKENDS.includes(b)) {
    console.error(`unknown backend ${b}; expected one of ${BACKENDS.join(', ')}`);
    process.exit(2);
  }
}
if (!(DURATION > 0) || !(CONNECTIONS > 0)) {
  console.error('--duration and --connections must be positive numbers');
  process.exit(2);
}

// ---------------------------------------------------------------------------------------------
// helpers

// (helpers shared with the other benchmarks: bench/lib.mjs)
async function postJson(base, url, body) {
  const res = await fetch(base + url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json().catch(() => null) };
}

/** Runs fn over items with at most `limit` in flight. */
async function pool(items, limit, fn) {
  const out = new Array(items.length);
  let i = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (i < items.length) {
        const k = i++;
        out[k] = await fn(items[k], k);
      }
    }),
  );
  return out;
}

// ---------------------------------------------------------------------------------------------
// server lifecycle

async function startServer(backend) {
  if (backend !== 'pglite') {
    const others = otherPgSessions(PG_URL);
    if (others.length) {
      log(
        `${backend}: WARNING: ${others.length} other session(s) in database ${PG_DB}; results may be disturbed:`,
      );
      warnings.push({ backend, otherPgSessions: others });
      for (const o of others) log(`  ${o}`);
    }
  }
  prepareBackend(backend, { pgUrl: PG_URL, redisPrefix: REDIS_PREFIX });
  return startBenchServer({
    serverDir: SERVER_DIR,
    label: backend,
    env: { SMS_IP_HOURLY_LIMIT: '100000000', SMS_DEVICE_HOURLY_LIMIT: '100000000' },
    ...(backend !== 'pglite' ? { pgUrl: PG_URL } : {}),
    ...(backend === 'postgres+redis' ? { redisUrl: REDIS_URL, redisPrefix: REDIS_PREFIX } : {}),
  });
}

// ---------------------------------------------------------------------------------------------
// autocannon

/**
 * Counts answers whose JSON envelope is not {code: 200} (keeping a few samples), and notes when the
 * last answer arrived: autocannon reports `duration` only at its 1-second ticks, which overstates
 * the length of a short `amount` run by up to a second. Create it just before the run.
 */
function envelopeChecker() {
  const state = { bad: 0, samples: {}, startedAt: performance.now(), lastAt: 0 };
  return {
    state,
    onResponse(status, body) {
      state.lastAt = performance.now();
      let code;
      let msg;
      try {
        const j = JSON.parse(body);
        code = j?.code;
        msg = j?.msg;
      } catch {
        code = 'unparseable';
      }
      if (code !== 200) {
        state.bad++;
        const key = `${status}/${code}: ${String(msg ?? body).slice(0, 80)}`;
        state.samples[key] = (state.samples[key] ?? 0) + 1;
      }
    },
  };
}

function runCannon(opts) {
  return new Promise((resolve, reject) => {
    const inst = autocannon({ connections: CONNECTIONS, ...opts }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
    // No progress bar: this is a script, its output is the table below.
    void inst;
  });
}

function summarize(name, result, env, extra = {}) {
  const total = result.requests.total;
  // Start of the run to its last answer; autocannon's own figure as a fallback.
  const seconds = env?.state.lastAt ? (env.state.lastAt - env.state.startedAt) / 1000 : result.duration;
  return {
    name,
    reqPerSec: Math.round((total / seconds) * 10) / 10,
    // autocannon's "Req/Sec avg": mean of its 1-second samples (the partial last second included).
    reqPerSecAutocannonMean: result.requests.average,
    autocannonDurationSec: result.duration,
    latencyMs: {
      mean: result.latency.mean,
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    total,
    durationSec: Math.round(seconds * 1000) / 1000,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    envelopeNot200: env ? env.state.bad : null,
    envelopeSamples: env ? env.state.samples : null,
    statusCodes: result.statusCodeStats,
    connections: result.connections,
    ...extra,
  };
}

async function benchSend(base) {
  const env = envelopeChecker();
  const result = await runCannon({
    url: base,
    duration: DURATION,
    requests: [
      {
        method: 'POST',
        path: '/api/login/sendPhoneVerifyCode',
        headers: { 'content-type': 'application/json' },
        setupRequest: (req) => ({ ...req, body: JSON.stringify({ phone: nextPhone() }) }),
        onResponse: env.onResponse,
      },
    ],
  });
  return summarize('send', result, env);
}

/** Sends codes to `n` new phones (modest concurrency) and reads each code from the dev outbox. */
async function pregenerate(base, n) {
  const phones = Array.from({ length: n }, () => nextPhone());
  const started = Date.now();
  const failures = [];
  const pairs = await pool(phones, 4, async (phone) => {
    const sent = await postJson(base, '/api/login/sendPhoneVerifyCode', { phone });
    if (sent.json?.code !== 200) {
      failures.push({ step: 'send', phone, status: sent.status, body: sent.json });
      return null;
    }
    const res = await fetch(`${base}/api/dev/sms-outbox?phone=${phone}`);
    const out = await res.json().catch(() => null);
    const code = out?.data?.[0]?.code;
    if (out?.code !== 200 || !code) {
      failures.push({ step: 'outbox', phone, status: res.status, body: out });
      return null;
    }
    return { phone, code };
  });
  return { pairs: pairs.filter(Boolean), failures, ms: Date.now() - started };
}

async function benchLogin(base, n) {
  // autocannon builds each connection's next request as soon as the previous answer arrives, so up
  // to `connections` extra pairs are drawn that are never sent: generate that many spare.
  const gen = await pregenerate(base, n + CONNECTIONS);
  if (gen.failures.length) {
    log(`pre-generation: ${gen.failures.length} failures, first: ${JSON.stringify(gen.failures[0])}`);
  }
  const amount = gen.pairs.length - CONNECTIONS;
  if (amount < CONNECTIONS) throw new Error(`pre-generation produced only ${gen.pairs.length} pairs`);
  let next = 0;
  const env = envelopeChecker();
  const result = await runCannon({
    url: base,
    amount,
    requests: [
      {
        method: 'POST',
        path: '/api/login',
        headers: { 'content-type': 'application/json' },
        setupRequest: (req) => {
          const pair = gen.pairs[next++];
          if (!pair) return null; // never reached: `amount` leaves `connections` spare
          return { ...req, body: JSON.stringify(pair) };
        },
        onResponse: env.onResponse,
      },
    ],
  });
  return summarize('login', result, env, {
    pregen: {
      pairs: gen.pairs.length,
      failures: gen.failures.length,
      ms: gen.ms,
      firstFailure: gen.failures[0] ?? null,
    },
  });
}

async function runBackend(backend) {
  const cpuBusyBeforePercent = await checkQuiet(backend);
  log(`${backend}: starting server`);
  const server = await startServer(backend);
  log(
    `${backend}: healthy after ${server.startupMs} ms on port ${server.port} (${JSON.stringify(server.health)})`,
  );
  const out = { backend, cpuBusyBeforePercent, startupMs: server.startupMs, health: server.health, runs: [] };
  try {
    // Warm-up (not recorded): JIT, connection pool, prepared paths.
    await runCannon({
      url: server.base,
      amount: 300,
      requests: [
        {
          method: 'POST',
          path: '/api/login/sendPhoneVerifyCode',
          headers: { 'content-type': 'application/json' },
          setupRequest: (req) => ({ ...req, body: JSON.stringify({ phone: nextPhone() }) }),
        },
      ],
    });
    log(`${backend}: send-code for ${DURATION} s at ${CONNECTIONS} connections`);
    const send = await benchSend(server.base);
    out.runs.push(send);
    const n =
      LOGINS_FIXED ?? Math.min(LOGINS_MAX, Math.max(LOGINS_MIN, Math.round(send.reqPerSec * DURATION)));
    log(`${backend}: pre-generating ${n} login codes`);
    const login = await benchLogin(server.base, n);
    log(`${backend}: login done (${login.total} requests; pre-generation took ${login.pregen.ms} ms)`);
    out.runs.push(login);
  } finally {
    const exit = await stopChild(server.proc, backend);
    out.exit = exit;
    if (exit.code !== 0) {
      log(
        `${backend}: server exit ${JSON.stringify(exit)}; tail of output:\n${server.proc.output().slice(-3000)}`,
      );
    }
    rmSync(server.dataDir, { recursive: true, force: true });
    if (backend === 'postgres+redis') clearRedisKeys(REDIS_PREFIX);
  }
  const serverErr = server.proc.output().trim();
  if (serverErr) out.serverOutputTail = serverErr.slice(-8000);
  return out;
}

// ---------------------------------------------------------------------------------------------
// ceiling: bare Fastify in a child process (so it does not share an event loop with autocannon)

async function runCeiling() {
  const cpuBusyBeforePercent = await checkQuiet('ceiling');
  const { proc, base } = await startHello(ROOT);
  const runs = [];
  try {
    await runCannon({ url: `${base}/`, amount: 2000 }); // warm-up
    log(`ceiling: GET / for ${DURATION} s`);
    const envGet = envelopeChecker();
    runs.push(
      summarize(
        'hello GET',
        await runCannon({
          url: base,
          duration: DURATION,
          requests: [{ method: 'GET', path: '/', onResponse: envGet.onResponse }],
        }),
        envGet,
      ),
    );
    log(`ceiling: POST /echo (JSON body) for ${DURATION} s`);
    const envPost = envelopeChecker();
    runs.push(
      summarize(
        'hello POST json',
        await runCannon({
          url: base,
          duration: DURATION,
          requests: [
            {
              method: 'POST',
              path: '/echo',
              headers: { 'content-type': 'application/json' },
              setupRequest: (req) => ({ ...req, body: JSON.stringify({ phone: nextPhone() }) }),
              onResponse: envPost.onResponse,
            },
          ],
        }),
        envPost,
      ),
    );
  } finally {
    await stopChild(proc, 'hello');
  }
  return { backend: 'fastify hello-world', cpuBusyBeforePercent, runs };
}

// ---------------------------------------------------------------------------------------------
// output

function table(rows) {
  const head = ['backend', 'call', 'req/s', 'p50 ms', 'p99 ms', 'total', 'non2xx', 'errors', 'code≠200'];
  const body = rows.map((r) => [
    r.backend,
    r.name,
    r.reqPerSec.toFixed(1),
    String(r.latencyMs.p50),
    String(r.latencyMs.p99),
    String(r.total),
    String(r.non2xx),
    String(r.errors), // autocannon counts timeouts among errors
    r.envelopeNot200 === null ? '-' : String(r.envelopeNot200),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const fmt = (cells) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [fmt(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(fmt)].join('\n');
}

function gitCommit() {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

async function main() {
  const startedAt = new Date();
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
      durationSec: DURATION,
      connections: CONNECTIONS,
      logins: LOGINS_FIXED ?? 'auto',
      backends,
      pgUrl: PG_URL,
      redisUrl: REDIS_URL,
      redisKeyPrefix: REDIS_PREFIX,
    },
    backends: [],
    failures: [],
  };

  for (const backend of backends) {
    try {
      results.backends.push(await runBackend(backend));
    } catch (err) {
      log(`${backend}: FAILED: ${err.stack ?? err}`);
      results.failures.push({ backend, error: String(err.stack ?? err) });
    }
  }
  if (!args['skip-ceiling']) {
    try {
      results.backends.push(await runCeiling());
    } catch (err) {
      log(`ceiling: FAILED: ${err.stack ?? err}`);
      results.failures.push({ backend: 'hello-world', error: String(err.stack ?? err) });
    }
  }
  results.finishedAt = new Date().toISOString();
  results.warnings = warnings;
  results.machine.loadAvgAtEnd = os.loadavg().map((x) => Math.round(x * 100) / 100);

  const rows = results.backends.flatMap((b) => b.runs.map((r) => ({ backend: b.backend, ...r })));
  console.log(
    `\nlogin bench: ${results.machine.cpus} cpus, node ${process.version}, ${CONNECTIONS} connections, ${DURATION} s per timed run\n`,
  );
  console.log(table(rows));
  console.log(
    `\nCPU busy just before each section (work by other processes; >20% skews the figures): ${results.backends
      .map((b) => `${b.backend} ${b.cpuBusyBeforePercent ?? '?'}%`)
      .join(', ')}`,
  );
  for (const r of rows) {
    if (r.envelopeSamples && Object.keys(r.envelopeSamples).length) {
      console.log(`\n${r.backend} ${r.name}: answers with code≠200:`, r.envelopeSamples);
    }
    if (r.pregen?.failures)
      console.log(
        `\n${r.backend} ${r.name}: pre-generation failures: ${r.pregen.failures}`,
        r.pregen.firstFailure,
      );
  }
  for (const b of results.backends) {
    if (b.exit && b.exit.code !== 0)
      console.log(`\n${b.backend}: server exited with ${JSON.stringify(b.exit)}`);
    if (b.serverOutputTail)
      console.log(
        `\n${b.backend}: server output (LOG_LEVEL=warn), last 1500 chars (full tail in JSON):\n${b.serverOutputTail.slice(-1500)}`,
      );
  }
  for (const f of results.failures) console.log(`\nFAILED ${f.backend}: ${f.error}`);

  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `login-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nresults: ${path.relative(ROOT, file)}  (${Math.round((Date.now() - startedAt) / 1000)} s)`);
  process.exitCode = results.failures.length ? 1 : 0;
}

await main();
