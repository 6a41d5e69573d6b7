import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leads } from '../src/db/schema.ts';
import { closeOpsServer, startOpsServer } from '../src/lib/ops-server.ts';
import { gracefulShutdown } from '../src/lib/shutdown.ts';
import { consentToApiOffers } from './fixtures.ts';
import {
  BACKEND,
  body,
  createTestApp,
  latestCode,
  loginAs,
  newIp,
  newPhone,
  sendCancellationCode,
  type TestContext,
} from './helpers.ts';
import { pointLendersAt } from './lenders.ts';
import { probe } from './server-process.ts';

/** A lender that records each lead's headers; while `hold` is set it keeps the answer back. */
class RecordingPartner {
  readonly received: { headers: IncomingHttpHeaders; key: string }[] = [];
  hold = false;
  private held: (() => void)[] = [];
  private waiters: (() => void)[] = [];
  private server: Server | null = null;

  get url() {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async start() {
    this.server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        this.received.push({ headers: req.headers, key: String(req.headers['idempotency-key']) });
        for (const w of this.waiters.splice(0)) w();
        const answer = () => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{"id":"ok"}');
        };
        if (this.hold) this.held.push(answer);
        else answer();
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
  }

  /** Resolves when the partner has received `n` leads in all. */
  receivedCount(n: number): Promise<void> {
    if (this.received.length >= n) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => (this.received.length >= n ? resolve() : this.waiters.push(check));
      this.waiters.push(check);
    });
  }

  release() {
    this.hold = false;
    for (const a of this.held.splice(0)) a();
  }

  async stop() {
    this.release();
    this.server?.closeAllConnections();
    await new Promise<void>((r) => this.server?.close(() => r()));
  }
}

const partner = new RecordingPartner();

const partnerEnv = () => ({
  DELIVERY_TIMEOUT_MS: '20000',
  PARTNER_SANDBOX: 'on',
  PARTNER_TEST_ORIGINS: partner.url,
});

beforeAll(async () => {
  await partner.start();
});
afterAll(async () => {
  await partner.stop();
});

