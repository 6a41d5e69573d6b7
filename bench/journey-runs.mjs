// Journeys under load (journey.mjs): closed loops, the open loop at a fixed start rate, the bare-Fastify ceiling,
// one step at a time, and the figures of a run (latency percentiles, CPU per journey).

import { call, FORM, journey, newCtx, STEP_FNS, STEPS, StepError } from './journey-steps.mjs';
import { sleep } from './lib.mjs';
import { cpuDelta, cpuSnapshot } from './probes.mjs';

export function newRunState() {
  return {
    started: 0,
    ok: 0,
    consented: 0,
    noOffer: 0,
    noOfferByApplyStatus: {},
    offersTotal: 0,
    errors: 0,
    errorsByStep: {},
    errorSamples: {},
    journeyMs: [],
    stepMs: Object.fromEntries(STEPS.map((s) => [s, []])),
  };
}

/** Runs one journey (`fn`: journey or helloJourney) and records it in `state`. */
export async function recordJourney(client, state, fn) {
  state.started++;
  const ctx = newCtx();
  try {
    const r = await fn(client, ctx);
    state.ok++;
    state.journeyMs.push(r.ms);
    state.offersTotal += r.offers;
    if (r.offers > 0) state.consented++;
    else {
      state.noOffer++;
      const k = String(r.applyStatus);
      state.noOfferByApplyStatus[k] = (state.noOfferByApplyStatus[k] ?? 0) + 1;
    }
  } catch (err) {
    if (!(err instanceof StepError)) throw err;
    state.errors++;
    state.errorsByStep[err.step] = (state.errorsByStep[err.step] ?? 0) + 1;
    state.errorSamples[err.key] = (state.errorSamples[err.key] ?? 0) + 1;
  }
  // Steps of failed journeys count too: the failing step's time is the error answer's.
  for (const [s, ms] of Object.entries(ctx.times)) state.stepMs[s].push(ms);
}

/**
 * Runs journeys with `connections` applicants in a closed loop (each starts its next journey when
 * the last one ends) until `until` (ms, performance.now()) or until `count` journeys have started.
 */
export async function runJourneys(client, { until, count, connections, fn = journey }) {
  const state = newRunState();
  const t0 = performance.now();
  let lastEnd = t0;
  const more = () => (count !== undefined ? state.started < count : performance.now() < until);
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (more()) {
        await recordJourney(client, state, fn);
        lastEnd = performance.now();
      }
    }),
  );
  state.seconds = (lastEnd - t0) / 1000;
  return state;
}

/**
 * Open loop: journeys start at a fixed `rate` per second for `seconds`, whether or not the earlier
 * ones have ended (as applicants arrive from ad channels), so a slow answer does not slow the
 * arrivals down and queueing shows in the latencies. Records the most journeys in flight at once.
 */
export async function runOpenLoop(client, { rate, seconds }) {
  const state = newRunState();
  const n = Math.max(1, Math.round(rate * seconds));
  const t0 = performance.now();
  let inFlight = 0;
  state.maxInFlight = 0;
  state.lateStarts = 0;
  const running = [];
  for (let i = 0; i < n; i++) {
    const wait = t0 + (i * 1000) / rate - performance.now();
    if (wait >= 1) await sleep(wait);
    else if (wait < -100) state.lateStarts++; // the load generator itself fell behind
    inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    running.push(
      recordJourney(client, state, journey).finally(() => {
        inFlight--;
      }),
    );
  }
  await Promise.all(running);
  state.seconds = (performance.now() - t0) / 1000;
  state.startSeconds = (n - 1) / rate;
  return state;
}

/**
 * The same five requests against the bare Fastify hello-world (`POST /echo` with each step's body,
 * `GET /` for the outbox read): what this machine, this client and HTTP alone allow, the ceiling of
 * journeys/s.
 */
export async function helloJourney(client, ctx) {
  const t0 = performance.now();
  const bodies = {
    send: { phone: ctx.phone },
    login: { phone: ctx.phone, code: '123456' },
    save: FORM,
    auth: { productIds: [1, 2, 3], matchId: 1 },
  };
  for (const name of STEPS) {
    if (name === 'outbox') await call(client, ctx, name, 'GET', '/');
    else await call(client, ctx, name, 'POST', '/echo', bodies[name]);
  }
  return { ms: performance.now() - t0, offers: 1, applyStatus: null };
}

