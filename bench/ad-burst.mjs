// The ad burst's floors (issue 45, ADR 063), measured in one run on this machine and printed as JSON:
//   direct   one API instance (the built server, `node apps/server/dist/main.js`, as production runs it) beside bare
//            Fastify in the same run: cached h5Config and a channel's landing in answers/s and their ratio to bare
//            Fastify (floors 20 % and 15 %); the click report's p99 in a burst of 500 distinct visitors (< 50 ms).
//   nginx    deploy/nginx.conf (its micro-cache, ADR 062) in front of an instance on PostgreSQL + Redis, over TLS:
//            landing and h5Config against a static file of the same size served by the same nginx (floor 50 %).
// Every answer must be 200; any error or other status fails the run (exit 1).
//
//   node bench/ad-burst.mjs [--duration 10] [--connections 20] [--backend pglite|postgres] [--no-nginx]
//
// Needs the web build (`npm run build:ui`); builds the server first. The nginx part needs nginx (the topology
// test's, scripts/topology/nginx.mjs) and PostgreSQL + Redis on 127.0.0.1 (BENCH_DATABASE_URL, database `bench`,
// emptied; BENCH_REDIS_URL, keys under lmbench:burst:).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { makeCertificate, nginxTest, writeNginxConfig } from '../scripts/topology/nginx.mjs';
import { clearRedisKeys, prepareBackend } from './backend.mjs';
import { AD_BURST_REQUESTS, freePort, log, sleep, startChild, startHello, stopChild } from './lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_DIR = path.join(ROOT, 'apps/server');
// Its own database (emptied at the start of a run), never the tests'.
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const REDIS_PREFIX = 'lmbench:burst:';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
    backend: { type: 'string', default: 'pglite' },
    'no-nginx': { type: 'boolean', default: false },
  },
});
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const CLICK_BURST = 500;
const failures = [];

/** answers/s of `path` for DURATION s; every answer must be 200. */
async function rate(base, { path: p, headers = {} }, label) {
  const r = await autocannon({
    url: `${base}${p}`,
    headers,
    connections: CONNECTIONS,
    duration: DURATION,
    tlsOptions: { rejectUnauthorized: false },
  });
  const bad = r.errors + r.timeouts + r.non2xx;
  if (bad > 0) failures.push(`${label}: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx`);
  log(`${label}: ${Math.round(r.requests.average)} answers/s, p99 ${r.latency.p99} ms`);
  return Math.round(r.requests.average);
}

/** The built server on a free port; resolves once it is healthy. */
async function startApp(env) {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lm-burst-'));
  const base = `http://127.0.0.1:${port}`;
  const clean = { ...process.env };
  for (const k of ['DATABASE_URL', 'REDIS_URL', 'REDIS_KEY_PREFIX', 'PARTNER_SANDBOX_URL', 'NODE_ENV'])
    delete clean[k];
  // BENCH_SERVER_NODE_ARGS: node options for the server (e.g. `--trace-gc`, with BENCH_SERVER_OUTPUT=<file>).
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const proc = startChild(process.execPath, [...nodeArgs, 'dist/main.js'], {
    cwd: SERVER_DIR,
    env: {
      ...clean,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    },
  });
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline && !proc.hasExited()) {
    try {
      if ((await fetch(`${base}/readyz`)).status === 200) return { proc, base, port, dataDir };
    } catch {}
    await sleep(200);
  }
  throw new Error(`the server did not start:\n${proc.output()}`);
}

let n = 0;

/**
 * A burst of 500 distinct visitors (a fingerprint and an address each, as nginx names it) arriving within one
 * second — "hundreds of clicks a second" — each click sent at its own time over keep-alive connections (open loop:
 * a slow answer does not delay the next visitor). Each answer's time counts from when its visitor came.
 */
async function clickBurst(base, label, judged = true) {
  const stamp = Date.now().toString(36);
  const visitor = () => {
    const v = n++;
    return {
      path: `/api/reportAdChannelClick?adChannelCode=demo&fingerprint=v${stamp}x${v}`,
      headers: { 'x-forwarded-for': `10.${(v >> 16) & 255}.${(v >> 8) & 255}.${v & 255}` },
    };
  };
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const url = new URL(base);
  const one = ({ path: p, headers }) =>
    new Promise((resolve) => {
      const req = request({ host: url.hostname, port: url.port, path: p, headers, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      });
      req.on('error', () => resolve(0));
      req.end();
    });
  const started = performance.now();
  const latencies = [];
  const statuses = await Promise.all(
    Array.from({ length: CLICK_BURST }, async (_, i) => {
      const due = started + (i * 1000) / CLICK_BURST;
      await sleep(Math.max(0, due - performance.now()));
      const status = await one(visitor());
      latencies.push(performance.now() - due);
      return status;
    }),
  );
  agent.destroy();
  const bad = statuses.filter((s) => s !== 200).length;
  latencies.sort((a, b) => a - b);
  const at = (q) =>
    +latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)].toFixed(1);
  const burst = { p50: at(0.5), p99: at(0.99), max: at(1) };
  if (bad > 0) failures.push(`${label}: ${bad} answers not 200`);
  if (judged && burst.p99 >= 50) failures.push(`${label}: p99 ${burst.p99} ms (floor < 50 ms)`);
  log(
    `${label}: ${CLICK_BURST} visitors in 1 s: p50 ${burst.p50} ms, p99 ${burst.p99} ms, max ${burst.max} ms`,
  );
  return burst;
}

function floor(label, value, min) {
  if (!(value >= min)) failures.push(`${label}: ${value} (floor ${min})`);
  return value;
}

