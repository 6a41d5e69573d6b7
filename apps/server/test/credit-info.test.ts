import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.ts';
import { creditProfiles } from '../src/db/schema.ts';
import { encryptField } from '../src/lib/crypto.ts';
import { BACKEND, body, loginAs, newIp, newPhone, traceLogInto, useTestApp } from './helpers.ts';

const DETAIL = '/api/app/userInfo/baseDetail';
const SAVE = '/api/app/userInfo/baseTempSave';

const logLines: string[] = [];
const ctx = useTestApp(traceLogInto(logLines));

const get = (token?: string) =>
  ctx.app.inject({ method: 'GET', url: DETAIL, headers: token ? { accesstoken: token } : {} });
const save = (payload: unknown, token?: string) =>
  ctx.app.inject({
    method: 'POST',
    url: SAVE,
    payload: payload as object,
    headers: token ? { accesstoken: token } : {},
  });

interface Detail {
  contacts: { relationship: string; name: string; phone: string }[];
  auditStatus: number;
  step: string;
  [field: string]: unknown;
}
const detail = async (token: string) => body<Detail>(await get(token)).data;

const NAME_A = '欧阳明月';
const NAME_B = '阿依古丽·买买提';
const contactsOf = () => {
  const a = newPhone();
  const b = newPhone();
  return [
    { relationship: '0', name: NAME_A, phone: a },
    { relationship: '3', name: NAME_B, phone: b },
  ];
};
const information = { education: 0, maritalStatus: 1, annualIncome: 3, occupation: 11, loanPurpose: 5 };
const base = {
  residentialRegion: '310100',
  residentialAddress: '浦东新区世纪大道100号',
  companyName: '星河数码科技有限公司',
  companyRegion: '440300',
  companyAddress: '南山区科技园南区8栋',
};

/** Face verification's part (another module): sets the face status, creating the row if missing. */
async function setFaceStatus(userId: number, auditStatus: number) {
  await ctx.app.database.db
    .insert(creditProfiles)
    .values({ userId, dataEnc: '{}', auditStatus })
    .onConflictDoUpdate({ target: creditProfiles.userId, set: { auditStatus } });
}

async function rawRow(userId: number) {
  const rows = rowsOf<{ data_enc: string; audit_status: number }>(
    await ctx.app.database.db.execute(
      sql`select data_enc, audit_status from credit_profiles where user_id = ${userId}`,
    ),
  );
  return rows;
}

