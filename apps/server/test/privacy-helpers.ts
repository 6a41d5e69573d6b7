import type { MatchResultData, ProductOffer } from '@lm/shared/schemas/matching';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { leads, partnerNotices, partners } from '../src/db/schema.ts';
import { sign } from '../src/modules/delivery/signing.ts';
import { DEMO_PARTNERS } from '../src/modules/products/seed.ts';
import { FORM } from './fixtures.ts';
import { body, loginAs, newIp, post, type TestContext } from './helpers.ts';

/** The demo lenders' signing secrets, by the path the local lender is called on (`/<code>/…`). */
export const SECRETS = new Map(DEMO_PARTNERS.map((p) => [p.code, p.signingSecret!]));
export const secretOfPath = (path: string) => SECRETS.get(path.split('/')[1] ?? '') ?? 'unknown';
export const API_MODES = new Set([2, 3, 6, 7, 9]);

export interface Person {
  phone: string;
  token: string;
  uid: number;
  /** Leads of the consents, with their lender. */
  leads: { id: number; key: string; partnerId: number; partnerCode: string }[];
}

/** Steps of the privacy tests on the app of `getCtx()` (issue 18: privacy.test.ts was over 700 lines). */
export function privacyHelpers(getCtx: () => TestContext) {
  const db = () => getCtx().app.database.db;
  const auth = (token: string) => ({ accesstoken: token });

  /** Logs a person in, submits the form and consents to every API-mode product offered. */
  async function consentingPerson(form: Record<string, unknown> = FORM): Promise<Person> {
    const { phone, token, uid } = await loginAs(getCtx().app);
    const saved = await post(getCtx().app, '/api/user/info/save', form, auth(token));
    expect(saved.statusCode, saved.body).toBe(200);
    const r = body<MatchResultData>(saved).data;
    const offers = (r.id ? [r as ProductOffer, ...r.mayAuthProductList] : []).filter((o) =>
      API_MODES.has(o.linkType),
    );
    expect(offers.length, 'the form matches at least one API lender').toBeGreaterThan(0);
    const consent = await getCtx().app.inject({
      method: 'PUT',
      url: '/api/user/info/auth',
      payload: { productIds: offers.map((o) => o.id) },
      headers: auth(token),
    });
    expect(consent.statusCode, consent.body).toBe(200);
    const rows = await db()
      .select({
        id: leads.id,
        key: leads.idempotencyKey,
        partnerId: leads.partnerId,
        partnerCode: partners.code,
      })
      .from(leads)
      .innerJoin(partners, eq(leads.partnerId, partners.id))
      .where(eq(leads.userId, uid))
      .orderBy(leads.id);
    return { phone, token, uid, leads: rows };
  }

  /** Runs the worker until nothing is due (waits out short backoffs). */
  async function drain(timeoutMs = 10_000) {
    const until = Date.now() + timeoutMs;
    for (;;) {
      await getCtx().app.services.delivery.drain();
      const [pendingLead] = await db()
        .select({ id: leads.id })
        .from(leads)
        .where(eq(leads.status, 'pending'))
        .limit(1);
      const [pendingNotice] = await db()
        .select({ id: partnerNotices.id })
        .from(partnerNotices)
        .where(eq(partnerNotices.status, 'pending'))
        .limit(1);
      if (!pendingLead && !pendingNotice) return;
      if (Date.now() > until) throw new Error('still pending');
      await new Promise((r) => setTimeout(r, 15));
    }
  }

  async function cancelAccount(p: { phone: string; token: string }) {
    const sent = await getCtx().app.inject({
      method: 'POST',
      url: '/api/cancellation/sendPhoneVerifyCode',
      headers: auth(p.token),
      remoteAddress: newIp(),
    });
    expect(body(sent).code).toBe(200);
    const outbox = await getCtx().app.inject({ url: `/api/dev/sms-outbox?phone=${p.phone}` });
    const code = body<{ code: string }[]>(outbox).data[0]!.code;
    const done = await post(getCtx().app, '/api/cancellation', { code }, auth(p.token));
    expect(body(done).code, done.body).toBe(200);
  }

  const signedCallback = (partnerCode: string, secret: string, payload: object) => {
    const raw = JSON.stringify(payload);
    const ts = Math.floor(Date.now() / 1000);
    return getCtx().app.inject({
      method: 'POST',
      url: '/api/partner/callback',
      payload: raw,
      headers: {
        'content-type': 'application/json',
        'x-lm-timestamp': String(ts),
        'x-lm-signature': sign(secret, ts, raw),
        'x-lm-partner': partnerCode,
      },
    });
  };

  return { consentingPerson, drain, cancelAccount, signedCallback };
}
