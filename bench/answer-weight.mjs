#!/usr/bin/env node
// What an answer's own weight costs on the hot path (issue 17.3). hot-path.mjs's goals compare the app with
// bare Fastify answering `{"code":200,"msg":"ok","data":{"hello":"world"}}` under 5 headers; the app's
// h5Config answer is 596 bytes of brotli under 13 headers (the security set, the request id, caching), and
// the landing 8.8 KB. Both the server and the load generator pay for every byte and header. This script
// separates that from the app's own work: bare Fastify replays the app's exact answers (status, headers and
// body captured from a running app server) and is measured next to its hello and next to the app, in
// alternating slices (hello, replay, app, hello, …) so that the machine's drifting speed cancels out.
//
//   node bench/answer-weight.mjs [--slices 6] [--slice-seconds 3] [--connections 30]
//
// Printed per answer: its size on the wire, replay ÷ hello (the answer's weight alone), app ÷ hello (what
// hot-path.mjs's goal measures) and app ÷ replay (the app's own work for the same bytes), each the median of
// the slices' ratios. The app runs on PGlite, LOG_LEVEL=warn, behind a trusted proxy, as in hot-path.mjs.

import { rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import {
  AD_BURST_REQUESTS,
  checkQuiet,
  keepAutocannonBodiesAsBytes,
  log,
  median,
  startBenchServer,
  startHello,
  stopChild,
} from './lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    slices: { type: 'string', default: '6' },
    'slice-seconds': { type: 'string', default: '3' },
    connections: { type: 'string', default: '30' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (args.help) {
  console.log('usage: node bench/answer-weight.mjs [--slices n] [--slice-seconds s] [--connections n]');
  process.exit(0);
}
const SLICES = Number(args.slices);
const SLICE_SECONDS = Number(args['slice-seconds']);
const CONNECTIONS = Number(args.connections);

// The answers, requested as a phone's browser does (the headers of hot-path.mjs's sections).
const ANSWERS = AD_BURST_REQUESTS;

// Bare Fastify (no plugins, no logger) with hello-world's route, and a route per captured answer that sends
// its status, headers and body as they were (set once by PUT before the runs).
const REPLAY_SRC = `
import Fastify from 'fastify';
const app = Fastify({ logger: false, bodyLimit: 1 << 20 });
const answers = new Map();
app.get('/', async () => ({ code: 200, msg: 'ok', data: { hello: 'world' } }));
app.put('/answer/:name', async (req) => {
  const { status, headers, body } = req.body;
  answers.set(req.params.name, { status, headers, body: Buffer.from(body, 'base64') });
  return { ok: true };
});
app.get('/replay/:name', (req, reply) => {
  const a = answers.get(req.params.name);
  reply.code(a.status).headers(a.headers).send(a.body);
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('ready');
`;

/** The raw answer (body still compressed) with the headers a replay may send as they are. */
function capture(base, { path: p, headers }) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${p}`, { headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const kept = {};
        // Node and Fastify write these themselves, as for every answer.
        const own = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
        for (const [k, v] of Object.entries(res.headers)) if (!own.has(k)) kept[k] = v;
        const body = Buffer.concat(chunks);
        // What goes on the wire: the status line and every header line (as sent), then the body.
        let head = `HTTP/1.1 ${res.statusCode} ${res.statusMessage}\r\n`;
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          head += `${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}\r\n`;
        resolve({
          status: res.statusCode,
          headers: kept,
          body,
          headerCount: res.rawHeaders.length / 2,
          wireBytes: Buffer.byteLength(`${head}\r\n`) + body.length,
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function run(url, headers, seconds) {
  return new Promise((resolve, reject) => {
    autocannon({ url, headers, connections: CONNECTIONS, duration: seconds }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

async function measure(url, headers, seconds = SLICE_SECONDS) {
  const r = await run(url, headers, seconds);
  if (r.non2xx || r.errors || r.timeouts)
    throw new Error(`${url}: ${r.non2xx} not 2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
  return r.requests.total / seconds;
}

const pct = (x) => `${(x * 100).toFixed(1)}%`;

async function main() {
  keepAutocannonBodiesAsBytes();
  await checkQuiet('answer-weight');
  const app = await startBenchServer({
    serverDir: path.join(ROOT, 'apps/server'),
    label: 'app',
    tmpPrefix: 'lm-bench-weight-',
    env: { TRUST_PROXY: '127.0.0.1' },
  });
  let replay;
  try {
    replay = await startHello(ROOT, REPLAY_SRC);
    const rbase = replay.base;
    const hello = await capture(rbase, { path: '/', headers: {} });
    const captured = {};
    for (const [name, spec] of Object.entries(ANSWERS)) {
      const a = await capture(app.base, spec);
      if (a.status !== 200) throw new Error(`${name}: the app answered ${a.status}`);
      captured[name] = a;
      const put = await fetch(`${rbase}/answer/${name}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ status: a.status, headers: a.headers, body: a.body.toString('base64') }),
      });
      if (!put.ok) throw new Error(`replay server refused ${name}: ${put.status}`);
      const again = await capture(rbase, { path: `/replay/${name}`, headers: spec.headers });
      if (!again.body.equals(a.body) || again.headerCount !== a.headerCount)
        throw new Error(`the replay of ${name} differs from the app's answer`);
    }
    log(`warming up (${CONNECTIONS} connections)`);
    await measure(`${rbase}/`, {}, 2);
    for (const [name, spec] of Object.entries(ANSWERS)) {
      await measure(`${rbase}/replay/${name}`, spec.headers, 2);
      await measure(`${app.base}${spec.path}`, spec.headers, 2);
    }

    const rows = {};
    for (const name of Object.keys(ANSWERS)) rows[name] = { replay: [], app: [], appToReplay: [] };
    for (let k = 0; k < SLICES; k++) {
      for (const [name, spec] of Object.entries(ANSWERS)) {
        const h0 = await measure(`${rbase}/`, {});
        const r = await measure(`${rbase}/replay/${name}`, spec.headers);
        const a = await measure(`${app.base}${spec.path}`, spec.headers);
        const h1 = await measure(`${rbase}/`, {});
        const h = (h0 + h1) / 2;
        rows[name].replay.push(r / h);
        rows[name].app.push(a / h);
        rows[name].appToReplay.push(a / r);
        log(
          `slice ${k + 1}/${SLICES} ${name}: hello ${Math.round(h0)}/${Math.round(h1)}, replay ${Math.round(r)}, app ${Math.round(a)} req/s`,
        );
      }
    }

    console.log('');
    console.log(
      `answer     headers  bytes on the wire  replay ÷ hello  app ÷ hello  app ÷ replay   (${CONNECTIONS} connections, median of ${SLICES} slices of ${SLICE_SECONDS} s)`,
    );
    console.log(
      `hello      ${String(hello.headerCount).padStart(7)}  ${String(hello.wireBytes).padStart(17)}`,
    );
    for (const [name, a] of Object.entries(captured)) {
      const r = rows[name];
      console.log(
        `${name.padEnd(9)}  ${String(a.headerCount).padStart(7)}  ${String(a.wireBytes).padStart(17)}  ${pct(median(r.replay)).padStart(14)}  ${pct(median(r.app)).padStart(11)}  ${pct(median(r.appToReplay)).padStart(12)}`,
      );
    }
  } finally {
    if (replay) await stopChild(replay.proc, 'replay');
    await stopChild(app.proc, 'app');
    rmSync(app.dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