/** Figures of one run (closed or open loop) with the CPU used over it. */
export function runFigures(s, cpu) {
  const perJourney = {};
  for (const k of ['client', 'server', 'serverSystem', 'postgres', 'redis', 'other']) {
    perJourney[k] = s.started ? Math.round(((cpu[k] * 1000) / s.started) * 100) / 100 : null;
  }
  return {
    journeysPerSec: Math.round((s.ok / s.seconds) * 10) / 10,
    started: s.started,
    ok: s.ok,
    errors: s.errors,
    consented: s.consented,
    noOffer: s.noOffer,
    noOfferByApplyStatus: s.noOfferByApplyStatus,
    offersPerConsentingJourney: s.consented ? Math.round((s.offersTotal / s.consented) * 100) / 100 : null,
    seconds: Math.round(s.seconds * 1000) / 1000,
    requestsPerSec: Math.round(Object.values(s.stepMs).reduce((a, v) => a + v.length, 0) / s.seconds),
    journeyMs: latency(s.journeyMs),
    stepMs: Object.fromEntries(STEPS.map((k) => [k, latency(s.stepMs[k])])),
    errorsByStep: s.errorsByStep,
    errorSamples: s.errorSamples,
    cpuSeconds: cpu,
    cpuMsPerJourney: perJourney,
  };
}

/** Runs fn over items with at most `limit` in flight. */
export async function pool(items, limit, fn) {
  let i = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (i < items.length) {
        const k = i++;
        await fn(items[k], k);
      }
    }),
  );
}

/**
 * N journeys run phase by phase (all sends, then all outbox reads, …): per step, the request rate
 * alone and the CPU time per request of each process. A journey that fails leaves the later phases.
 */
export async function runByStep(client, n, serverPid, connections) {
  const ctxs = Array.from({ length: n }, newCtx);
  const steps = {};
  for (const name of STEPS) {
    const items = ctxs.filter((c) => !c.failed && (name !== 'auth' || c.productIds.length > 0));
    const errorSamples = {};
    const times = [];
    const a = cpuSnapshot(serverPid);
    const t0 = performance.now();
    await pool(items, connections, async (c) => {
      try {
        await STEP_FNS[name](client, c);
      } catch (err) {
        if (!(err instanceof StepError)) throw err;
        c.failed = true;
        errorSamples[err.key] = (errorSamples[err.key] ?? 0) + 1;
      }
      times.push(c.times[name]);
    });
    const seconds = (performance.now() - t0) / 1000;
    const cpu = cpuDelta(a, cpuSnapshot(serverPid));
    const per = (k) => (items.length ? Math.round(((cpu[k] * 1000) / items.length) * 100) / 100 : null);
    steps[name] = {
      requests: items.length,
      errors: Object.values(errorSamples).reduce((x, y) => x + y, 0),
      errorSamples,
      seconds: Math.round(seconds * 1000) / 1000,
      reqPerSec: Math.round((items.length / seconds) * 10) / 10,
      latencyMs: latency(times),
      cpuMsPerRequest: {
        client: per('client'),
        server: per('server'),
        serverSystem: per('serverSystem'),
        postgres: per('postgres'),
        redis: per('redis'),
        other: per('other'),
      },
      busyPercent: cpu.busyPercent,
    };
  }
  return { journeys: n, steps };
}

export function pct(sorted, p) {
  if (sorted.length === 0) return null;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[i] * 10) / 10;
}

export function latency(values) {
  const s = Float64Array.from(values).sort();
  const mean = s.length ? s.reduce((a, b) => a + b, 0) / s.length : null;
  return {
    n: s.length,
    mean: mean === null ? null : Math.round(mean * 10) / 10,
    p50: pct(s, 50),
    p90: pct(s, 90),
    p95: pct(s, 95),
    p99: pct(s, 99),
    max: s.length ? Math.round(s[s.length - 1] * 10) / 10 : null,
  };
}