describe(`credit information calls (${BACKEND})`, () => {
  it('require login (before any validation)', async () => {
    for (const token of [undefined, 'forged-token']) {
      expect((await get(token)).statusCode).toBe(401);
      expect((await save({ education: 1 }, token)).statusCode).toBe(401);
      expect((await save({ education: 99 }, token)).statusCode).toBe(401);
    }
  });

  it('a new person: nothing stored, two blank contacts, face not started → IDENTITY', async () => {
    const { token, uid } = await loginAs(ctx.app);
    const res = await get(token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const blank = { relationship: '', name: '', phone: '' };
    expect(body(res).data).toEqual({ contacts: [blank, blank], auditStatus: 0, step: 'IDENTITY' });
    // Reading creates nothing.
    expect(await rawRow(uid)).toHaveLength(0);
  });

  it('the steps follow the saves: INFORMATION → CONTACT → BASE → DONE; saves merge', async () => {
    const { token, uid } = await loginAs(ctx.app);
    await setFaceStatus(uid, 2);
    expect(await detail(token)).toMatchObject({ auditStatus: 2, step: 'INFORMATION' });

    const first = await save({ education: 0, maritalStatus: 1 }, token);
    expect(first.statusCode).toBe(200);
    const answer = body<{ savedAt: string; step: string }>(first).data;
    expect(answer.step).toBe('INFORMATION');
    expect(Number.isNaN(Date.parse(answer.savedAt))).toBe(false);

    expect(body<{ step: string }>(await save(information, token)).data.step).toBe('CONTACT');
    const contacts = contactsOf();
    expect(body<{ step: string }>(await save({ contacts }, token)).data.step).toBe('BASE');
    expect(body<{ step: string }>(await save({ companyName: ' 星河 ' }, token)).data.step).toBe('BASE');
    expect(body<{ step: string }>(await save(base, token)).data.step).toBe('DONE');

    // A later partial save keeps every other field (the record is merged, not replaced).
    expect(body<{ step: string }>(await save({ loanPurpose: 2 }, token)).data.step).toBe('DONE');
    expect(await detail(token)).toEqual({
      ...information,
      loanPurpose: 2,
      ...base,
      contacts,
      auditStatus: 2,
      step: 'DONE',
    });
  });

  it('saves never touch the face status; a failed face status shows IDENTITY whatever is filled in', async () => {
    const { token, uid } = await loginAs(ctx.app);
    // Saved before face verification: the row is created with status 0.
    expect(body<{ step: string }>(await save(information, token)).data.step).toBe('IDENTITY');
    expect((await rawRow(uid))[0]!.audit_status).toBe(0);

    await setFaceStatus(uid, 2);
    expect(body<{ step: string }>(await save({ contacts: contactsOf(), ...base }, token)).data.step).toBe(
      'DONE',
    );
    expect((await rawRow(uid))[0]!.audit_status).toBe(2);

    // The body cannot set it either (unknown keys are ignored).
    await setFaceStatus(uid, 1);
    const res = await save({ auditStatus: 2, step: 'DONE', education: 4 }, token);
    expect(body<{ step: string }>(res).data.step).toBe('IDENTITY');
    expect((await rawRow(uid))[0]!.audit_status).toBe(1);
    expect(await detail(token)).toMatchObject({ education: 4, auditStatus: 1, step: 'IDENTITY' });
  });

  it('a row created by face verification with an empty record reads as empty and merges', async () => {
    const { token, uid } = await loginAs(ctx.app);
    await setFaceStatus(uid, 2); // dataEnc '{}' in clear
    expect(await detail(token)).toMatchObject({ step: 'INFORMATION', auditStatus: 2 });
    expect((await save({ education: 2 }, token)).statusCode).toBe(200);
    expect(await detail(token)).toMatchObject({ education: 2, step: 'INFORMATION' });

    const other = await loginAs(ctx.app);
    await ctx.app.database.db
      .insert(creditProfiles)
      .values({ userId: other.uid, dataEnc: encryptField(ctx.app.services.keys.ring, '{}'), auditStatus: 2 });
    expect(await detail(other.token)).toMatchObject({ step: 'INFORMATION', auditStatus: 2 });
  });

  it('refuses bad values with Chinese messages naming the field; nothing is stored', async () => {
    const { token, uid } = await loginAs(ctx.app);
    const [a, b] = contactsOf();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ education: 6 }, 'education', /最高学历选项无效/],
      [{ maritalStatus: 9 }, 'maritalStatus', /婚姻状况选项无效/],
      [{ annualIncome: '0' }, 'annualIncome', /年收入选项无效/],
      [{ occupation: 12 }, 'occupation', /所属行业选项无效/],
      [{ loanPurpose: 2.5 }, 'loanPurpose', /借款用途选项无效/],
      [{ residentialRegion: '310000' }, 'residentialRegion', /居住城市编码不在行政区划表中/],
      [{ companyRegion: '4403' }, 'companyRegion', /单位所在城市编码应为6位数字/],
      [{ residentialAddress: '路' }, 'residentialAddress', /居住详细地址至少4个字/],
      [{ companyName: '某'.repeat(51) }, 'companyName', /单位名称最多50个字/],
      [{ companyAddress: '科技园\n8栋' }, 'companyAddress', /单位详细地址不能包含换行/],
      [{ contacts: [a] }, 'contacts', /请填写两位紧急联系人/],
      [
        { contacts: [a, { ...b, relationship: '7' }] },
        'contacts.1.relationship',
        /联系人2与本人关系选项无效/,
      ],
      [{ contacts: [{ ...a, name: 'Tom' }, b] }, 'contacts.0.name', /联系人1姓名应为2-20个汉字/],
      [{ contacts: [a, { ...b, phone: '12345678901' }] }, 'contacts.1.phone', /联系人2手机号格式不正确/],
    ];
    for (const [payload, field, msg] of cases) {
      const res = await save(payload, token);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      const b400 = body<{ fields: { field: string; message: string }[] }>(res);
      expect(b400.code).toBe(400);
      expect(b400.msg).toMatch(msg);
      expect(b400.msg).toContain(field);
      expect(b400.data.fields[0]!.field).toBe(field);
    }
    expect(await rawRow(uid)).toHaveLength(0);
  });

  it("refuses the person's own phone as a contact", async () => {
    const { token, phone, uid } = await loginAs(ctx.app);
    const [a, b] = contactsOf();
    for (const [contacts, field] of [
      [[{ ...a!, phone }, b!], 'contacts.0.phone'],
      [[a!, { ...b!, phone: ` ${phone} ` }], 'contacts.1.phone'],
    ] as const) {
      const res = await save({ contacts }, token);
      expect(res.statusCode).toBe(400);
      const b400 = body<{ fields: { field: string; message: string }[] }>(res);
      expect(b400.msg).toMatch(/手机号不能是本人手机号/);
      expect(b400.msg).toContain(field);
      expect(b400.data.fields).toEqual([{ field, message: expect.stringMatching(/不能是本人手机号/) }]);
    }
    expect(await rawRow(uid)).toHaveLength(0);
    // Someone else's phone is fine.
    expect((await save({ contacts: [a, b] }, token)).statusCode).toBe(200);
  });

  it('refuses the same contact phone twice', async () => {
    const { token } = await loginAs(ctx.app);
    const [a, b] = contactsOf();
    const res = await save({ contacts: [a, { ...b, phone: a!.phone }] }, token);
    expect(res.statusCode).toBe(400);
    expect(body(res).msg).toBe('联系人2手机号与联系人1相同，请填写两位不同的联系人（contacts.1.phone）');
  });

  it('contacts are replaced as a pair', async () => {
    const { token } = await loginAs(ctx.app);
    const first = contactsOf();
    const second = contactsOf();
    await save({ contacts: first, education: 1 }, token);
    await save({ contacts: second }, token);
    expect(await detail(token)).toMatchObject({ contacts: second, education: 1 });
  });

  it('is stored encrypted: the raw row holds no name, phone, address or code', async () => {
    const { token, uid } = await loginAs(ctx.app);
    const contacts = contactsOf();
    await save({ ...information, ...base, contacts }, token);
    const rows = await rawRow(uid);
    expect(rows).toHaveLength(1);
    const raw = JSON.stringify(rows[0]);
    expect(rows[0]!.data_enc).toMatch(/^v1\./);
    for (const secret of [
      NAME_A,
      NAME_B,
      contacts[0]!.phone,
      contacts[1]!.phone,
      '世纪大道',
      '星河',
      '310100',
    ]) {
      expect(raw).not.toContain(secret);
    }
  });

  it('never writes the record to the log', async () => {
    const { token } = await loginAs(ctx.app);
    const contacts = contactsOf();
    logLines.length = 0;
    await save({ ...information, ...base, contacts }, token);
    await get(token);
    await save({ contacts: [contacts[0], { ...contacts[1], name: 'Bad Name' }] }, token);
    const log = logLines.join('\n');
    expect(log).toContain('credit info saved');
    for (const secret of [NAME_A, NAME_B, contacts[0]!.phone, contacts[1]!.phone, '世纪大道', 'Bad Name']) {
      expect(log).not.toContain(secret);
    }
  });

  it("another person can't read or change my record", async () => {
    const me = await loginAs(ctx.app);
    const other = await loginAs(ctx.app);
    await save({ education: 1, contacts: contactsOf() }, me.token);
    await save({ education: 5 }, other.token);
    expect(await detail(other.token)).toMatchObject({
      education: 5,
      contacts: [
        { relationship: '', name: '', phone: '' },
        { relationship: '', name: '', phone: '' },
      ],
    });
    expect(await detail(me.token)).toMatchObject({ education: 1 });
  });

  it('concurrent saves of one person lose no field', async () => {
    const { token } = await loginAs(ctx.app);
    const patches = [
      { education: 2 },
      { maritalStatus: 0 },
      { annualIncome: 1 },
      { occupation: 7 },
      { loanPurpose: 3 },
      { companyName: '某某公司' },
      { residentialRegion: '110100' },
      { companyAddress: '朝阳区建国路1号' },
    ];
    const results = await Promise.all(patches.map((p) => save(p, token)));
    expect(results.map((r) => r.statusCode)).toEqual(patches.map(() => 200));
    expect(await detail(token)).toMatchObject(Object.assign({}, ...patches));
  });

  it('random bodies: always the envelope, never a 5xx; a refused save changes nothing', async () => {
    const { token, phone } = await loginAs(ctx.app);
    await save({ education: 1 }, token);
    const value = fc.oneof(
      fc.constantFrom(
        '0',
        '4',
        '5',
        '',
        ' ',
        '440300',
        '440000',
        '张三',
        'Tom',
        phone,
        '13800138000',
        '\u0000',
      ),
      fc.string({ maxLength: 30 }),
      fc.integer({ min: -2, max: 13 }),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
    );
    const contactArb = fc.oneof(
      fc.record({ relationship: value, name: value, phone: value }, { requiredKeys: [] }),
      value,
    );
    const fieldArb = fc.constantFrom(
      'education',
      'maritalStatus',
      'annualIncome',
      'occupation',
      'loanPurpose',
      'residentialRegion',
      'residentialAddress',
      'companyName',
      'companyRegion',
      'companyAddress',
      'auditStatus',
    );
    const bodyArb = fc.oneof(
      fc
        .record({
          fields: fc.dictionary(fieldArb, value, { maxKeys: 4 }),
          contacts: fc.option(fc.array(contactArb, { maxLength: 3 })),
        })
        .map(({ fields, contacts }) => (contacts === null ? fields : { ...fields, contacts })),
      fc.anything({ maxDepth: 2 }),
    );
    await fc.assert(
      fc.asyncProperty(bodyArb, async (payload) => {
        const before = (await get(token)).body;
        const res = await ctx.app.inject({
          method: 'POST',
          url: SAVE,
          payload: JSON.stringify(payload ?? null),
          headers: { 'content-type': 'application/json', accesstoken: token },
        });
        expect(res.statusCode).toBeLessThan(500);
        const b = JSON.parse(res.body) as { code: unknown; msg: unknown };
        expect(typeof b.code).toBe('number');
        expect(typeof b.msg).toBe('string');
        if (res.statusCode !== 200) expect((await get(token)).body).toBe(before);
      }),
      { numRuns: 80 },
    );
  });

  it('account cancellation deletes the record', async () => {
    const { token, phone, uid } = await loginAs(ctx.app);
    await save({ contacts: contactsOf() }, token);
    expect(await rawRow(uid)).toHaveLength(1);
    const sent = await ctx.app.inject({
      method: 'POST',
      url: '/api/cancellation/sendPhoneVerifyCode',
      headers: { accesstoken: token },
      remoteAddress: newIp(),
    });
    expect(body(sent).code).toBe(200);
    const outbox = await ctx.app.inject({ url: `/api/dev/sms-outbox?phone=${phone}` });
    const code = body<{ code: string }[]>(outbox).data[0]!.code;
    const done = await ctx.app.inject({
      method: 'POST',
      url: '/api/cancellation',
      payload: { code },
      headers: { accesstoken: token },
    });
    expect(body(done).code).toBe(200);
    expect(await rawRow(uid)).toHaveLength(0);
    const left = await ctx.app.database.db
      .select()
      .from(creditProfiles)
      .where(eq(creditProfiles.userId, uid));
    expect(left).toHaveLength(0);
  });
});
