#!/usr/bin/env node
// Server CPU per request on the ad-burst hot path (issue 17.3): the server process's own CPU time
// (/proc/<pid>/stat, user + system; under each row, user space alone) over N requests of one endpoint, divided
// by N; under each row also the main thread alone (/proc/<pid>/task/<pid>/stat: the event loop's thread, which
// every request waits for; the embedded database runs on a thread of its own since ADR 047). Unlike req/s, this barely moves when other processes share the machine (they lengthen the run, not the
// server's work), so before/after checkouts can be compared on a busy machine. Checkouts and endpoints alternate.
//
//   node bench/cpu-per-request.mjs [--server-root checkout]... [--endpoints hello,h5config,landing,click-new,click-repeat]
//                                  [--requests 40000] [--rounds 2] [--pg-url url [--redis-url url]]
//
// Each server: PGlite in a fresh data directory, LOG_LEVEL=warn, behind a trusted proxy (TRUST_PROXY=127.0.0.1:
// the visitor's address is X-Forwarded-For). `hello` is bare Fastify (bench/lib.mjs startHello). Every endpoint
// is warmed up with 10 000 requests first; click-repeat's 1 000 visitors are all counted by then.
//
// With --pg-url (a bench database: its `public` schema is wiped before each server) the servers run on
// PostgreSQL, with --redis-url also on Redis (keys under `lmbench-cpu:`, deleted before each server). Then the
// CPU of the PostgreSQL backends connected to that database (pg_stat_activity, sampled before and after) and of
// redis-server (the whole process: other users of that Redis count too) are reported per request as well.

