// The load of the topology test: journeys through nginx, each from a loopback address of its own, with a
// phone's retries (a dropped connection, 502, 503 or 504 is tried again).
import { makeClient, newCtx, STEP_FNS, STEPS, StepError } from '../../bench/journey-steps.mjs';
import { sleep } from '../../bench/lib.mjs';

export const RETRYABLE = (r) => r.status === 0 || r.status === 502 || r.status === 503 || r.status === 504;
export const upstreams = (r) =>
  String(r.headers?.['x-upstream'] ?? '')
    .split(/,\s*/)
    .filter(Boolean);

let visitorCounter = 0;
/** A loopback address of its own per journey: 127.1.0.1, 127.1.0.2, … (the kernel routes 127/8 to lo). */
export function nextVisitor() {
  const n = visitorCounter++;
  return `127.1.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`;
}

/**
 * A client of nginx for one journey, which retries as a phone would and records which instance
 * answered. `stats` collects retries, recoveries and answers per instance.
 */
export function phoneClient(base, ca, stats) {
  const visitor = nextVisitor();
  const inner = makeClient(base, { ca, localAddress: visitor });
  const ctxRef = { ctx: null };
  async function attempt(method, url, body, token) {
    const r = await inner.call(method, url, body, token);
    const ups = upstreams(r);
    const last = ups.at(-1);
    if (last) {
      stats.byInstance[last] = (stats.byInstance[last] ?? 0) + 1;
      stats.byPhase[stats.phase] ??= {};
      const phase = stats.byPhase[stats.phase];
      phase[last] = (phase[last] ?? 0) + 1;
    }
    if (ups.length > 1) stats.nginxRetried++;
    return r;
  }
  async function call(method, url, body, token) {
    let r = await attempt(method, url, body, token);
    let lost = false;
    for (let i = 1; RETRYABLE(r) && i <= 8; i++) {
      lost = true;
      stats.retries++;
      stats.retriesByPhase[stats.phase] = (stats.retriesByPhase[stats.phase] ?? 0) + 1;
      stats.retryCauses[`${r.status || r.error}`] = (stats.retryCauses[`${r.status || r.error}`] ?? 0) + 1;
      await sleep(300 * i);
      r = await attempt(method, url, body, token);
    }
    const ctx = ctxRef.ctx;
    const code = r.json?.code;
    // nginx itself may have sent a PUT again to the other instance (PUT counts as idempotent).
    const retriedByNginx = upstreams(r).length > 1;
    if (url === '/api/login/sendPhoneVerifyCode') {
      if (r.json?.code === 200) ctx.sentAt = Date.now();
      if (lost && r.status === 429 && String(r.json?.msg).includes('验证码已发送')) {
        // The earlier try counted against the phone's minute: it sent the code, or its instance died first.
        stats.recovered.send++;
        ctx.sentAt = Date.now() - 5_000;
        ctx.sendLost = { retryAfterS: Number(r.json?.data?.retryAfter ?? 60) };
        return { ...r, status: 200, json: { code: 200, msg: 'ok', data: null } };
      }
    }
    if (
      url.startsWith('/api/dev/sms-outbox') &&
      ctx.sendLost &&
      r.status === 200 &&
      !r.json?.data?.[0]?.code
    ) {
      // The lost send stored no code (its instance died after counting it): no SMS comes, so the person
      // waits out the minute and asks again.
      stats.recovered.resend = (stats.recovered.resend ?? 0) + 1;
      const { retryAfterS } = ctx.sendLost;
      ctx.sendLost = undefined;
      await sleep(retryAfterS * 1000 + 1000);
      const sent = await call('POST', '/api/login/sendPhoneVerifyCode', { phone: ctx.phone });
      if (sent.json?.code !== 200) return sent;
      return call(method, url, body, token);
    }
    if (url === '/api/login' && lost && code === 1002) {
      // The earlier try used the code: a new one after the one-minute wait, then log in.
      stats.recovered.login++;
      await sleep(Math.max(0, (ctx.sentAt ?? Date.now()) + 62_000 - Date.now()));
      const sent = await call('POST', '/api/login/sendPhoneVerifyCode', { phone: ctx.phone });
      if (sent.json?.code !== 200) return sent;
      const out = await call('GET', `/api/dev/sms-outbox?phone=${ctx.phone}`);
      const fresh = out.json?.data?.[0]?.code;
      return call('POST', '/api/login', { phone: ctx.phone, code: fresh }, token);
    }
    if (url === '/api/user/info/auth' && code === 1102 && (lost || retriedByNginx)) {
      // An earlier try recorded the consent (the offers are no longer open): checked in the database.
      stats.recovered.auth++;
      ctx.consentAnswerLost = true;
      return { ...r, status: 200, json: { code: 200, msg: 'ok', data: null } };
    }
    return r;
  }
  return {
    call,
    bind: (ctx) => {
      ctxRef.ctx = ctx;
    },
    close: () => inner.close(),
  };
}

export async function runLoad(base, ca, until, stats, connections) {
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < until()) {
        const client = phoneClient(base, ca, stats);
        const ctx = newCtx();
        client.bind(ctx);
        stats.started++;
        try {
          for (const name of STEPS) await STEP_FNS[name](client, ctx);
          stats.ok++;
          if (ctx.productIds.length) {
            stats.consented++;
            stats.consentedProducts += ctx.productIds.length;
          }
        } catch (err) {
          if (!(err instanceof StepError)) throw err;
          stats.failed++;
          stats.failures[err.key] = (stats.failures[err.key] ?? 0) + 1;
        } finally {
          client.close();
        }
      }
    }),
  );
}

// ---------------------------------------------------------------------------------------------