describe(`metrics, health and request ids (${BACKEND})`, () => {
  let ctx: TestContext;
  let ops: Server;
  let opsUrl: string;
  beforeAll(async () => {
    ctx = await createTestApp({ env: partnerEnv() });
    await pointLendersAt(ctx.app, partner.url);
    ops = await startOpsServer(ctx.app, { host: '127.0.0.1', port: 0 });
    opsUrl = `http://127.0.0.1:${(ops.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    if (ops) await closeOpsServer(ops);
    await ctx?.close();
  });

  it('shows the request, business and process metrics after a journey', async () => {
    const phone = newPhone();
    const { token } = await loginAs(ctx.app, phone);
    // A second code within the minute: refused by the per-phone minute limit.
    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/login/sendPhoneVerifyCode',
      payload: { phone },
      headers: { 'x-forwarded-for': newIp() },
    });
    expect(body(again).code).toBe(429);
    const { offers, auth } = await consentToApiOffers(ctx.app, token);
    expect(auth.statusCode, auth.body).toBe(200);
    await ctx.app.services.delivery.drain();
    await ctx.app.inject({ url: '/api/no-such-route-here' });

    const res = await fetch(`${opsUrl}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    const value = (line: string) => {
      const hit = text.split('\n').find((l) => l.startsWith(`${line} `));
      return hit === undefined ? undefined : Number(hit.slice(line.length + 1));
    };
    expect(
      value('lm_http_request_duration_seconds_count{method="POST",route="/api/login",status="200"}'),
    ).toBe(1);
    expect(
      value('lm_http_request_duration_seconds_count{method="PUT",route="/api/user/info/auth",status="200"}'),
    ).toBe(1);
    expect(value('lm_http_request_duration_seconds_count{method="GET",route="unmatched",status="404"}')).toBe(
      1,
    );
    expect(text).not.toContain('no-such-route-here');
    expect(value('lm_sms_sends_total{provider="console",outcome="sent"}')).toBe(1);
    expect(value('lm_logins_total{kind="user",outcome="success"}')).toBe(1);
    expect(value('lm_rate_limit_refusals_total{limit="sms:phone:minute:login"}')).toBe(1);
    expect(value('lm_matches_total{outcome="offers"}')).toBe(1);
    expect(value('lm_consents_total{outcome="consented"}')).toBe(offers.length);
    const delivered = text
      .split('\n')
      .filter((l) => l.startsWith('lm_lead_deliveries_total{') && l.includes('outcome="delivered"'))
      .reduce((n, l) => n + Number(l.split(' ').pop()), 0);
    expect(delivered).toBe(offers.length);
    expect(value('lm_delivery_queue_depth')).toBe(0);
    expect(value('lm_delivery_queue_oldest_age_seconds')).toBe(0);
    expect(value('lm_redis_fallback')).toBe(0);
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
      '# TYPE nodejs_gc_duration_seconds histogram',
    ]) {
      expect(text).toContain(name);
    }
  });

  it('sends each lead with the id of the request that consented', async () => {
    const { token } = await loginAs(ctx.app);
    const before = partner.received.length;
    const { offers, auth } = await consentToApiOffers(ctx.app, token);
    expect(offers.length).toBeGreaterThan(0);
    const requestId = auth.headers['x-request-id'];
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    await ctx.app.services.delivery.drain();
    const mine = partner.received.slice(before);
    expect(mine).toHaveLength(offers.length);
    for (const r of mine) expect(r.headers['x-request-id']).toBe(requestId);
  });

  it("sends withdrawal and deletion notices with the id of the person's request", async () => {
    const { token, phone, uid } = await loginAs(ctx.app);
    const { offers } = await consentToApiOffers(ctx.app, token);
    expect(offers.length).toBeGreaterThan(1);
    await ctx.app.services.delivery.drain();
    const mine = await ctx.app.database.db
      .select({ partnerId: leads.partnerId, key: leads.idempotencyKey })
      .from(leads)
      .where(eq(leads.userId, uid));
    expect(mine.every((l) => partner.received.some((r) => r.key === l.key))).toBe(true);
    const [first] = mine;
    expect(first).toBeDefined();

    const before = partner.received.length;
    const withdraw = await ctx.app.inject({
      method: 'POST',
      url: '/api/user/data-sharing/withdraw',
      payload: { partnerId: first!.partnerId },
      headers: { accesstoken: token },
    });
    expect(body(withdraw).code).toBe(200);
    const withdrawId = withdraw.headers['x-request-id'];
    expect(withdrawId).toMatch(/^[0-9a-f-]{36}$/);
    await ctx.app.services.delivery.drain();
    const notices = partner.received.slice(before);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.headers['x-request-id']).toBe(withdrawId);

    expect(body(await sendCancellationCode(ctx.app, token)).code).toBe(200);
    const code = await latestCode(ctx.app, phone);
    const beforeCancel = partner.received.length;
    const cancel = await ctx.app.inject({
      method: 'POST',
      url: '/api/cancellation',
      payload: { code },
      headers: { accesstoken: token },
    });
    expect(body(cancel).code).toBe(200);
    const cancelId = cancel.headers['x-request-id'];
    expect(cancelId).not.toBe(withdrawId);
    await ctx.app.services.delivery.drain();
    const deletions = partner.received.slice(beforeCancel);
    // One deletion notice per lender that received data, the withdrawn one included.
    expect(deletions.length).toBe(new Set(mine.map((l) => l.partnerId)).size);
    for (const d of deletions) expect(d.headers['x-request-id']).toBe(cancelId);
  });

  it('answers /livez and /readyz there, 503 while draining; the public port has no /metrics', async () => {
    expect((await fetch(`${opsUrl}/livez`)).status).toBe(200);
    const ready = await fetch(`${opsUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, draining: false, db: 'ok' });
    ctx.app.draining = true;
    try {
      const draining = await fetch(`${opsUrl}/readyz`);
      expect(draining.status).toBe(503);
      expect(await draining.json()).toMatchObject({ ready: false, draining: true, db: 'ok' });
      expect((await fetch(`${opsUrl}/livez`)).status).toBe(200);
    } finally {
      ctx.app.draining = false;
    }
    expect((await fetch(`${opsUrl}/elsewhere`)).status).toBe(404);
    for (const url of ['/metrics', '/readyz', '/livez']) {
      const pub = await ctx.app.inject({ url });
      expect(pub.statusCode, url).toBe(404);
      expect(pub.body).not.toContain('lm_http_request');
    }
  });

  it('ignores an X-Request-Id that does not come from a trusted proxy', async () => {
    const res = await ctx.app.inject({
      url: '/api/user/health',
      headers: { 'x-request-id': 'chosen-by-client-1' },
      remoteAddress: '203.0.113.5',
    });
    expect(res.headers['x-request-id']).not.toBe('chosen-by-client-1');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe(`graceful shutdown (${BACKEND})`, () => {
  it('stops being ready at once, closes the listener after the delay, finishes the request in flight and leaves no lead claimed', async () => {
    let openGate: () => void = () => {};
    const gate = new Promise<void>((r) => {
      openGate = r;
    });
    let slowStarted: () => void = () => {};
    const started = new Promise<void>((r) => {
      slowStarted = r;
    });
    const slowRoute: FastifyPluginAsync = async (app) => {
      app.get('/api/test/slow', async () => {
        slowStarted();
        await gate;
        return { code: 0, msg: 'ok', data: 'finished' };
      });
    };
    const ctx = await createTestApp({
      plugins: [slowRoute],
      env: {
        ...partnerEnv(),
        DELIVERY_WORKER: 'inline',
        DELIVERY_POLL_MS: '50',
        SHUTDOWN_TIMEOUT_MS: '10000',
      },
    });
    const db = ctx.shared.database.db;
    let ops: Server | null = null;
    try {
      await pointLendersAt(ctx.app, partner.url);
      await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
      ops = await startOpsServer(ctx.app, { host: '127.0.0.1', port: 0 });
      const opsUrl = `http://127.0.0.1:${(ops.address() as AddressInfo).port}`;

      // A lead the inline worker is delivering while the lender keeps its answer back.
      partner.hold = true;
      const before = partner.received.length;
      const { token } = await loginAs(ctx.app);
      const { offers, auth } = await consentToApiOffers(ctx.app, token);
      expect(offers.length).toBeGreaterThan(0);
      const consentIds = body<{ consented: { consentId: number }[] }>(auth).data.consented.map(
        (c) => c.consentId,
      );
      await partner.receivedCount(before + 1);
      const claimed = await db
        .select({ id: leads.id, lockedUntil: leads.lockedUntil, attempts: leads.attempts })
        .from(leads)
        .where(inArray(leads.consentId, consentIds));
      expect(claimed.some((l) => l.lockedUntil !== null)).toBe(true);

      // A request in flight.
      const slow = fetch(`${base}/api/test/slow`);
      await started;

      const done = gracefulShutdown(ctx.app, { signal: 'test', delayMs: 3000, timeoutMs: 10_000 });
      const readyz = await fetch(`${opsUrl}/readyz`);
      expect(readyz.status, 'not ready at once').toBe(503);
      // During the delay the listener still takes connections and answers.
      expect((await fetch(`${base}/api/user/health`, { headers: { connection: 'close' } })).status).toBe(200);

      // After the delay, new connections are refused while the slow request is still open.
      const port = Number(new URL(base).port);
      let refused = await probe(port);
      for (const until = Date.now() + 20_000; refused !== 'ECONNREFUSED' && Date.now() < until; ) {
        await new Promise((r) => setTimeout(r, 50));
        refused = await probe(port);
      }
      expect(refused).toBe('ECONNREFUSED');

      openGate();
      const answer = await slow;
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ code: 0, msg: 'ok', data: 'finished' });

      // The lender never answers: the worker gives its claim back within the budget; a clean exit.
      expect(await done).toBe(true);
      const after = await db
        .select({ status: leads.status, lockedUntil: leads.lockedUntil, attempts: leads.attempts })
        .from(leads)
        .where(inArray(leads.consentId, consentIds));
      for (const l of after) {
        expect(l.status).toBe('pending');
        expect(l.lockedUntil, 'no lead stays claimed').toBeNull();
        expect(l.attempts, 'the interrupted attempt is not counted').toBe(0);
      }
    } finally {
      openGate();
      partner.release();
      if (ops) await closeOpsServer(ops);
      await ctx.close().catch(() => {});
    }
  }, 240_000);
});