import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { AD_BURST_REQUESTS, adLandingPath, log, startBenchServer, startHello, stopChild } from './lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ENDPOINTS = ['hello', 'h5config', 'landing', 'click-new', 'click-repeat'];
const { values: args } = parseArgs({
  options: {
    'server-root': { type: 'string', multiple: true },
    endpoints: { type: 'string', default: ENDPOINTS.join(',') },
    requests: { type: 'string', default: '40000' },
    rounds: { type: 'string', default: '2' },
    'pg-url': { type: 'string' },
    'redis-url': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (args.help) {
  console.log(
    'usage: node bench/cpu-per-request.mjs [--server-root checkout]... [--endpoints list] [--requests n] [--rounds n] [--pg-url url [--redis-url url]]',
  );
  process.exit(0);
}
const roots = (args['server-root'] ?? [ROOT]).map((r) => path.resolve(r));
const endpoints = args.endpoints.split(',');
for (const e of endpoints) {
  if (!ENDPOINTS.includes(e)) {
    console.error(`unknown endpoint ${e}; expected some of ${ENDPOINTS.join(', ')}`);
    process.exit(2);
  }
}
const N = Number(args.requests);
const ROUNDS = Number(args.rounds);
const PG_URL = args['pg-url'];
const REDIS_URL = args['redis-url'];
const REDIS_PREFIX = 'lmbench-cpu:';
if (REDIS_URL && !PG_URL) {
  console.error('--redis-url goes with --pg-url');
  process.exit(2);
}

const psql = (url, sql) =>
  execFileSync('psql', [url, '-q', '-At', '-v', 'ON_ERROR_STOP=1', '-c', sql], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PGOPTIONS: '--client-min-messages=warning' },
  });
const PG_DB = PG_URL ? new URL(PG_URL).pathname.slice(1) : '';
function preparePostgres() {
  if (!/^[a-z_][a-z0-9_]*$/.test(PG_DB)) throw new Error(`unexpected database name ${PG_DB}`);
  if (PG_DB === 'test' || PG_DB === 'postgres') throw new Error(`refusing to wipe database ${PG_DB}`);
  const admin = new URL(PG_URL);
  admin.pathname = '/postgres';
  if (psql(admin.href, `select 1 from pg_database where datname = '${PG_DB}'`).trim() !== '1')
    psql(admin.href, `create database ${PG_DB}`);
  psql(PG_URL, 'drop schema public cascade; create schema public; drop schema if exists drizzle cascade;');
  if (REDIS_URL) {
    const u = new URL(REDIS_URL);
    const cli = `redis-cli -h ${u.hostname} -p ${u.port || 6379} -n ${u.pathname.slice(1) || 0}`;
    execFileSync('sh', [
      '-c',
      `${cli} --scan --pattern '${REDIS_PREFIX}*' | xargs -r -n 500 ${cli} del > /dev/null`,
    ]);
  }
}
/** The PostgreSQL backends serving the bench database (their pids; the server's pool keeps them open). */
const pgBackends = () =>
  psql(PG_URL, `select pid from pg_stat_activity where datname = '${PG_DB}' and pid <> pg_backend_pid()`)
    .split('\n')
    .filter(Boolean)
    .map(Number);
const redisPid = () => {
  try {
    return Number(execFileSync('pgrep', ['-o', 'redis-server'], { encoding: 'utf8' }).trim()) || null;
  } catch {
    return null;
  }
};

let counter = Math.floor(Math.random() * 1e9);
const visitor = (i) => ({
  path: `/api/reportAdChannelClick?adChannelCode=demo&fingerprint=cpu-${i.toString(36)}`,
  ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
});
const repeatBase = Math.floor(Math.random() * 1e9);
function requestOf(endpoint) {
  if (endpoint === 'hello') return { path: '/' };
  if (endpoint === 'h5config')
    return {
      path: '/api/adChannel/h5Config?adChannelCode=demo',
      headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
    };
  if (endpoint === 'landing')
    return {
      headers: { ...AD_BURST_REQUESTS.landing.headers },
      // Each visitor's ad link its own (a click id each).
      setupRequest: (req) => ({ ...req, path: adLandingPath(counter++) }),
    };
  return {
    setupRequest: (req) => {
      const v = visitor(endpoint === 'click-new' ? counter++ : repeatBase + (counter++ % 1000));
      return { ...req, path: v.path, headers: { ...req.headers, 'x-forwarded-for': v.ip } };
    },
  };
}

/** [user, system] CPU ticks of a process (/proc/<pid>/stat utime, stime). */
const cpuSplit = (pid) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return [Number(fields[11]), Number(fields[12])];
  } catch {
    return [0, 0]; // gone (a backend that closed meanwhile)
  }
};
/** CPU ticks of a process's main thread (the event loop's; its pid is the thread's id). */
const mainThreadTicks = (pid) => {
  try {
    const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
};
const cpuTicks = (pid) => {
  const [user, system] = cpuSplit(pid);
  return user + system;
};
const ticksOf = (pids) => new Map(pids.map((p) => [p, cpuTicks(p)]));
/** CPU ticks the pids of `after` used since `before` (a pid new since then counts from 0). */
const usedSince = (before, after) => {
  let t = 0;
  for (const [pid, ticks] of after) t += ticks - (before.get(pid) ?? 0);
  return t;
};
const TICK_US = 1e6 / 100; // USER_HZ

async function measure(root, endpoint) {
  const server =
    endpoint === 'hello'
      ? await startHello(path.join(root, 'apps/server'))
      : await (async () => {
          if (PG_URL) preparePostgres();
          return startBenchServer({
            serverDir: path.join(root, 'apps/server'),
            label: `cpu ${path.basename(root)}`,
            env: { TRUST_PROXY: '127.0.0.1' },
            ...(PG_URL ? { pgUrl: PG_URL } : {}),
            ...(REDIS_URL ? { redisUrl: REDIS_URL, redisPrefix: REDIS_PREFIX } : {}),
          });
        })();
  const services = PG_URL && endpoint !== 'hello';
  try {
    const { path: p = '/', headers, setupRequest } = requestOf(endpoint);
    const opts = {
      url: server.base,
      connections: 10,
      requests: [
        {
          method: 'GET',
          path: p,
          ...(headers ? { headers } : {}),
          ...(setupRequest ? { setupRequest } : {}),
        },
      ],
    };
    await autocannon({ ...opts, amount: 10_000 });
    const backends = services ? pgBackends() : [];
    const redis = services && REDIS_URL ? redisPid() : null;
    const pgBefore = ticksOf(backends);
    const redisBefore = redis ? cpuTicks(redis) : 0;
    const [userBefore, systemBefore] = cpuSplit(server.proc.child.pid);
    const mainBefore = mainThreadTicks(server.proc.child.pid);
    const started = Date.now();
    // The load generator's own CPU (this process: autocannon's requests and its parsing of the answers):
    // on a machine it shares with the server, what it spends per answer is taken from the server's share.
    const clientBefore = process.cpuUsage();
    const result = await autocannon({ ...opts, amount: N });
    const client = process.cpuUsage(clientBefore);
    const [userAfter, systemAfter] = cpuSplit(server.proc.child.pid);
    const mainTicks = mainThreadTicks(server.proc.child.pid) - mainBefore;
    const userTicks = userAfter - userBefore;
    const ticks = userTicks + systemAfter - systemBefore;
    const pgTicks = services ? usedSince(pgBefore, ticksOf([...new Set([...backends, ...pgBackends()])])) : 0;
    const redisTicks = redis ? cpuTicks(redis) - redisBefore : 0;
    const bad = result.non2xx + result.errors;
    return {
      us: (ticks * TICK_US) / N,
      // In user space (JavaScript, V8, Node's C++): what the host's state moves least (bench/README.md).
      userUs: (userTicks * TICK_US) / N,
      // The event loop's thread alone (the rest: the embedded database's thread of ADR 047, GC helpers, libuv).
      mainUs: (mainTicks * TICK_US) / N,
      pgUs: (pgTicks * TICK_US) / N,
      redisUs: (redisTicks * TICK_US) / N,
      clientUs: (client.user + client.system) / N,
      rps: Math.round((N * 1000) / (Date.now() - started)),
      bad,
    };
  } finally {
    await stopChild(server.proc, 'cpu');
    // The server's temporary data directory (bare Fastify has none).
    if (server.dataDir) rmSync(server.dataDir, { recursive: true, force: true });
  }
}

const rows = [];
for (let round = 1; round <= ROUNDS; round++) {
  for (const endpoint of endpoints) {
    // Alternate the order of the checkouts between rounds.
    const order = round % 2 === 1 ? roots : [...roots].reverse();
    for (const root of order) {
      if (endpoint === 'hello' && root !== roots[0]) continue; // bare Fastify is the same in every checkout
      const m = await measure(root, endpoint);
      const services =
        PG_URL && endpoint !== 'hello'
          ? ` + PostgreSQL ${m.pgUs.toFixed(1)} + Redis ${m.redisUs.toFixed(1)}`
          : '';
      log(
        `${path.basename(root)} ${endpoint}: ${m.us.toFixed(1)} µs CPU/request (user ${m.userUs.toFixed(1)}, system ${(m.us - m.userUs).toFixed(1)}; main thread ${m.mainUs.toFixed(1)})${services}; load generator ${m.clientUs.toFixed(1)} µs (${m.rps} req/s, ${m.bad} not 2xx)`,
      );
      rows.push({ round, root: path.basename(root), endpoint, ...m });
    }
  }
}

const meanOf = (list) => (list.length ? list.reduce((a, b) => a + b, 0) / list.length : null);
const helloRows = rows.filter((r) => r.endpoint === 'hello');
const helloUs = meanOf(helloRows.map((r) => r.us));
// User space alone (JavaScript, V8, Node's C++): the kernel's side of a request (its read and write system calls) is
// what this VM kind's states move most, and a larger share of bare Fastify's request than of the app's.
const helloUserUs = meanOf(helloRows.map((r) => r.userUs));
const shareOf = (bare, mean) => (bare ? `${((100 * bare) / mean).toFixed(1)} %` : '');
console.log(
  '\ncheckout        endpoint       µs CPU/request (each round)   mean   bare Fastify ÷ it   load generator µs (mean)',
);
for (const endpoint of endpoints) {
  for (const root of roots) {
    const mine = rows.filter((r) => r.endpoint === endpoint && r.root === path.basename(root));
    if (mine.length === 0) continue;
    const isHello = endpoint === 'hello';
    const mean = meanOf(mine.map((r) => r.us));
    const share = isHello ? '' : shareOf(helloUs, mean);
    const rounds = (f) =>
      mine
        .map((r) => f(r).toFixed(1))
        .join(' / ')
        .padEnd(29);
    console.log(
      `${path.basename(root).padEnd(15)} ${endpoint.padEnd(14)} ${rounds((r) => r.us)} ${mean.toFixed(1).padStart(6)}   ${share.padEnd(17)}   ${meanOf(mine.map((r) => r.clientUs)).toFixed(1)}`,
    );
    const userMean = meanOf(mine.map((r) => r.userUs));
    const userShare = isHello ? '' : shareOf(helloUserUs, userMean);
    console.log(
      `${''.padEnd(15)} ${'  user space'.padEnd(14)} ${rounds((r) => r.userUs)} ${userMean.toFixed(1).padStart(6)}   ${userShare}`,
    );
    const mainMean = meanOf(mine.map((r) => r.mainUs));
    console.log(
      `${''.padEnd(15)} ${'  main thread'.padEnd(14)} ${rounds((r) => r.mainUs)} ${mainMean.toFixed(1).padStart(6)}   ${isHello ? '' : shareOf(meanOf(helloRows.map((r) => r.mainUs)), mainMean)}`,
    );
    if (PG_URL && !isHello) {
      // The machine's CPU per request: the server, its database backends and Redis.
      const pgUs = meanOf(mine.map((r) => r.pgUs));
      const redisUs = meanOf(mine.map((r) => r.redisUs));
      const all = mean + pgUs + redisUs;
      const services = `  + PostgreSQL ${pgUs.toFixed(1)}, Redis ${redisUs.toFixed(1)}`;
      console.log(
        `${''.padEnd(15)} ${services.padEnd(45)} ${all.toFixed(1).padStart(6)}   ${shareOf(helloUs, all)} (all)`,
      );
    }
  }
}
if (rows.some((r) => r.bad > 0)) {
  console.error('some requests were not answered 2xx');
  process.exitCode = 1;
}
