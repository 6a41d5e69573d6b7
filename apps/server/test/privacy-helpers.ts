import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { leads, partnerNotices, partners } from '../src/db/schema.ts';
import { API_MODES, FORM, saveForm } from './fixtures.ts';
import { body, latestCode, loginAs, post, sendCancellationCode, type TestContext } from './helpers.ts';

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
    const saved = await saveForm(getCtx().app, token, form);
    expect(saved.res.statusCode, saved.res.body).toBe(200);
    const offers = saved.offers.filter((o) => API_MODES.has(o.linkType));
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
    expect(body(await sendCancellationCode(getCtx().app, p.token)).code).toBe(200);
    const code = await latestCode(getCtx().app, p.phone);
    const done = await post(getCtx().app, '/api/cancellation', { code }, auth(p.token));
    expect(body(done).code, done.body).toBe(200);
  }

  return { consentingPerson, drain, cancelAccount };
}
