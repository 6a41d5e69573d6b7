import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { and, eq, inArray, notInArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadAttempts, leads, partners, products } from '../src/db/schema.ts';
import { DeliveryRepository } from '../src/modules/delivery/repository.ts';
import { DeliveryWorker } from '../src/modules/delivery/worker.ts';
import { DEMO_PARTNERS, DEMO_PRODUCTS } from '../src/modules/products/seed.ts';
import { deliveryConfig } from '../src/plugins/app/services.ts';
import { saveForm } from './fixtures.ts';
import { BACKEND, body, createTestApp, loginAs, type TestContext } from './helpers.ts';
import { LocalPartner } from './partner-server.ts';

/**
 * Several lenders at once under load (issue 8): one healthy, one slow (half the first tries are never
 * answered until we give up, though the lender keeps the lead), one flapping (503 on odd attempts), one dead
 * (always 500) and one unreachable (connection refused). Every applicant consents to all five; three
 * workers deliver concurrently. The healthy lender is not held back by the others, the slow and the
 * flapping ones end up with every lead exactly once, the dead and unreachable ones get exactly
 * DELIVERY_MAX_ATTEMPTS tries with backoff, then dead letters.
 */
const APPLICANTS = 40;
const TIMEOUT_MS = 2000;
const BASE_MS = 300;
const MAX_ATTEMPTS = 4;
/** The slow lender's prompt answers: well before the timeout (its late ones never come). */
const SLOW_PROMPT_MS = 50;
/** The lenders' lead endpoint path, unique to this run. */
const LEAD_PATH = `/${randomBytes(6).toString('hex')}/leads`;

const KINDS = ['healthy', 'slow', 'flapping', 'dead', 'refused'] as const;
type Kind = (typeof KINDS)[number];
const API_LINK_TYPES = new Set([2, 3, 6, 7, 9]);

/** One API-mode demo product of each of five different demo lenders, with the lender's behaviour. */
const PICKED = DEMO_PARTNERS.flatMap((p) => {
  const product = DEMO_PRODUCTS.find(
    (d) =>
      d.partnerCode === p.code &&
      API_LINK_TYPES.has(d.linkType) &&
      p.deliveryModes?.[String(d.linkType)] === 'api',
  );
  return product ? [{ partner: p, product }] : [];
})
  .slice(0, KINDS.length)
  .map((x, i) => ({ ...x, kind: KINDS[i]! }));

let ctx: TestContext;
const locals = new Map<Kind, LocalPartner>();
/** partner id → behaviour. */
const kindOfPartner = new Map<number, Kind>();

/**
 * The unreachable lender: port 1 on the loopback, below the ephemeral range (so a connection can
 * never meet itself or a port another test just freed). Checked to refuse connections.
 */
const REFUSED_URL = 'http://127.0.0.1:1/leads';
async function assertRefused(): Promise<void> {
  const code = await new Promise<string>((res) => {
    const socket = connect(1, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      res('connected');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => res(err.code ?? err.message));
  });
  expect(code, 'something listens on 127.0.0.1:1; the unreachable lender needs it closed').toBe(
    'ECONNREFUSED',
  );
}

