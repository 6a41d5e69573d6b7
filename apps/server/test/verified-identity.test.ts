import { IDENTITY_MISMATCH_MSG } from '@lm/shared/identity';
import type { MatchResultData, ProductOffer } from '@lm/shared/schemas/matching';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationDrafts, creditProfiles, leads, matchRuns } from '../src/db/schema.ts';
import { decryptField, encryptField } from '../src/lib/crypto.ts';
import { FORM } from './fixtures.ts';
import { BACKEND, body, createTestApp, loginAs, type TestContext } from './helpers.ts';
import { drawnSelfie } from './specimens.ts';
import { uploadAs } from './upload-helper.ts';

/**
 * Issue 16.1: once a person passed face verification, the name and ID number it was made with are
 * the application's; another person's are refused on every save, match and consent call, and nothing
 * is stored or delivered. Real upload, real (local) face check.
 */
const VERIFIED = { realName: '王小明', identity: '11010519491231002X' };
const OTHER = { realName: FORM.realName, identity: FORM.identity }; // 张三 / 110101199003074514
const CRM_FORM = { ...FORM, adChannelCode: 'demo-crm', ...VERIFIED };

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx?.close());

const db = () => ctx.app.database.db;
const ring = () => ctx.app.services.keys.ring;
const call = (method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: unknown) =>
  ctx.app.inject({
    method,
    url,
    ...(payload !== undefined ? { payload: payload as object } : {}),
    headers: { accesstoken: token },
  });
const offersOf = (r: MatchResultData): ProductOffer[] =>
  r.id ? [r as ProductOffer, ...r.mayAuthProductList] : [];

/** A selfie of the person checked with `who` (the identity step's name and number). */
async function faceCheck(token: string, who?: { realName: string; identity: string }) {
  const { url } = await uploadAs(ctx.app, token, 'face', await drawnSelfie());
  return call('POST', '/api/app/userInfo/faceVerify', token, { image: url, ...who });
}

async function verifiedPerson() {
  const person = await loginAs(ctx.app, undefined, { adChannelCode: 'demo-crm' });
  const res = await faceCheck(person.token, { realName: VERIFIED.realName, identity: '11010519491231002x' });
  expect(res.statusCode, res.body).toBe(200);
  expect(body<{ passed: boolean }>(res).data.passed).toBe(true);
  return person;
}

function expectMismatch(res: Awaited<ReturnType<typeof call>>, fields: string[]) {
  expect(res.statusCode, res.body).toBe(400);
  const b = body<{ fields: { field: string }[] }>(res);
  expect(b.code).toBe(400);
  expect(b.msg).toBe(IDENTITY_MISMATCH_MSG);
  expect(b.data.fields.map((f) => f.field)).toEqual(fields);
}

async function draftOf(uid: number) {
  const [row] = await db().select().from(applicationDrafts).where(eq(applicationDrafts.userId, uid));
  return row ? (JSON.parse(decryptField(ring(), row.dataEnc)) as Record<string, unknown>) : null;
}

