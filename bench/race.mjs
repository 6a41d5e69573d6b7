#!/usr/bin/env node
// Before/after on a machine whose speed drifts (issue 17.3): two servers — this checkout's and another's — loaded
// at the same time, each by its own load generator process with the same connections, for a few seconds, several
// rounds. Both meet the same states of the machine in every round, so the ratio of their answers per second
// measures the change; run one after the other, the two figures would come from different states (this 2-vCPU VM
// has changed speed by 2× within a minute). Each server gets less than a whole core, so the absolute figures mean
// nothing; only the ratio does. `--self` races this checkout against itself: the method's own noise.
//
//   node bench/race.mjs --compare-root /tmp/before [--endpoint h5config|landing] [--rounds 6] [--seconds 6]
//                       [--connections 15] [--no-pin] [--that-env K=V]...
//   node bench/race.mjs --self                       # calibration: this checkout against itself
//   node bench/race.mjs --self --that-env LOG_LEVEL=info   # one setting's cost: the same code, the other server so
//   node bench/race.mjs --compare-root /tmp/before --env LOG_LEVEL=info   # a change, both servers so
//
// Both servers: PGlite in a fresh data directory, LOG_LEVEL=warn, behind a trusted proxy (as in hot-path.mjs); a
// compared checkout without a web build serves this one's. The request is a phone's: h5Config with Chrome's
// Accept-Encoding and a `platform_param` header, or the landing of channel demo-skin8 (brotli). The load
// generators keep answers' bodies as bytes (bench/lib.mjs keepAutocannonBodiesAsBytes).

import { existsSync, rmSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  AD_BURST_REQUESTS,
  adLandingPath,
  checkQuiet,
  LOADER_CPU,
  log,
  median,
  pinProcess,
  SERVER_CPU,
  startBenchServer,
  startChild,
  stopChild,
} from './lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    'compare-root': { type: 'string' },
    self: { type: 'boolean', default: false },
    endpoint: { type: 'string', default: 'h5config' },
    rounds: { type: 'string', default: '6' },
    seconds: { type: 'string', default: '6' },
    connections: { type: 'string', default: '15' },
    'no-pin': { type: 'boolean', default: false },
    'that-env': { type: 'string', multiple: true, default: [] },
    env: { type: 'string', multiple: true, default: [] },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
const USAGE =
  'usage: node bench/race.mjs (--compare-root checkout | --self) [--endpoint h5config|landing] [--rounds n] [--seconds s] [--connections n] [--no-pin] [--env K=V]... [--that-env K=V]...';
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!args.self === !args['compare-root']) {
  console.error(USAGE);
  process.exit(2);
}
// A phone's requests (bench/lib.mjs), h5Config with the `platform_param` header the H5 sends with a fingerprint.
const REQUESTS = {
  h5config: {
    path: AD_BURST_REQUESTS.h5config.path,
    headers: {
      ...AD_BURST_REQUESTS.h5config.headers,
      platform_param: JSON.stringify({ channel: 0, fingerprint: 'f3b2c1d0e9a8f7b6c5d4e3f2a1b0c9d8' }),
    },
  },
  // Every visitor's ad link its own (a click id each, bench/lib.mjs adLandingPath), cycled.
  landing: {
    ...AD_BURST_REQUESTS.landing,
    paths: Array.from({ length: 500 }, (_, i) => adLandingPath(i)),
  },
};
const request = REQUESTS[args.endpoint];
if (!request) {
  console.error(`unknown endpoint ${args.endpoint}; expected one of ${Object.keys(REQUESTS).join(', ')}`);
  process.exit(2);
}
const ROUNDS = Number(args.rounds);
const SECONDS = Number(args.seconds);
const CONNECTIONS = Number(args.connections);
const THAT_ROOT = args.self ? ROOT : path.resolve(args['compare-root']);
// Both servers on one CPU, both load generators on the other (every thread: `taskset -a`): each CPU then shares
// its time between two equal parties. Left to the scheduler, one server could share a CPU with a load generator
// and the other not, and the same code raced against itself came out 0.83–0.97 (2026-11-27).
// --that-env K=V: the other server's own settings (e.g. `--self --that-env LOG_LEVEL=info`: what request logs cost).
// --env K=V: both servers' settings (e.g. `--env LOG_LEVEL=info`: a change measured at the default level).
function envArgs(option) {
  return Object.fromEntries(
    args[option].map((kv) => {
      const i = kv.indexOf('=');
      if (i < 1) {
        console.error(`--${option} takes K=V, not ${kv}`);
        process.exit(2);
      }
      return [kv.slice(0, i), kv.slice(i + 1)];
    }),
  );
}
const BOTH_ENV = envArgs('env');
const THAT_ENV = envArgs('that-env');
const PIN = !args['no-pin'] && cpus().length >= 2;