async function direct(results) {
  const pg = args.backend === 'postgres';
  if (pg) {
    prepareBackend('postgres', { pgUrl: PG_URL });
    clearRedisKeys(REDIS_PREFIX, REDIS_URL);
  }
  const hello = await startHello(ROOT);
  const app = await startApp({
    // Visitors' addresses as nginx would name them (the click limit is per address).
    TRUST_PROXY: '127.0.0.1',
    ...(pg
      ? { DATABASE_URL: PG_URL, REDIS_URL, REDIS_KEY_PREFIX: REDIS_PREFIX, DATABASE_POOL_SIZE: '10' }
      : {}),
  });
  try {
    // Warm: caches filled, code optimised.
    for (const req of Object.values(AD_BURST_REQUESTS)) {
      await autocannon({ url: `${app.base}${req.path}`, headers: req.headers, connections: 4, duration: 2 });
    }
    await autocannon({ url: hello.base, connections: 4, duration: 2 });
    const bare = await rate(hello.base, { path: '/' }, 'bare Fastify');
    const h5 = await rate(app.base, AD_BURST_REQUESTS.h5config, 'h5Config');
    const landing = await rate(app.base, AD_BURST_REQUESTS.landing, 'landing');
    results.direct = {
      backend: args.backend,
      bareFastify: bare,
      h5Config: h5,
      landing,
      h5ConfigRatio: floor('h5Config / bare', +(h5 / bare).toFixed(3), 0.2),
      landingRatio: floor('landing / bare', +(landing / bare).toFixed(3), 0.15),
      // A burst to warm the click path (its code optimised, the database's connections open), then the one measured.
      clicks: await clickBurst(app.base, 'warm-up burst', false).then(() =>
        clickBurst(app.base, `click burst of ${CLICK_BURST} (${args.backend})`),
      ),
    };
  } finally {
    await stopChild(hello.proc, 'hello');
    await stopChild(app.proc, 'app');
    rmSync(app.dataDir, { recursive: true, force: true });
  }
}

async function throughNginx(results) {
  prepareBackend('postgres', { pgUrl: PG_URL });
  clearRedisKeys(REDIS_PREFIX, REDIS_URL);
  const dir = mkdtempSync(path.join(tmpdir(), 'lm-burst-nginx-'));
  const app = await startApp({
    DATABASE_URL: PG_URL,
    REDIS_URL,
    REDIS_KEY_PREFIX: REDIS_PREFIX,
    DATABASE_POOL_SIZE: '10',
    TRUST_PROXY: '127.0.0.1',
  });
  let nginx = null;
  try {
    const { cert, key } = makeCertificate(dir);
    const [httpsPort, httpPort] = await Promise.all([freePort(), freePort()]);
    const conf = writeNginxConfig(dir, { cert, key, httpsPort, httpPort, apiPorts: [app.port] });
    // The static files nginx serves from its assets location: this run's own directory.
    const apps = path.join(dir, 'apps');
    mkdirSync(path.join(apps, 'web/dist/assets'), { recursive: true });
    const https = path.join(dir, 'loan-market/https.conf');
    writeFileSync(
      https,
      readFileSync(https, 'utf8').replace(/set \$lm_apps [^;]+;/, `set $lm_apps ${apps};`),
    );
    nginxTest(conf);
    nginx = startChild('nginx', ['-c', conf, '-g', 'daemon off;'], { cwd: dir });
    const base = `https://127.0.0.1:${httpsPort}`;
    for (let i = 0; i < 50; i++) {
      const ok = await fetchSize(base, '/api/user/health', {}).catch(() => 0);
      if (ok > 0) break;
      await sleep(200);
    }
    const out = {};
    for (const [name, req] of Object.entries({
      h5Config: AD_BURST_REQUESTS.h5config,
      landing: AD_BURST_REQUESTS.landing,
    })) {
      const size = await fetchSize(base, req.path, req.headers);
      writeFileSync(path.join(apps, `web/dist/assets/${name}.bin`), Buffer.alloc(size, 97));
      await autocannon({
        url: `${base}${req.path}`,
        headers: req.headers,
        connections: 4,
        duration: 2,
        tlsOptions: { rejectUnauthorized: false },
      });
      const cached = await rate(base, req, `${name} through nginx (${size} bytes)`);
      const file = await rate(
        base,
        { path: `/assets/${name}.bin` },
        `static file of ${size} bytes through nginx`,
      );
      out[name] = {
        bytes: size,
        answersPerSecond: cached,
        staticFile: file,
        ratio: floor(`${name} through nginx / static`, +(cached / file).toFixed(3), 0.5),
      };
    }
    results.nginx = out;
  } finally {
    if (nginx && !nginx.hasExited()) {
      nginx.child.kill('SIGQUIT');
      await Promise.race([nginx.exited, sleep(5000)]);
    }
    await stopChild(app.proc, 'app');
    rmSync(app.dataDir, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The body's size in bytes of one GET through nginx (its test certificate is not trusted: checked off). */
async function fetchSize(base, p, headers) {
  const { request } = await import('node:https');
  return new Promise((resolve, reject) => {
    const req = request(`${base}${p}`, { headers, rejectUnauthorized: false }, (res) => {
      let n = 0;
      res.on('data', (c) => {
        n += c.length;
      });
      res.on('end', () =>
        res.statusCode === 200 ? resolve(n) : reject(new Error(`${p}: ${res.statusCode}`)),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

execFileSync(process.execPath, [path.join(SERVER_DIR, 'scripts/build.mjs')], { stdio: ['ignore', 2, 2] });
const results = { at: new Date().toISOString(), duration: DURATION, connections: CONNECTIONS };
await direct(results);
if (!args['no-nginx']) await throughNginx(results);
results.failures = failures;
console.log(JSON.stringify(results, null, 2));
if (failures.length > 0) process.exitCode = 1;