describe(`verified identity (${BACKEND})`, () => {
  it('a passed face check records the identity it was made with; the H5 reads it with the number masked', async () => {
    const { token, uid } = await verifiedPerson();
    const shown = body(await call('GET', '/api/user/info/verifiedIdentity', token)).data;
    expect(shown).toMatchObject({ verified: true, realName: '王小明', identity: '110***********002X' });
    // stored encrypted, and the draft now carries it
    const [profile] = await db().select().from(creditProfiles).where(eq(creditProfiles.userId, uid));
    expect(profile!.verifiedIdentityEnc).not.toContain('王小明');
    expect(JSON.parse(decryptField(ring(), profile!.verifiedIdentityEnc!))).toEqual(VERIFIED);
    expect(await draftOf(uid)).toMatchObject(VERIFIED);

    const stranger = await loginAs(ctx.app);
    expect(body(await call('GET', '/api/user/info/verifiedIdentity', stranger.token)).data).toEqual({
      verified: false,
      realName: null,
      identity: null,
      verifiedAt: null,
    });
  });

  it('a failed face check or one without a name and number verifies nobody', async () => {
    const { token, uid } = await loginAs(ctx.app, undefined, { adChannelCode: 'demo-crm' });
    const none = await faceCheck(token);
    expect(body(none).data).toMatchObject({ passed: false, reasons: ['请先填写并核验姓名和身份证号'] });
    const [profile] = await db().select().from(creditProfiles).where(eq(creditProfiles.userId, uid));
    expect(profile!.auditStatus).toBe(1);
    expect(profile!.verifiedIdentityEnc).toBeNull();
    expect(body(await call('GET', '/api/user/info/verifiedIdentity', token)).data).toMatchObject({
      verified: false,
    });
  });

  it('save refuses another name or number and stores nothing; without them it uses the verified identity', async () => {
    const { token, uid } = await verifiedPerson();
    const runsBefore = await db().select().from(matchRuns).where(eq(matchRuns.userId, uid));
    expectMismatch(await call('POST', '/api/user/info/save', token, { ...CRM_FORM, ...OTHER }), [
      'realName',
      'identity',
    ]);
    expectMismatch(await call('POST', '/api/user/info/save', token, { ...CRM_FORM, realName: '张三' }), [
      'realName',
    ]);
    expectMismatch(
      await call('POST', '/api/user/info/save', token, { ...CRM_FORM, identity: OTHER.identity }),
      ['identity'],
    );
    // nothing stored, nothing matched
    expect(await draftOf(uid)).toEqual(VERIFIED);
    expect(await db().select().from(matchRuns).where(eq(matchRuns.userId, uid))).toHaveLength(
      runsBefore.length,
    );

    // the verified identity (any case of the final X) or none at all is accepted
    const { realName: _n, identity: _i, ...withoutIdentity } = CRM_FORM;
    const saved = await call('POST', '/api/user/info/save', token, withoutIdentity);
    expect(saved.statusCode, saved.body).toBe(200);
    const again = await call('POST', '/api/user/info/save', token, {
      ...CRM_FORM,
      identity: '11010519491231002x',
    });
    expect(again.statusCode, again.body).toBe(200);
    const runs = await db().select().from(matchRuns).where(eq(matchRuns.userId, uid));
    expect(runs.length).toBeGreaterThan(0);
    for (const run of runs) {
      expect(JSON.parse(decryptField(ring(), run.profileEnc))).toMatchObject(VERIFIED);
    }
    expect(await draftOf(uid)).toMatchObject(VERIFIED);
  });

  it('tempSave, identityNameVerify and another face check refuse another identity', async () => {
    const { token, uid } = await verifiedPerson();
    expectMismatch(await call('POST', '/api/user/info/tempSave', token, OTHER), ['realName', 'identity']);
    expectMismatch(await call('POST', '/api/user/info/tempSave', token, { identity: OTHER.identity }), [
      'identity',
    ]);
    expect(await draftOf(uid)).toEqual(VERIFIED);
    expect((await call('POST', '/api/user/info/tempSave', token, { job: 2, ...VERIFIED })).statusCode).toBe(
      200,
    );
    expectMismatch(await call('POST', '/api/user/info/identityNameVerify', token, OTHER), [
      'realName',
      'identity',
    ]);
    expect((await call('POST', '/api/user/info/identityNameVerify', token, VERIFIED)).statusCode).toBe(200);
    // a second selfie cannot bind another identity
    expectMismatch(await faceCheck(token, OTHER), ['realName', 'identity']);
    const again = await faceCheck(token);
    expect(body<{ passed: boolean }>(again).data.passed).toBe(true);
    expect(body(await call('GET', '/api/user/info/verifiedIdentity', token)).data).toMatchObject({
      realName: '王小明',
    });
  });

  it('a match or consent carrying another identity stored before the verification is refused, nothing delivered', async () => {
    // Saved and matched as 张三 (ordinary channel), then verified as 王小明.
    const { token, uid } = await loginAs(ctx.app);
    const first = await call('POST', '/api/user/info/save', token, FORM);
    expect(first.statusCode, first.body).toBe(200);
    const run = body<MatchResultData>(first).data;
    const offers = offersOf(run);
    expect(offers.length).toBeGreaterThan(0);
    const passed = await faceCheck(token, VERIFIED);
    expect(body<{ passed: boolean }>(passed).data.passed).toBe(true);

    // consent to the offers of the run matched for 张三
    const consent = await call('PUT', '/api/user/info/auth', token, {
      productIds: offers.map((o) => o.id),
      matchId: run.matchId,
    });
    expectMismatch(consent, ['realName', 'identity']);
    expect(await db().select().from(leads).where(eq(leads.userId, uid))).toHaveLength(0);

    // a draft naming 张三 (as stored before the rule existed) is not matched again
    await db()
      .update(applicationDrafts)
      .set({ dataEnc: encryptField(ring(), JSON.stringify(FORM)) })
      .where(eq(applicationDrafts.userId, uid));
    const runsBefore = (await db().select().from(matchRuns).where(eq(matchRuns.userId, uid))).length;
    expectMismatch(await call('POST', '/api/user/info/direct/match', token, { directMatchType: 0 }), [
      'realName',
      'identity',
    ]);
    expect(await db().select().from(matchRuns).where(eq(matchRuns.userId, uid))).toHaveLength(runsBefore);

    // re-submitted with the verified identity: matched and delivered as 王小明
    const { realName: _n, identity: _i, ...withoutIdentity } = FORM;
    const saved = await call('POST', '/api/user/info/save', token, withoutIdentity);
    expect(saved.statusCode, saved.body).toBe(200);
    const fresh = body<MatchResultData>(saved).data;
    const ok = await call('PUT', '/api/user/info/auth', token, {
      productIds: offersOf(fresh).map((o) => o.id),
      matchId: fresh.matchId,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const delivered = await db().select().from(leads).where(eq(leads.userId, uid));
    expect(delivered.length).toBeGreaterThan(0);
    const payloads = delivered.map(
      (lead) => JSON.parse(decryptField(ring(), lead.payloadEnc)) as Record<string, unknown>,
    );
    // lenders receive only the fields consented to; those that receive the name get the verified one
    expect(payloads.some((p) => 'realName' in p && 'identity' in p)).toBe(true);
    for (const payload of payloads) {
      if ('realName' in payload) expect(payload.realName).toBe('王小明');
      if ('identity' in payload) expect(payload.identity).toBe(VERIFIED.identity);
      expect(JSON.stringify(payload)).not.toContain('张三');
    }
  });
});
