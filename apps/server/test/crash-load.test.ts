import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { maskIdCard, maskName } from '@lm/shared/mask';
import type { DeliverySummaryData } from '@lm/shared/schemas/admin-leads';
import { APPLICATION_OPTION_CODES, type ApplicationForm } from '@lm/shared/schemas/application';
import type { MatchResultData, ProductOffer } from '@lm/shared/schemas/matching';
import { idCardCheckChar } from '@lm/shared/validators/id-card';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config/env.ts';
import { loadKeys } from '../src/config/keys.ts';
import { openDatabase } from '../src/db/client.ts';
import { applicationDrafts, leads, products } from '../src/db/schema.ts';
import { decryptField } from '../src/lib/crypto.ts';
import { DEMO_PARTNERS } from '../src/modules/products/seed.ts';
import { FORM } from './fixtures.ts';
import { BACKEND, newPhone, PG_URL, REDIS_URL } from './helpers.ts';
import { LocalPartner } from './partner-server.ts';
import { freePort, ServerProcess, scratchDatabase } from './server-process.ts';

/**
 * Issue 8 ("faults"): the real API process is SIGKILLed while virtual applicants run whole journeys
 * against it (code → login → form → consent), then restarted on the same data. No consented lead is
 * lost, none reaches the lender twice, no stored form is half written, and the restarted server
 * serves new journeys.
 */
const APPLICANTS = 8;
/** Journeys completed before the kill. */
const MIN_JOURNEYS_BEFORE_KILL = 6;
const SECRETS = new Map(DEMO_PARTNERS.map((p) => [p.code, p.signingSecret!]));
// Seeded endpoints: <partner url>/api/dev/partner-sandbox/<code>/leads
const secretOfPath = (path: string) => SECRETS.get(path.split('/')[4] ?? '') ?? 'unknown';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const HAN_DIGITS = '零一二三四五六七八九';
const han = (n: number) => [...String(n)].map((d) => HAN_DIGITS[Number(d)]).join('');

/** A valid ID number per journey (birth date and sequence vary, checksum computed). */
function idCardFor(n: number): string {
  const birth = new Date(Date.UTC(1982, 0, 1) + n * 41 * 86_400_000);
  const ymd = birth.toISOString().slice(0, 10).replaceAll('-', '');
  const first17 = `110101${ymd}${String(100 + (n % 900)).padStart(3, '0')}`;
  return first17 + idCardCheckChar(first17);
}

/**
 * A form that differs per journey: amount and job vary among the schema's codes, name, ID number and
 * work city (free text) carry the journey number, so a stored form names the journey it came from.
 */
function formFor(n: number): ApplicationForm {
  const limits = APPLICATION_OPTION_CODES.applyLimit;
  return {
    ...FORM,
    applyLimit: limits[n % limits.length]!,
    // Employees and the self-employed: both qualify for several demo lenders.
    job: n % 2 === 0 ? 1 : 2,
    realName: `压测${han(n)}`,
    identity: idCardFor(n),
    workCity: `测试${han(n)}市`,
  };
}

/** The form as GET /api/user/info/form/show answers it (name and ID number masked). */
const shown = (f: ApplicationForm) => ({
  ...f,
  realName: maskName(f.realName),
  identity: maskIdCard(f.identity),
});

/** Delivery mode of an offer, from the demo lender's link-type table (what a consent records). */
function modeOf(offer: ProductOffer): string {
  const lender = DEMO_PARTNERS.find((p) => p.legalName === offer.lender.legalName);
  if (!lender) throw new Error(`offer of an unknown lender: ${offer.lender.legalName}`);
  return lender.deliveryModes?.[String(offer.linkType)] ?? 'api';
}

