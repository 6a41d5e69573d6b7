#!/usr/bin/env node
// Server CPU per request on the ad-burst hot path (issue 17.3): the server process's own CPU time
// (/proc/<pid>/stat, user + system) over N requests of one endpoint, divided by N. Unlike req/s, this
// barely moves when other processes share the machine (they lengthen the run, not the server's work),
// so before/after checkouts can be compared on a busy machine. Checkouts and endpoints alternate.
//
//   node bench/cpu-per-request.mjs [--server-root checkout]... [--endpoints hello,h5config,landing,click-new,click-repeat]
//                                  [--requests 40000] [--rounds 2]
//
// Each server: PGlite in a fresh data directory, LOG_LEVEL=warn, behind a trusted proxy (TRUST_PROXY=127.0.0.1:
// the visitor's address is X-Forwarded-For). `hello` is bare Fastify (bench/lib.mjs startHello). Every endpoint
// is warmed up with 10 000 requests first; click-repeat's 1 000 visitors are all counted by then.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { log, startBenchServer, startHello, stopChild } from './lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ENDPOINTS = ['hello', 'h5config', 'landing', 'click-new', 'click-repeat'];
const { values: args } = parseArgs({
  options: {
    'server-root': { type: 'string', multiple: true },
    endpoints: { type: 'string', default: ENDPOINTS.join(',') },
    requests: { type: 'string', default: '40000' },
    rounds: { type: 'string', default: '2' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (args.help) {
  console.log(
    'usage: node bench/cpu-per-request.mjs [--server-root checkout]... [--endpoints list] [--requests n] [--rounds n]',
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
    return { path: '/?adChannelCode=demo-skin8', headers: { 'accept-encoding': 'br, gzip' } };
  return {
    setupRequest: (req) => {
      const v = visitor(endpoint === 'click-new' ? counter++ : repeatBase + (counter++ % 1000));
      return { ...req, path: v.path, headers: { ...req.headers, 'x-forwarded-for': v.ip } };
    },
  };
}

const cpuTicks = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
};
const TICK_US = 1e6 / 100; // USER_HZ

async function measure(root, endpoint) {
  const server =
    endpoint === 'hello'
      ? await startHello(path.join(root, 'apps/server'))
      : await startBenchServer({
          serverDir: path.join(root, 'apps/server'),
          label: `cpu ${path.basename(root)}`,
          env: { TRUST_PROXY: '127.0.0.1' },
        });
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
    const before = cpuTicks(server.proc.child.pid);
    const started = Date.now();
    const result = await autocannon({ ...opts, amount: N });
    const ticks = cpuTicks(server.proc.child.pid) - before;
    const bad = result.non2xx + result.errors;
    return { us: (ticks * TICK_US) / N, rps: Math.round((N * 1000) / (Date.now() - started)), bad };
  } finally {
    await stopChild(server.proc, 'cpu');
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
      log(
        `${path.basename(root)} ${endpoint}: ${m.us.toFixed(1)} µs CPU/request (${m.rps} req/s, ${m.bad} not 2xx)`,
      );
      rows.push({ round, root: path.basename(root), endpoint, ...m });
    }
  }
}

const hello = rows.filter((r) => r.endpoint === 'hello').map((r) => r.us);
const helloUs = hello.length ? hello.reduce((a, b) => a + b) / hello.length : null;
console.log('\ncheckout        endpoint       µs CPU/request (each round)   mean   bare Fastify ÷ it');
for (const endpoint of endpoints) {
  for (const root of roots) {
    const mine = rows.filter((r) => r.endpoint === endpoint && r.root === path.basename(root));
    if (mine.length === 0) continue;
    const mean = mine.reduce((a, r) => a + r.us, 0) / mine.length;
    const share = helloUs && endpoint !== 'hello' ? `${((100 * helloUs) / mean).toFixed(1)} %` : '';
    console.log(
      `${path.basename(root).padEnd(15)} ${endpoint.padEnd(14)} ${mine
        .map((r) => r.us.toFixed(1))
        .join(' / ')
        .padEnd(29)} ${mean.toFixed(1).padStart(6)}   ${share}`,
    );
  }
}
if (rows.some((r) => r.bad > 0)) {
  console.error('some requests were not answered 2xx');
  process.exitCode = 1;
}