beforeAll(async () => {
  expect(
    PICKED.map((p) => p.kind),
    'five demo lenders with an API-mode product',
  ).toEqual([...KINDS]);
  let lateTurn = 0;
  const scripts: Record<Exclude<Kind, 'refused'>, ConstructorParameters<typeof LocalPartner>[1]> = {
    healthy: () => ({ status: 200 }),
    // Every other lead's first try is held until we give up (the lender still takes the lead): a
    // timeout by construction, not by a race between its clock and ours.
    slow: (attempt) =>
      attempt === 1 && lateTurn++ % 2 === 0
        ? { holdStatus: 200 }
        : { hangMs: SLOW_PROMPT_MS, thenStatus: 200 },
    flapping: (attempt) => (attempt % 2 === 1 ? { status: 503 } : { status: 200 }),
    dead: () => ({ status: 500 }),
  };
  // The lenders start first: the app allows exactly their origins (and the closed port's).
  const endpoints = new Map<Kind, string>();
  for (const { partner, kind } of PICKED) {
    if (kind === 'refused') {
      await assertRefused();
      endpoints.set(kind, REFUSED_URL);
      continue;
    }
    // Only this run's path carries the lender's secret: a stray request from another process
    // that happens to reach the port is refused (401) before the script and is not this test's.
    const local = new LocalPartner(
      (path) => (path === LEAD_PATH ? partner.signingSecret! : 'not-this-test'),
      scripts[kind],
    );
    await local.start();
    locals.set(kind, local);
    endpoints.set(kind, `${local.url}${LEAD_PATH}`);
  }
  ctx = await createTestApp({
    env: {
      DELIVERY_TIMEOUT_MS: String(TIMEOUT_MS),
      DELIVERY_BACKOFF_BASE_MS: String(BASE_MS),
      DELIVERY_BACKOFF_MAX_MS: String(BASE_MS * 16),
      DELIVERY_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
      PARTNER_SANDBOX: 'off',
      // Every applicant is offered (and consents to) all five lenders.
      MATCH_MAX_LENDERS: String(KINDS.length),
      // The local lenders on the loopback: allowed by their exact origins (ADR 019).
      PARTNER_TEST_ORIGINS: [...endpoints.values()].map((e) => new URL(e).origin).join(','),
    },
  });
  const db = ctx.app.database.db;
  for (const { partner, product, kind } of PICKED) {
    const endpoint = endpoints.get(kind)!;
    const [row] = await db
      .update(partners)
      .set({ apiEndpoint: endpoint, dupCheckEndpoint: null })
      .where(eq(partners.code, partner.code))
      .returning({ id: partners.id });
    kindOfPartner.set(row!.id, kind);
    // The picked product takes everyone, at any hour, without caps.
    await db
      .update(products)
      .set({
        status: 'published',
        rules: {},
        activeHours: null,
        dailyCap: null,
        totalCap: null,
        amountMinFen: 100_000,
        amountMaxFen: 20_000_000,
        termMinMonths: 3,
        termMaxMonths: 36,
      })
      .where(eq(products.code, product.code));
  }
  // Only the picked products are offered.
  await db
    .update(products)
    .set({ status: 'paused' })
    .where(
      notInArray(
        products.code,
        PICKED.map((p) => p.product.code),
      ),
    );
  ctx.app.services.matching.invalidateCatalog();
});

afterAll(async () => {
  for (const local of locals.values()) await local.stop();
  await ctx?.close();
});

