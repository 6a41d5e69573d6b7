// The server side of bench/pipeline-cost.mjs (run by it with `node --import tsx`, cwd apps/server): the real app
// (src/app.ts, as `npm start` builds it) on APP_PORT, and in the same process one Fastify instance per level on
// BASE_PORT + level, each adding one part of the app's per-request pipeline to the one before. Every instance
// answers GET /api/adChannel/h5Config with the app's own answer to a phone (captured from the app: status,
// headers, brotli body) without any other work, so what differs between two levels is that part alone. The parts
// are the app's own (its logger options and request logging, request id generator, security headers, validator
// compilers, route table), wired as app.ts wires them; a change there that this file does not follow makes the
// levels describe an older app, which is why the app itself is measured beside them.
//
// Prints one JSON line: {"ready":true,"levels":[…],"routes":n}.

import { request } from 'node:http';
import { h5ConfigWithPreviewQuery } from '@lm/shared/schemas/admin-channels';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config/env.ts';
import { loggerOptions } from '../apps/server/src/lib/logger.ts';
import { requestIdGenerator } from '../apps/server/src/lib/request-id.ts';
import metricsPlugin from '../apps/server/src/plugins/app/metrics.ts';
import { wellFormedCompiler } from '../apps/server/src/plugins/app/well-formed.ts';
import { API_HEADERS } from '../apps/server/src/plugins/external/security.ts';

const APP_PORT = Number(process.env.APP_PORT);
const BASE_PORT = Number(process.env.BASE_PORT);
const PATH = '/api/adChannel/h5Config';

const config = loadConfig();
const app = await buildApp({ config });
await app.listen({ port: APP_PORT, host: '127.0.0.1' });

/** The app's answer to a phone, as sent (body still brotli), without the headers Node writes itself. */
const answer = await new Promise((resolve, reject) => {
  const req = request(
    `http://127.0.0.1:${APP_PORT}${PATH}?adChannelCode=demo`,
    { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } },
    (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const own = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
        const headers = Object.fromEntries(Object.entries(res.headers).filter(([k]) => !own.has(k)));
        resolve({ status: res.statusCode, headers, body: Buffer.concat(chunks) });
      });
    },
  );
  req.on('error', reject);
  req.end();
});
if (answer.status !== 200 || answer.headers['content-encoding'] !== 'br')
  throw new Error(`the app answered ${answer.status} ${answer.headers['content-encoding']}`);

/** The app's routes (method, path), for the level with the app's route table: printRoutes' tree, flattened. */
const routes = [];
const stack = [];
for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
  const m = /^([│ ]*)[├└]── (\S+)(?: \(([^)]+)\))?/.exec(line);
  if (!m) continue;
  const depth = m[1].length / 4;
  const url = (depth > 0 ? stack[depth - 1] : '') + m[2];
  stack[depth] = url;
  for (const method of (m[3] ?? '').split(',').map((s) => s.trim()))
    if (method && method !== 'HEAD' && !(url === PATH && method === 'GET')) routes.push([method, url]);
}

// The answer's headers that the app's onRequest hooks set (app.ts: the request id; security.ts: API_HEADERS).
const HOOK_HEADERS = new Set(['x-request-id', ...Object.keys(API_HEADERS).map((k) => k.toLowerCase())]);
const discard = { write() {} };

/** Each level: its name and what it adds to the previous one. */
const LEVELS = [
  ['bare', 'bare Fastify sending the captured answer'],
  ['logger', "+ the app's logger at warn (loggerOptions)"],
  ['request-id', '+ trustProxy 127.0.0.1 and the request id generator (genReqId, a UUID)'],
  ['timeouts', '+ connectionTimeout and requestTimeout 30 s'],
  ['decorators', "+ routerOptions and the auth plugin's 4 request decorators"],
  ['hooks', '+ the two onRequest hooks (request id header; the 4 security headers) instead of sending them'],
  ['query-schema', '+ a querystring schema validated by a compiler that accepts anything'],
  ['zod', "+ that schema validated by zod (the route's h5ConfigWithPreviewQuery, fastify-type-provider-zod)"],
  ['well-formed', "+ wellFormedCompiler around it and the zod serializer compiler (app.ts's set-up)"],
  ['routes', "+ the app's other routes in the router"],
  ['metrics', "+ the app's metrics plugin (one onResponse hook observing prom-client's histogram)"],
];

async function level(n, port) {
  const has = (name) => LEVELS.findIndex(([l]) => l === name) <= n;
  const server = Fastify({
    ...(has('logger') ? { logger: { ...loggerOptions('warn'), stream: discard } } : { logger: false }),
    ...(has('request-id')
      ? { trustProxy: '127.0.0.1', genReqId: requestIdGenerator('127.0.0.1'), requestIdHeader: false }
      : {}),
    ...(has('timeouts') ? { connectionTimeout: 30_000, requestTimeout: 30_000 } : {}),
    ...(has('decorators') ? { routerOptions: { maxParamLength: 200 } } : {}),
  });
  if (has('metrics')) await server.register(metricsPlugin);
  if (has('decorators'))
    for (const d of ['user', 'sessionId', 'staffMember', 'staffSessionId']) server.decorateRequest(d, null);
  if (has('hooks')) {
    server.addHook('onRequest', (req, reply, done) => {
      reply.header('x-request-id', req.id);
      done();
    });
    server.addHook('onRequest', (_req, reply, done) => {
      reply.headers(API_HEADERS);
      done();
    });
  }
  if (has('well-formed')) {
    server.setValidatorCompiler(wellFormedCompiler(validatorCompiler));
    server.setSerializerCompiler(serializerCompiler);
  } else if (has('zod')) server.setValidatorCompiler(validatorCompiler);
  else if (has('query-schema')) server.setValidatorCompiler(() => (data) => ({ value: data }));
  const headers = has('hooks')
    ? Object.fromEntries(Object.entries(answer.headers).filter(([k]) => !HOOK_HEADERS.has(k)))
    : answer.headers;
  const options = has('query-schema') ? { schema: { querystring: h5ConfigWithPreviewQuery } } : {};
  server.get(PATH, options, (_req, reply) => {
    reply.code(200).headers(headers).send(answer.body);
  });
  if (has('routes'))
    for (const [method, url] of routes) server.route({ method, url, handler: async () => ({}) });
  await server.listen({ port, host: '127.0.0.1' });
  return server;
}

for (let n = 0; n < LEVELS.length; n++) await level(n, BASE_PORT + n);
console.log(JSON.stringify({ ready: true, levels: LEVELS, routes: routes.length }));