// One load generator: autocannon in its own process (so that neither server's load waits for the other's in one
// event loop), bodies kept as bytes; prints the answers counted, non-2xx and errors as JSON.
const LOADER_SRC = `
import autocannon from 'autocannon';
import { keepAutocannonBodiesAsBytes } from ${JSON.stringify(pathToFileURL(path.join(ROOT, 'bench/lib.mjs')).href)};
keepAutocannonBodiesAsBytes();
const o = JSON.parse(process.env.RACE_LOAD);
// Both load generators start at the same moment, whichever process was ready first.
setTimeout(() => autocannon(o, (err, r) => {
  if (err) { console.error(err); process.exit(1); }
  console.log(JSON.stringify({ total: r.requests.total, non2xx: r.non2xx, errors: r.errors, timeouts: r.timeouts }));
}), Math.max(0, Number(process.env.RACE_START_AT) - Date.now()));
`;

async function load(base, seconds, startAt) {
  const argv = [process.execPath, '--input-type=module', '-e', LOADER_SRC];
  const proc = startChild(PIN ? 'taskset' : argv[0], PIN ? ['-c', LOADER_CPU, ...argv] : argv.slice(1), {
    cwd: ROOT,
    env: {
      ...process.env,
      RACE_START_AT: String(startAt),
      RACE_LOAD: JSON.stringify({
        url: `${base}${request.path}`,
        headers: request.headers,
        ...(request.paths ? { requests: request.paths.map((p) => ({ method: 'GET', path: p })) } : {}),
        connections: CONNECTIONS,
        duration: seconds,
      }),
    },
  });
  const exit = await proc.exited;
  const out = proc.output().trim().split('\n').pop() ?? '';
  if (exit.code !== 0) throw new Error(`load generator for ${base} failed: ${proc.output()}`);
  const r = JSON.parse(out);
  if (r.non2xx || r.errors || r.timeouts)
    throw new Error(
      `${base}${request.path}: ${r.non2xx} not 2xx, ${r.errors} errors, ${r.timeouts} timeouts`,
    );
  return r.total / seconds;
}

/** Both at once; `thisFirst` says whose load generator starts first (alternated round by round). */
async function race(a, b, seconds, thisFirst) {
  const [first, second] = thisFirst ? [a, b] : [b, a];
  // Time for both processes to start and import autocannon before the common start.
  const startAt = Date.now() + 1500;
  const p1 = load(first.base, seconds, startAt);
  const p2 = load(second.base, seconds, startAt);
  const [r1, r2] = await Promise.all([p1, p2]);
  return thisFirst ? [r1, r2] : [r2, r1];
}

async function main() {
  await checkQuiet('race');
  const thatDir = path.join(THAT_ROOT, 'apps/server');
  const builds = {};
  if (!existsSync(path.join(THAT_ROOT, 'apps/web/dist/index.html'))) {
    builds.WEB_DIST = path.join(ROOT, 'apps/web/dist');
    builds.ADMIN_DIST = path.join(ROOT, 'apps/admin/dist');
  }
  if (args.endpoint === 'landing' && !existsSync(path.join(ROOT, 'apps/web/dist/index.html')))
    throw new Error('the landing needs the web build: npm run build:ui');
  const common = { tmpPrefix: 'lm-bench-race-', env: { TRUST_PROXY: '127.0.0.1', ...BOTH_ENV } };
  const mine = await startBenchServer({
    ...common,
    serverDir: path.join(ROOT, 'apps/server'),
    label: 'this',
  });
  let theirs;
  try {
    theirs = await startBenchServer({
      ...common,
      serverDir: thatDir,
      label: 'that',
      env: { ...common.env, ...builds, ...THAT_ENV },
    });
    if (PIN) {
      for (const server of [mine, theirs]) pinProcess(server.proc.child.pid, SERVER_CPU);
    }
    log(
      `this: ${ROOT}; that: ${THAT_ROOT}; ${args.endpoint}, ${CONNECTIONS} connections each; ` +
        (PIN ? `servers on CPU ${SERVER_CPU}, load generators on CPU ${LOADER_CPU}` : 'not pinned'),
    );
    log('warming up (3 s, both at once)');
    await race(mine, theirs, 3, true);
    const ratios = [];
    for (let k = 0; k < ROUNDS; k++) {
      const [m, t] = await race(mine, theirs, SECONDS, k % 2 === 0);
      ratios.push(m / t);
      log(
        `round ${k + 1}/${ROUNDS}: this ${Math.round(m)} req/s, that ${Math.round(t)} req/s, this ÷ that ${(m / t).toFixed(3)}`,
      );
    }
    const sorted = [...ratios].sort((x, y) => x - y);
    console.log(
      `${args.endpoint}: this ÷ that ${ratios.map((r) => r.toFixed(3)).join(' ')} — median ${median(ratios).toFixed(3)} (min ${sorted[0].toFixed(3)}, max ${sorted[sorted.length - 1].toFixed(3)})`,
    );
  } finally {
    if (theirs) {
      await stopChild(theirs.proc, 'that');
      rmSync(theirs.dataDir, { recursive: true, force: true });
    }
    await stopChild(mine.proc, 'this');
    rmSync(mine.dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
