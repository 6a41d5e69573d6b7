#!/usr/bin/env node
// What each part of the app's per-request pipeline costs on the h5Config answer (issue 17.3). One server process
// (bench/pipeline-cost-server.mjs) runs the real app and, beside it in the same process and heap, one Fastify
// instance per level, each adding one part of the app's pipeline to the previous level and sending the app's own
// captured h5Config answer. This process loads them in turn (autocannon, bodies kept as bytes, 30 connections),
// several rounds in alternating order, the server pinned to CPU 0 and this process to CPU 1 (bench/lib.mjs).
//
//   node bench/pipeline-cost.mjs [--rounds 15] [--seconds 1] [--connections 30]
//
// Printed per level: median req/s over the rounds, share of the bare level, and the step (this level ÷ the one
// before: below 1 is what the added part costs). The last line is the app itself (its real h5Config route). The
// run-to-run spread on the 2-vCPU bench VM is a few per cent per level; read steps smaller than that as noise.

import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import {
  checkQuiet,
  freePort,
  keepAutocannonBodiesAsBytes,
  LOADER_CPU,
  log,
  median,
  pinProcess,
  SERVER_CPU,
  sleep,
  startChild,
  stopChild,
} from './lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '15' },
    seconds: { type: 'string', default: '1' },
    connections: { type: 'string', default: '30' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (args.help) {
  console.log('usage: node bench/pipeline-cost.mjs [--rounds n] [--seconds s] [--connections n]');
  process.exit(0);
}
const ROUNDS = Number(args.rounds);
const SECONDS = Number(args.seconds);
const CONNECTIONS = Number(args.connections);
const HEADERS = { 'accept-encoding': 'gzip, deflate, br, zstd' };
const QUERY = '/api/adChannel/h5Config?adChannelCode=demo';

function run(url, seconds) {
  return new Promise((resolve, reject) =>
    autocannon({ url, headers: HEADERS, connections: CONNECTIONS, duration: seconds }, (err, r) => {
      if (err) return reject(err);
      if (r.non2xx || r.errors || r.timeouts)
        return reject(new Error(`${url}: ${r.non2xx} not 2xx, ${r.errors} errors, ${r.timeouts} timeouts`));
      resolve(r.requests.total / seconds);
    }),
  );
}

async function main() {
  if (cpus().length < 2) throw new Error('needs 2 CPUs: the server on one, the load generator on the other');
  keepAutocannonBodiesAsBytes();
  await checkQuiet('pipeline-cost');
  pinProcess(process.pid, LOADER_CPU);
  const appPort = await freePort();
  // Ten consecutive ports from a free one (the levels'); a taken one fails the start, loudly.
  const basePort = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lm-bench-pipeline-'));
  const proc = startChild(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'bench/pipeline-cost-server.mjs')],
    {
      cwd: path.join(ROOT, 'apps/server'),
      env: {
        ...process.env,
        NODE_ENV: 'development',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        METRICS_PORT: '0',
        TRUST_PROXY: '127.0.0.1',
        DELIVERY_WORKER: 'off',
        PORT: String(appPort),
        APP_PORT: String(appPort),
        BASE_PORT: String(basePort),
      },
    },
  );
  try {
    const deadline = Date.now() + 120_000;
    let ready = null;
    while (!ready) {
      const line = proc
        .output()
        .split('\n')
        .find((l) => l.startsWith('{"ready"'));
      if (line) ready = JSON.parse(line);
      else if (proc.hasExited() || Date.now() > deadline)
        throw new Error(`the pipeline server did not start:\n${proc.output()}`);
      else await sleep(200);
    }
    pinProcess(proc.child.pid, SERVER_CPU);
    const targets = ready.levels.map(([name, what], i) => ({
      name,
      what,
      url: `http://127.0.0.1:${basePort + i}${QUERY}`,
    }));
    targets.push({
      name: 'app',
      what: 'the app (its h5Config route)',
      url: `http://127.0.0.1:${appPort}${QUERY}`,
    });
    log(`${targets.length} servers (the app's router: ${ready.routes} other routes); warming up`);
    for (const t of targets) await run(t.url, 1);
    const got = new Map(targets.map((t) => [t.name, []]));
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 ? [...targets].reverse() : targets;
      for (const t of order) got.get(t.name).push(await run(t.url, SECONDS));
      log(`round ${r + 1}/${ROUNDS} done`);
    }
    const bare = median(got.get('bare'));
    let previous = null;
    console.log('level          req/s   ÷ bare   step    rounds (req/s)   — what it adds');
    for (const t of targets) {
      const m = median(got.get(t.name));
      const step = previous && t.name !== 'app' ? (m / previous).toFixed(3) : '';
      console.log(
        `${t.name.padEnd(13)} ${String(Math.round(m)).padStart(6)}  ${((m / bare) * 100).toFixed(1).padStart(5)} %  ${step.padStart(5)}   ${got
          .get(t.name)
          .map(Math.round)
          .join(' ')}   — ${t.what}`,
      );
      previous = m;
    }
  } finally {
    await stopChild(proc, 'pipeline server');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
