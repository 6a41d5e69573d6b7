// The applicant journey of the load benchmarks and the topology test (bench/journey.mjs,
// scripts/topology-test.mjs): an HTTP client of one or more API instances and the five steps
// send → outbox → login → save → auth.

import http from 'node:http';
import https from 'node:https';
import { DEMO_FORM, nextPhone } from './lib.mjs';

export const STEPS = ['send', 'outbox', 'login', 'save', 'auth'];
/** Per-request timeout: a request slower than this counts as an error. */
const REQUEST_TIMEOUT_MS = 30_000;
// The application form: a Shenzhen employee who matches several demo lenders.
export const FORM = DEMO_FORM;

// ---------------------------------------------------------------------------------------------
// HTTP client: node:http with keep-alive sockets (lighter than fetch on these two shared cores)

/**
 * A client of one or more API instances: with several, the requests alternate between them (a
 * journey's login on one instance, its form on the next: sessions and limits must be shared).
 * `opts` (the topology test): `ca` (PEM) trusted for https:// bases, `localAddress` the client's own
 * address (one loopback address per visitor), `headers` sent with every request.
 */
export function makeClient(bases, opts = {}) {
  const targets = (Array.isArray(bases) ? bases : [bases]).map((b) => new URL(b));
  let next = 0;
  const tls = targets[0].protocol === 'https:';
  // Open-loop runs can have many journeys in flight: no socket limit (keep-alive sockets are reused).
  const agent = tls
    ? new https.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY, ca: opts.ca })
    : new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  /** Resolves {status, json, headers, ms}; never rejects (socket errors and timeouts give status 0). */
  function call(method, urlPath, body, token) {
    const { hostname, port } = targets[next];
    next = (next + 1) % targets.length;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers = { ...opts.headers };
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(payload);
    }
    if (token) headers.accessToken = token;
    const t0 = performance.now();
    return new Promise((resolve) => {
      let done = false;
      let resHeaders = {};
      const finish = (status, text, error) => {
        if (done) return;
        done = true;
        let json = null;
        if (text !== undefined) {
          try {
            json = JSON.parse(text);
          } catch {
            json = null;
          }
        }
        resolve({ status, json, text, error, headers: resHeaders, ms: performance.now() - t0 });
      };
      const options = { agent, hostname, port, method, path: urlPath, headers, timeout: REQUEST_TIMEOUT_MS };
      if (opts.localAddress) options.localAddress = opts.localAddress;
      const req = (tls ? https : http).request(options, (res) => {
        resHeaders = res.headers;
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => finish(res.statusCode, Buffer.concat(chunks).toString('utf8')));
        res.on('error', (err) => finish(0, undefined, String(err.code ?? err.message)));
      });
      req.on('timeout', () => {
        req.destroy(new Error('timeout'));
      });
      req.on('error', (err) => finish(0, undefined, String(err.code ?? err.message)));
      req.end(payload);
    });
  }
  return { call, close: () => agent.destroy() };
}

// ---------------------------------------------------------------------------------------------
// the journey

export class StepError extends Error {
  constructor(step, r) {
    const msg = r.error
      ? `socket: ${r.error}`
      : `${r.status}/${r.json?.code ?? 'unparseable'}: ${String(r.json?.msg ?? r.text ?? '').slice(0, 100)}`;
    super(`${step} ${msg}`);
    this.step = step;
    this.key = `${step} ${msg}`;
  }
}

/** Calls one step's endpoint; throws StepError unless the answer is HTTP 200 with {code: 200}. */
export async function call(client, ctx, name, method, url, body, token) {
  const r = await client.call(method, url, body, token);
  ctx.times[name] = r.ms;
  if (r.status !== 200 || r.json?.code !== 200) throw new StepError(name, r);
  return r.json.data;
}

/** The steps of a journey, in order; each reads and extends `ctx` (phone, code, token, offer ids). */
export const STEP_FNS = {
  send: async (client, ctx) => {
    await call(client, ctx, 'send', 'POST', '/api/login/sendPhoneVerifyCode', { phone: ctx.phone });
  },
  outbox: async (client, ctx) => {
    const out = await call(client, ctx, 'outbox', 'GET', `/api/dev/sms-outbox?phone=${ctx.phone}`);
    ctx.code = out?.[0]?.code;
    if (!ctx.code) throw new StepError('outbox', { status: 200, json: { code: 'no-code', msg: 'no code' } });
  },
  login: async (client, ctx) => {
    const data = await call(client, ctx, 'login', 'POST', '/api/login', { phone: ctx.phone, code: ctx.code });
    ctx.token = data?.token;
    if (!ctx.token)
      throw new StepError('login', { status: 200, json: { code: 'no-token', msg: 'no token' } });
  },
  save: async (client, ctx) => {
    const match = await call(client, ctx, 'save', 'POST', '/api/user/info/save', FORM, ctx.token);
    ctx.matchId = match?.matchId;
    ctx.applyStatus = match?.applyStatus ?? null;
    ctx.productIds =
      match?.id != null ? [match.id, ...(match.mayAuthProductList ?? []).map((p) => p.id)] : [];
  },
  // Consent to every offered lender; a match that offered nothing has no consent step.
  auth: async (client, ctx) => {
    if (ctx.productIds.length === 0) return;
    const body = { productIds: ctx.productIds, matchId: ctx.matchId };
    await call(client, ctx, 'auth', 'PUT', '/api/user/info/auth', body, ctx.token);
  },
};

export const newCtx = () => ({ phone: nextPhone(), times: {} });

/** One journey; returns its time and what the match offered. Throws StepError. */
export async function journey(client, ctx) {
  const t0 = performance.now();
  for (const name of STEPS) await STEP_FNS[name](client, ctx);
  return { ms: performance.now() - t0, offers: ctx.productIds.length, applyStatus: ctx.applyStatus };
}