type Step = 'send' | 'outbox' | 'login' | 'save' | 'auth';
interface Answer {
  http: number;
  code: number;
  msg: string;
  data: unknown;
}
/** One request of a journey: its answer, or why none came (`lost`). */
interface Call {
  journey: number;
  step: Step;
  answer?: Answer;
  lost?: string;
  settled: boolean;
}
interface Journey {
  n: number;
  phone: string;
  form: ApplicationForm;
  calls: Partial<Record<Step, Call>>;
  uid?: number;
  token?: string;
  /** Every offer of the save's answer (all are consented to). */
  offers?: ProductOffer[];
  consented?: { productId: string; consentId: number; mode: string }[];
  complete: boolean;
}
const ok = (c: Call | undefined) => c?.answer?.http === 200 && c.answer.code === 200;

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe(`kill -9 of the API under load (${BACKEND})`, () => {
  it('loses no consented lead, delivers none twice, writes no half form, and serves again', async () => {
    // The lender takes each lead when it decides, but its first answer per lead comes slowly:
    // deliveries are in flight when the server dies (a lead taken but not recorded is sent again).
    const partner = new LocalPartner(secretOfPath, (attempt) =>
      attempt === 1 ? { hangMs: 400, thenStatus: 200 } : { status: 200 },
    );
    await partner.start();
    cleanups.push(() => partner.stop());

    const dataDir = mkdtempSync(join(tmpdir(), 'lm-crash-load-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const scratch = PG_URL ? await scratchDatabase(PG_URL, 'lm_crashload') : null;
    if (scratch) cleanups.push(() => scratch.drop());
    const databaseUrl = scratch?.url;
    const redisPrefix = `lm:crashload:${randomBytes(4).toString('hex')}:`;
    const redisUrl = REDIS_URL;
    if (redisUrl) {
      cleanups.push(async () => {
        const redis = new Redis(redisUrl);
        const keys = await redis.keys(`${redisPrefix}*`);
        if (keys.length) await redis.del(...keys);
        redis.disconnect();
      });
    }

    const port = await freePort();
    const env: Record<string, string> = {
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...(REDIS_URL ? { REDIS_URL, REDIS_KEY_PREFIX: redisPrefix } : {}),
      PARTNER_SANDBOX: 'on',
      PARTNER_SANDBOX_URL: partner.url,
      // Every applicant comes from 127.0.0.1 with the same client.
      SMS_IP_HOURLY_LIMIT: '100000',
      SMS_DEVICE_HOURLY_LIMIT: '100000',
      DELIVERY_POLL_MS: '50',
      DELIVERY_TIMEOUT_MS: '5000',
      DELIVERY_BACKOFF_BASE_MS: '50',
      DELIVERY_BACKOFF_MAX_MS: '200',
      DELIVERY_LEASE_MS: '1500',
      WEB_DIST: join(dataDir, 'no-web'),
      ADMIN_DIST: join(dataDir, 'no-admin'),
    };

    // A console viewer (to watch the delivery queue over HTTP): created on the same data before the
    // first start, which also migrates and seeds it.
    const staff = { phone: newPhone(), password: 'crash-load viewer password' };
    {
      const app = await buildApp({
        config: loadConfig({ ...env, LOG_LEVEL: 'silent' }),
        logger: false,
        serveStatic: false,
      });
      await app.services.staff.create({ ...staff, name: '压测观察员', role: 'viewer' });
      await app.close();
    }

    // The server's settings are exactly `env` (a database or keys set in the shell would mislead it).
    const server = new ServerProcess(`http://127.0.0.1:${port}`, env);
    const { url } = server;
    const start = () => server.start();
    const stop = (signal: 'SIGKILL' | 'SIGTERM') => server.stop(signal);
    const logs = server.logs;
    cleanups.push(() => {
      if (server.running) server.child!.kill('SIGKILL');
    });

    // ---- The load: virtual applicants, each running whole journeys in a loop. ----
    const journeys: Journey[] = [];
    const calls: Call[] = [];
    let journeyNo = 0;
    const newJourney = (): Journey => {
      const n = ++journeyNo;
      const j: Journey = { n, phone: newPhone(), form: formFor(n), calls: {}, complete: false };
      journeys.push(j);
      return j;
    };
    const request = async (j: Journey, step: Step, method: string, path: string, payload?: unknown) => {
      const c: Call = { journey: j.n, step, settled: false };
      j.calls[step] = c;
      calls.push(c);
      try {
        const res = await fetch(`${url}${path}`, {
          method,
          headers: { 'content-type': 'application/json', ...(j.token ? { accesstoken: j.token } : {}) },
          ...(payload !== undefined ? { body: JSON.stringify(payload) } : {}),
        });
        const text = await res.text();
        let envelope: { code: number; msg: string; data: unknown };
        try {
          envelope = JSON.parse(text) as typeof envelope;
        } catch {
          envelope = { code: -1, msg: text.slice(0, 200), data: null };
        }
        c.answer = { http: res.status, ...envelope };
      } catch (err) {
        const e = err as Error & { cause?: { code?: string; message?: string } };
        c.lost = `${e.message}${e.cause ? ` (${e.cause.code ?? e.cause.message})` : ''}`;
      }
      c.settled = true;
      return c;
    };
    /** Runs one journey until it completes, a step gets no good answer, or `halted()`. */
    const runJourney = async (j: Journey, halted: () => boolean): Promise<boolean> => {
      if (
        halted() ||
        !ok(await request(j, 'send', 'POST', '/api/login/sendPhoneVerifyCode', { phone: j.phone }))
      )
        return false;
      if (halted()) return false;
      const outbox = await request(j, 'outbox', 'GET', `/api/dev/sms-outbox?phone=${j.phone}`);
      const code = ok(outbox) ? (outbox.answer!.data as { code: string }[])[0]?.code : undefined;
      if (!code || halted()) return false;
      const login = await request(j, 'login', 'POST', '/api/login', { phone: j.phone, code });
      if (!ok(login)) return false;
      const session = login.answer!.data as { token: string; loginUser: { uid: number } };
      j.token = session.token;
      j.uid = session.loginUser.uid;
      if (halted()) return false;
      const save = await request(j, 'save', 'POST', '/api/user/info/save', j.form);
      if (!ok(save)) return false;
      const match = save.answer!.data as MatchResultData;
      j.offers = [match, ...match.mayAuthProductList].filter((o): o is ProductOffer => Boolean(o.id));
      if (j.offers.length > 0) {
        if (halted()) return false;
        const auth = await request(j, 'auth', 'PUT', '/api/user/info/auth', {
          productIds: j.offers.map((o) => o.id),
        });
        if (!ok(auth)) return false;
        j.consented = (auth.answer!.data as { consented: Journey['consented'] }).consented;
      }
      j.complete = true;
      return true;
    };

    await start();
    let stopping = false;
    const applicants = Array.from({ length: APPLICANTS }, async () => {
      while (!stopping) {
        if (!(await runJourney(newJourney(), () => stopping))) return;
      }
    });
    let finished = 0;
    for (const a of applicants) void a.then(() => finished++);

    // Kill once enough journeys completed and the delivery worker has begun sending their leads, at a
    // moment when many requests — among them a form save and a consent — are waiting for their answer.
    // (The worker polls on its own clock: on a busy machine the first consents can commit well before
    // its first send, so a kill right after them would find no delivery in flight.)
    const inFlight = () => calls.filter((c) => !c.settled);
    const killBy = Date.now() + 40_000;
    for (;;) {
      const pending = inFlight();
      const steps = new Set(pending.map((c) => c.step));
      const done = journeys.filter((j) => j.complete).length;
      if (finished > 0 || Date.now() > killBy) break;
      if (
        done >= MIN_JOURNEYS_BEFORE_KILL &&
        partner.requests.length > 0 &&
        pending.length >= 5 &&
        steps.has('save') &&
        steps.has('auth')
      )
        break;
      await sleep(2);
    }
    stopping = true;
    const pendingAtKill = inFlight().map((c) => `${c.journey}:${c.step}`);
    const completedBeforeKill = journeys.filter((j) => j.complete).length;
    const deliveriesBeforeKill = partner.requests.length;
    await stop('SIGKILL');
    await Promise.all(applicants);

    const report = () =>
      JSON.stringify({ pendingAtKill, completedBeforeKill, journeys: journeys.length, calls: calls.length });
    // Before the kill every request was answered, and answered well.
    const bad = calls.filter((c) => c.answer && !ok(c)).map((c) => ({ ...c.answer, step: c.step }));
    expect(bad, logs.join('')).toEqual([]);
    expect(calls.every((c) => c.settled)).toBe(true);
    expect(completedBeforeKill, report()).toBeGreaterThanOrEqual(5);
    expect(pendingAtKill.length, report()).toBeGreaterThanOrEqual(3);
    // The kill took the answers of requests in flight. Not of all of them that looked pending here: an
    // answer the server wrote just before the kill can still sit unread in this process's socket (seen:
    // 8 pending at the kill, 6 of them answered), so at least one, not a share.
    const lost = calls.filter((c) => c.lost);
    expect(lost.length, report()).toBeGreaterThanOrEqual(1);
    expect(deliveriesBeforeKill, 'the delivery worker had started sending').toBeGreaterThan(0);

    await start();

    // ---- After the restart: the sessions survived; what each person has on record. ----
    const asPerson = async <T>(j: Journey, path: string): Promise<T> => {
      const res = await fetch(`${url}${path}`, { headers: { accesstoken: j.token! } });
      const envelope = (await res.json()) as { code: number; msg: string; data: T };
      expect(envelope.code, `${path} for journey ${j.n}: ${envelope.msg}`).toBe(200);
      return envelope.data;
    };
    const committed = new Set<number>();
    const shownForms = new Map<number, unknown>();
    for (const j of journeys.filter((x) => x.token)) {
      const status = await asPerson<{ userInfoStatus: number }>(j, '/api/user/info/status/result');
      const { userInfoStatus } = status;
      // userInfoStatus 2 is written by the consent transaction itself: it committed, or nothing did.
      if (userInfoStatus === 2) committed.add(j.n);
      if (ok(j.calls.auth)) expect(userInfoStatus, `journey ${j.n}`).toBe(2);
      if (!j.calls.auth) expect(userInfoStatus, `journey ${j.n}`).not.toBe(2);
      shownForms.set(j.n, await asPerson(j, '/api/user/info/form/show'));
    }

    // 4. The restarted server serves a whole new journey.
    const after = newJourney();
    expect(await runJourney(after, () => false), JSON.stringify(after.calls)).toBe(true);
    expect(after.consented?.length, 'the new journey consents to at least one lender').toBeGreaterThan(0);
    committed.add(after.n);

    // Offers' delivery modes as the consents recorded them (checks modeOf against the server).
    for (const j of journeys.filter((x) => x.consented)) {
      for (const c of j.consented!) {
        const offer = j.offers!.find((o) => o.id === c.productId)!;
        expect(c.mode, `journey ${j.n} product ${c.productId}`).toBe(modeOf(offer));
      }
    }
    const expectedApi = journeys
      .filter((j) => committed.has(j.n))
      .reduce((sum, j) => sum + j.offers!.filter((o) => modeOf(o) === 'api').length, 0);
    expect(expectedApi).toBeGreaterThan(0);

    // Let the inline worker finish: no lead left pending (the console's queue view).
    const staffLogin = await fetch(`${url}/api/crm/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(staff),
    });
    const staffToken = ((await staffLogin.json()) as { data: { token: string } }).data.token;
    const pendingLeads = async () => {
      const res = await fetch(`${url}/api/admin/deliveries/summary`, {
        headers: { accesstoken: staffToken },
      });
      const { data } = (await res.json()) as { data: DeliverySummaryData };
      return data.list.reduce((sum, p) => sum + p.pending, 0);
    };
    const drainBy = Date.now() + 45_000;
    let pendingNow = await pendingLeads();
    while (pendingNow > 0 && Date.now() < drainBy) {
      await sleep(100);
      pendingNow = await pendingLeads();
    }
    expect(pendingNow, logs.join('')).toBe(0);
    await stop('SIGTERM');

    // ---- The database, read directly once the server has stopped. ----
    const database = await openDatabase(databaseUrl ? { url: databaseUrl } : { dataDir });
    cleanups.push(() => database.close());
    const { ring } = loadKeys(loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir }));
    const leadRows = await database.db
      .select({
        userId: leads.userId,
        productId: leads.productId,
        consentId: leads.consentId,
        key: leads.idempotencyKey,
        mode: leads.mode,
        status: leads.status,
        productCode: products.code,
      })
      .from(leads)
      .innerJoin(products, eq(leads.productId, products.id));
    const draftRows = await database.db.select().from(applicationDrafts);
    await database.close();

    const byUid = new Map(journeys.filter((j) => j.uid !== undefined).map((j) => [j.uid!, j]));
    // 1. No consented lead lost: each consent answered 200 has exactly its leads; a consent whose
    // answer the kill took has all of them (it committed) or none.
    for (const j of journeys) {
      const mine = leadRows.filter((l) => l.userId === j.uid);
      if (ok(j.calls.auth)) {
        expect(mine.map((l) => l.consentId).sort(), `journey ${j.n}`).toEqual(
          j.consented!.map((c) => c.consentId).sort(),
        );
      }
      if (committed.has(j.n)) {
        expect(mine.map((l) => String(l.productId)).sort(), `journey ${j.n}`).toEqual(
          j.offers!.map((o) => o.id).sort(),
        );
      } else {
        expect(mine, `journey ${j.n} did not consent`).toEqual([]);
      }
    }
    for (const l of leadRows)
      expect(byUid.get(l.userId)?.calls.auth, `lead of user ${l.userId}`).toBeDefined();
    // One lead per person and product.
    const personProduct = leadRows.map((l) => `${l.userId}:${l.productId}`);
    expect(new Set(personProduct).size).toBe(personProduct.length);

    // 2. Each API lead reached the lender, and only once: the lender accepted exactly the API leads'
    // keys, every request it saw carried one of them (as leadId too), and no person reached one
    // product under two keys.
    const apiLeads = leadRows.filter((l) => l.mode === 'api');
    expect(apiLeads.length).toBe(expectedApi);
    expect(apiLeads.filter((l) => l.status !== 'delivered')).toEqual([]);
    expect([...partner.accepted.keys()].sort()).toEqual(apiLeads.map((l) => l.key).sort());
    const apiKeys = new Set(apiLeads.map((l) => l.key));
    for (const r of partner.requests) {
      expect(r.signatureOk).toBe(true);
      expect(apiKeys.has(r.key), `request for unknown key ${r.key}`).toBe(true);
      expect(r.body.leadId).toBe(r.key);
    }
    const leadOfKey = new Map(apiLeads.map((l) => [l.key, l]));
    const personProductAccepted = new Set<string>();
    for (const [key, body] of partner.accepted) {
      const lead = leadOfKey.get(key)!;
      const j = byUid.get(lead.userId)!;
      expect(body.productCode).toBe(lead.productCode);
      // The lender got this person's submitted answers, whole.
      const { mobile, ...fields } = body.fields as Record<string, unknown>;
      expect(mobile).toBe(j.phone);
      for (const [k, v] of Object.entries(fields))
        expect(v, `${k} of journey ${j.n}`).toEqual(j.form[k as keyof ApplicationForm]);
      personProductAccepted.add(`${mobile}:${body.productCode}`);
    }
    expect(personProductAccepted.size).toBe(partner.accepted.size);
    // Other modes never go to the lender's API.
    expect(leadRows.filter((l) => l.mode !== 'api' && partner.accepted.has(l.key))).toEqual([]);

    // 3. No half-written form: a save answered 200 stored exactly the submitted form; a save the
    // kill interrupted stored it whole or not at all; nothing else stored a form.
    const drafts = new Map(
      draftRows.map((d) => [d.userId, JSON.parse(decryptField(ring, d.dataEnc)) as unknown]),
    );
    for (const d of draftRows)
      expect(byUid.get(d.userId)?.calls.save, `draft of user ${d.userId}`).toBeDefined();
    for (const j of journeys.filter((x) => x.uid !== undefined)) {
      const stored = drafts.get(j.uid!);
      const showed = shownForms.get(j.n);
      if (ok(j.calls.save)) {
        expect(stored, `journey ${j.n}`).toEqual(j.form);
        if (j !== after) expect(showed, `journey ${j.n}`).toEqual(shown(j.form));
      } else if (j.calls.save) {
        if (stored !== undefined) expect(stored, `journey ${j.n}`).toEqual(j.form);
        expect([{}, shown(j.form)], `journey ${j.n}`).toContainEqual(showed);
      } else {
        expect(stored, `journey ${j.n}`).toBeUndefined();
        expect(showed, `journey ${j.n}`).toEqual({});
      }
    }

    // What happened, for the log of a run.
    const interrupted = lost.map((c) => `${c.journey}:${c.step}`);
    const lostSaves = journeys.filter((j) => j.calls.save?.lost);
    const lostAuths = journeys.filter((j) => j.calls.auth?.lost);
    console.info(
      `crash-load (${BACKEND}): ${journeys.length} journeys, ${completedBeforeKill} complete before the kill; ` +
        `in flight at the kill: ${pendingAtKill.join(' ')}; answers lost: ${interrupted.join(' ')}; ` +
        `unanswered saves stored: ${lostSaves.filter((j) => drafts.has(j.uid!)).length}/${lostSaves.length}, ` +
        `unanswered consents committed: ${lostAuths.filter((j) => committed.has(j.n)).length}/${lostAuths.length}; ` +
        `${apiLeads.length} API leads delivered, ${partner.requests.length} partner requests, ` +
        `${partner.duplicates.length} re-sent after the lender had taken them`,
    );
  }, 150_000);
});