/** A person who consents to every offered lender; answers how many leads that made. */
async function consentingApplicant(): Promise<number> {
  const { token } = await loginAs(ctx.app);
  const { res, offers } = await saveForm(ctx.app, token);
  expect(res.statusCode, res.body).toBe(200);
  expect(offers.map((o) => o.linkType).filter((t) => !API_LINK_TYPES.has(t))).toEqual([]);
  expect(offers, 'every applicant is offered all five lenders').toHaveLength(KINDS.length);
  const auth = await ctx.app.inject({
    method: 'PUT',
    url: '/api/user/info/auth',
    payload: { productIds: offers.map((o) => o.id) },
    headers: { accesstoken: token },
  });
  expect(auth.statusCode, auth.body).toBe(200);
  return body<{ consented: { mode: string }[] }>(auth).data.consented.filter((c) => c.mode === 'api').length;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe(`five lenders at once: healthy, slow, flapping, dead, unreachable (${BACKEND})`, () => {
  it('retries with backoff, dead-letters after the limit, and the healthy lender is not held back', async () => {
    const db = ctx.app.database.db;
    const made = await Promise.all(Array.from({ length: APPLICANTS }, () => consentingApplicant()));
    expect(made).toEqual(Array(APPLICANTS).fill(KINDS.length));
    const all = await db.select().from(leads);
    expect(all).toHaveLength(APPLICANTS * KINDS.length);
    expect(all.filter((l) => l.status !== 'pending' || l.mode !== 'api')).toEqual([]);
    const ids = all.map((l) => l.id);

    // Three workers deliver concurrently until nothing is pending.
    const config = deliveryConfig(ctx.app.config);
    const workers = [
      ctx.app.services.delivery,
      ...[1, 2].map(
        () =>
          new DeliveryWorker({
            repo: new DeliveryRepository(db),
            ring: ctx.app.services.keys.ring,
            log: ctx.app.log,
            config,
            http: ctx.app.services.partnerHttp,
          }),
      ),
    ];
    let done = false;
    const pendingLeft = async () =>
      (
        await db
          .select({ id: leads.id })
          .from(leads)
          .where(and(inArray(leads.id, ids), eq(leads.status, 'pending')))
      ).length;
    await Promise.all(
      workers.map(async (w) => {
        while (!done) {
          if ((await w.runOnce()) > 0) continue;
          // Nothing due: done, or waiting out a backoff (the test's timeout guards against a hang).
          if ((await pendingLeft()) === 0) done = true;
          else await sleep(25);
        }
      }),
    );

    const rows = await db.select().from(leads).where(inArray(leads.id, ids));
    const attemptRows = await db
      .select()
      .from(leadAttempts)
      .where(inArray(leadAttempts.leadId, ids))
      .orderBy(leadAttempts.leadId, leadAttempts.attempt);
    const attemptsOf = (id: number) => attemptRows.filter((a) => a.leadId === id);
    const byKind = (kind: Kind) => rows.filter((l) => kindOfPartner.get(l.partnerId) === kind);
    for (const kind of KINDS) expect(byKind(kind), kind).toHaveLength(APPLICANTS);
    /** Requests for this test's leads (the lenders' ports are ordinary ports on a shared machine). */
    const keys = new Set(rows.map((l) => l.idempotencyKey));
    const ours = (local: LocalPartner) => local.requests.filter((r) => keys.has(r.key));

    // Every lead's attempts are recorded, numbered 1..n, n = the lead's attempt count.
    for (const lead of rows) {
      expect(attemptsOf(lead.id).map((a) => a.attempt)).toEqual(
        Array.from({ length: lead.attempts }, (_, i) => i + 1),
      );
    }
    // Every request any lender received was signed with its secret, under its lead's key.
    for (const local of locals.values()) {
      expect(ours(local).length).toBeGreaterThan(0);
      expect(ours(local).filter((r) => !r.signatureOk || r.body.leadId !== r.key)).toEqual([]);
    }
    /** Each lead was sent as many times as it was attempted, always under its own key. */
    const sentAsAttempted = (kind: Exclude<Kind, 'refused'>) => {
      const local = locals.get(kind)!;
      for (const lead of byKind(kind)) {
        expect(
          ours(local).filter((r) => r.key === lead.idempotencyKey),
          `${kind} lead ${lead.id}: ${JSON.stringify(attemptsOf(lead.id).map((a) => [a.outcome, a.httpStatus, a.error, a.durationMs]))}`,
        ).toHaveLength(lead.attempts);
      }
      expect(ours(local)).toHaveLength(byKind(kind).reduce((n, l) => n + l.attempts, 0));
    };

    // Healthy: every lead delivered on its first try, exactly once, before any lead of the dead
    // lenders reached the dead letters.
    const healthy = locals.get('healthy')!;
    for (const lead of byKind('healthy')) {
      expect(lead.status).toBe('delivered');
      expect(lead.attempts).toBe(1);
      expect(attemptsOf(lead.id).map((a) => [a.outcome, a.httpStatus])).toEqual([['delivered', 200]]);
    }
    sentAsAttempted('healthy');
    expect(healthy.accepted.size).toBe(APPLICANTS);
    expect(healthy.duplicates).toEqual([]);
    const firstDeadLetter = Math.min(
      ...attemptRows.filter((a) => a.outcome === 'dead').map((a) => a.startedAt.getTime()),
    );
    const lastHealthy = Math.max(...byKind('healthy').map((l) => l.deliveredAt!.getTime()));
    expect(lastHealthy).toBeLessThan(firstDeadLetter);

    // Flapping: 503 on odd tries, so every lead needed more than one and ended delivered.
    const flapping = locals.get('flapping')!;
    for (const lead of byKind('flapping')) {
      expect(lead.status).toBe('delivered');
      expect(lead.attempts).toBeGreaterThan(1);
      const tries = attemptsOf(lead.id);
      expect(tries[0]).toMatchObject({ outcome: 'retry', httpStatus: 503 });
      expect(tries.at(-1)).toMatchObject({ outcome: 'delivered', httpStatus: 200 });
      for (const t of tries.slice(0, -1)) expect(t.outcome).toBe('retry');
    }
    sentAsAttempted('flapping');
    expect(flapping.accepted.size).toBe(APPLICANTS);
    expect(flapping.duplicates).toEqual([]);

    // Slow: the leads held past the timeout were tried again and delivered; the lender, which had
    // already taken them, recognised the key: each lead taken once. Exactly the held ones timed out
    // (we closed each of their connections), every prompt answer came in time.
    const slow = locals.get('slow')!;
    const timedOut = byKind('slow').filter((l) => attemptsOf(l.id).some((a) => /超时/.test(a.error ?? '')));
    expect(timedOut.length, 'half the first tries were held past the timeout').toBe(APPLICANTS / 2);
    expect(
      slow.abandoned.filter((k) => keys.has(k)).sort(),
      'the held requests are the timed-out ones, each given up once',
    ).toEqual(timedOut.map((l) => l.idempotencyKey).sort());
    for (const lead of byKind('slow')) {
      expect(lead.status).toBe('delivered');
      expect(attemptsOf(lead.id).at(-1)).toMatchObject({ outcome: 'delivered', httpStatus: 200 });
    }
    for (const lead of timedOut) {
      expect(lead.attempts).toBeGreaterThan(1);
      expect(attemptsOf(lead.id)[0]).toMatchObject({ outcome: 'retry', httpStatus: null });
      expect(slow.duplicates).toContain(lead.idempotencyKey);
    }
    sentAsAttempted('slow');
    expect(slow.accepted.size).toBe(APPLICANTS);
    expect(new Set(slow.duplicates).size).toBe(new Set(timedOut.map((l) => l.idempotencyKey)).size);

    // Dead (500) and unreachable: exactly MAX_ATTEMPTS tries each, then the dead letters; the gap
    // before try k+1 is at least the backoff's lower bound base·2^(k-1)·(1 − jitter).
    for (const kind of ['dead', 'refused'] as const) {
      for (const lead of byKind(kind)) {
        expect(lead.status).toBe('dead');
        expect(lead.attempts).toBe(MAX_ATTEMPTS);
        const tries = attemptsOf(lead.id);
        expect(tries.map((a) => a.outcome)).toEqual([...Array(MAX_ATTEMPTS - 1).fill('retry'), 'dead']);
        for (const t of tries) {
          if (kind === 'dead') expect(t).toMatchObject({ httpStatus: 500, error: 'HTTP 500' });
          else expect(t).toMatchObject({ httpStatus: null, error: expect.stringMatching(/\S/) });
        }
        for (let k = 1; k < tries.length; k++) {
          const gap = tries[k]!.startedAt.getTime() - tries[k - 1]!.startedAt.getTime();
          expect(gap).toBeGreaterThanOrEqual(Math.floor(BASE_MS * 2 ** (k - 1) * (1 - config.jitter)));
        }
      }
    }
    sentAsAttempted('dead');
    expect(locals.get('dead')!.accepted.size).toBe(0);

    // Nothing more goes out once every lead is settled.
    const sent = [...locals.values()].reduce((n, l) => n + ours(l).length, 0);
    expect(await ctx.app.services.delivery.runOnce()).toBe(0);
    expect([...locals.values()].reduce((n, l) => n + ours(l).length, 0)).toBe(sent);

    // What happened, for the log of a run (figures in bench/README.md).
    const firstAt = Math.min(...attemptRows.map((a) => a.startedAt.getTime()));
    const summary = KINDS.map((kind) => {
      const ls = byKind(kind);
      const tries = ls.reduce((n, l) => n + l.attempts, 0);
      const ids = new Set(ls.map((l) => l.id));
      const settled = Math.max(
        ...attemptRows.filter((a) => ids.has(a.leadId)).map((a) => a.startedAt.getTime()),
      );
      return `${kind} ${ls.filter((l) => l.status === 'delivered').length} delivered / ${ls.filter((l) => l.status === 'dead').length} dead in ${tries} tries, last try at ${((settled - firstAt) / 1000).toFixed(1)} s`;
    });
    console.info(`partners-flapping (${BACKEND}): ${rows.length} leads; ${summary.join('; ')}`);
  }, 600_000); // a guard against a hang: 200 leads on PGlite took 175 s of wall time at load 22 on 2 cores
});
