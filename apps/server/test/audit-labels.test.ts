/**
 * Issue 44.11: the console shows the audit log in words. Every action, subject and field the server
 * writes must have a Chinese label in packages/shared/src/audit-labels.ts, and every value must read
 * formatted (no ISO time, no JSON): this test makes the console's changes of every kind it can and reads
 * the log back through the API, so a snapshot field added on the server without a label fails here.
 */
import {
  AUDIT_ACTION_LABELS,
  AUDIT_ENTITY_LABELS,
  auditFieldLabel,
  auditValueText,
} from '@lm/shared/audit-labels';
import { defaultEventMap } from '@lm/shared/conversions';
import type { AuditEntry } from '@lm/shared/schemas/admin';
import { addDays, shanghaiDate } from '@lm/shared/time';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM, saveForm } from './fixtures.ts';
import { BACKEND, body, createTestApp, loginAs, newIp, staffLogin, type TestContext } from './helpers.ts';

let ctx: TestContext;
let app: FastifyInstance;
let admin = '';

beforeAll(async () => {
  ctx = await createTestApp();
  app = ctx.app;
  // No test depends on real DNS: the lender's example name resolves to a public address.
  app.services.partnerHttp.policy.resolve = async () => ['93.184.215.14'];
  admin = (await staffLogin(app, 'admin', { name: '审计管理员' })).token;
});
afterAll(async () => ctx?.close());

async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  const res = await app.inject({
    method,
    url,
    headers: { accesstoken: admin },
    remoteAddress: newIp(),
    ...(payload ? { payload } : {}),
  });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
  return body<Record<string, unknown> & { id: number }>(res).data;
}

/** Every entry of the audit log, through the console's own call. */
async function allEntries(): Promise<AuditEntry[]> {
  const out: AuditEntry[] = [];
  for (let page = 1; ; page++) {
    const data = body<{ total: number; list: AuditEntry[] }>(
      await app.inject({
        url: `/api/admin/audit-log?page=${page}&pageSize=200`,
        headers: { accesstoken: admin },
      }),
    ).data;
    out.push(...data.list);
    if (out.length >= data.total || data.list.length === 0) return out;
  }
}

const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const CAMEL_CASE = /\b[a-z]+[A-Z][A-Za-z]*\b/;

describe(`audit log labels (${BACKEND})`, () => {
  it('names every action, subject and field the console writes, and shows every value formatted', async () => {
    // Operators (ADR 057) and the channels that name them.
    const operator = await call('POST', '/api/admin/operators', {
      code: 'audit-op',
      companyName: '审计科技有限公司',
      shortName: '审计科技',
      filingNumber: '京ICP备2026000099号',
      smsSignature: '审计科技',
      address: '北京市朝阳区审计路 1 号',
      servicePhone: '010-12345678',
      email: 'dpo@audit.example.cn',
    });
    await call('PUT', `/api/admin/operators/${operator.id}`, {
      companyName: '审计数字科技有限公司',
      shortName: '审计数科',
      filingNumber: '京ICP备2026000099号-1',
      smsSignature: '审计数科',
      address: '北京市朝阳区审计路 2 号',
      servicePhone: '010-87654321',
      email: 'privacy@audit.example.cn',
    });
    // Channels and route codes.
    const channel = await call('POST', '/api/admin/channels', {
      adChannelCode: 'audit-labels',
      name: '审计渠道',
      linkType: 4,
      skin: 8,
      flags: ['purple', 'fenqile', 'baidu'],
      excludeCityCodes: ['440300'],
      planTargetUrl: 'https://partner.example.com/apply',
      pageTitle: '审计',
      needsLocation: true,
      trackReport: { platform: 'baidu', params: ['bd_vid'] },
      allowedHosts: ['partner.example.com'],
      operatorCode: 'audit-op',
    });
    await call('PUT', `/api/admin/channels/${channel.id}`, {
      name: '审计渠道二',
      linkType: 1,
      skin: 17,
      flags: ['teal'],
      skinArms: [
        { skin: 8, weight: 50 },
        { skin: 10, weight: 50 },
      ],
      allowedHosts: ['partner.example.com'],
    });
    await call('PUT', `/api/admin/channels/${channel.id}/status`, { channelStatus: 0 });
    await call('POST', `/api/admin/channels/${channel.id}/route-codes`, { routeCode: 'r-audit' });
    await call('PUT', `/api/admin/channels/${channel.id}/route-codes/r-audit`, {
      planTargetUrl: 'https://partner.example.com/plan',
      status: 0,
    });
    await call('DELETE', `/api/admin/channels/${channel.id}/route-codes/r-audit`);
    // Its conversion reporting (issue 47.2): created, then edited with a credential.
    await call('PUT', `/api/admin/channels/${channel.id}/conversions`, {
      enabled: false,
      platform: 'baidu',
      windowDays: 3,
      events: defaultEventMap('baidu'),
    });
    await call('PUT', `/api/admin/channels/${channel.id}/conversions`, {
      enabled: false,
      platform: 'baidu',
      windowDays: 5,
      events: {
        ...defaultEventMap('baidu'),
        loan: { enabled: true, eventCode: '26', firstOnly: false, minAmountFen: 100_000, sendValue: true },
      },
      credentials: { token: 'audit-baidu-token' },
    });

    // Partners and products.
    const { partner } = (await call('POST', '/api/admin/partners', {
      code: 'audit-lender',
      legalName: '审计融资担保有限公司',
      licenceNumber: '审金小贷备字〔2026〕001号',
      contactName: '审经理',
      contactPhone: '13811110001',
      apiEndpoint: 'https://lender.example.org/leads',
      allowedHosts: ['lender.example.org'],
      deliveryModes: { '2': 'api', '1': 'h5Redirect' },
    })) as unknown as { partner: { id: number } };
    await call('PUT', `/api/admin/partners/${partner.id}`, {
      legalName: '审计融资担保股份有限公司',
      licenceNumber: '审金小贷备字〔2026〕001号',
      contactName: '审经理',
      apiEndpoint: 'https://lender.example.org/leads2',
      allowedHosts: ['lender.example.org'],
      deliveryModes: { '2': 'api' },
      status: 'suspended',
    });
    await call('POST', `/api/admin/partners/${partner.id}/rotate-secret`);
    await call('POST', `/api/admin/partners/${partner.id}/outcomes/reconcile`, {
      csv: 'leadId,status\nL-unknown,funded\n',
      from: '2026-03-01',
      to: '2026-03-31',
    });
    const product = await call('POST', '/api/admin/products', {
      code: 'audit-product',
      partnerId: partner.id,
      productName: '审计贷',
      companyType: 'KAInstitution',
      institutionType: 1,
      linkType: 1,
      amountMinFen: 100_000,
      amountMaxFen: 5_000_000,
      termMinMonths: 3,
      termMaxMonths: 24,
      aprBps: 2650,
      targetUrl: 'https://lender.example.org/apply',
      rules: { citiesIn: ['440300'], ageMin: 22, ageMax: 50, jobs: ['employee'], requireCar: true },
      dailyCap: 100,
      priority: 10,
      priceFen: 5000,
      activeHours: { from: '09:00', to: '21:00' },
      sharedFields: ['realName', 'mobile'],
    });
    const detail = await call('GET', `/api/admin/products/${product.id}`);
    const { id: _id, code: _code, ...editable } = detail;
    await call('PUT', `/api/admin/products/${product.id}`, {
      ...Object.fromEntries(
        [
          'partnerId',
          'productName',
          'companyType',
          'institutionType',
          'thirdpartyType',
          'partnerProductName',
          'linkType',
          'amountMinFen',
          'amountMaxFen',
          'termMinMonths',
          'termMaxMonths',
          'targetUrl',
          'rules',
          'dailyCap',
          'totalCap',
          'priority',
          'priceFen',
          'activeHours',
          'sharedFields',
        ].map((k) => [k, editable[k]]),
      ),
      aprBps: 1800,
      companyType: 'RegionInstitution',
    });
    await call('PUT', `/api/admin/products/${product.id}/status`, { status: 'paused' });
    // Its lead prices (issue 48.1): a CPL price from today, a CPS share from tomorrow.
    await call('POST', `/api/admin/products/${product.id}/prices`, {
      model: 'cpl',
      amountFen: 3_500,
      effectiveFrom: shanghaiDate(),
    });
    await call('POST', `/api/admin/products/${product.id}/prices`, {
      model: 'cps',
      bps: 150,
      effectiveFrom: addDays(shanghaiDate(), 1),
    });

    // Staff: create, edit, disable, reset the password; a login lock; a WeChat binding.
    const member = await call('POST', '/api/admin/staff', {
      phone: '13800001234',
      name: '审计员工',
      role: 'viewer',
      password: 'audit staff secret',
    });
    await call('PUT', `/api/admin/staff/${member.id}`, {
      role: 'channel_partner',
      channelCodes: ['audit-labels'],
    });
    await call('POST', `/api/admin/staff/${member.id}/reset-password`, {});
    await call('PUT', `/api/admin/staff/${member.id}/status`, { status: 'disabled' });
    const ip = newIp();
    for (let i = 0; i < 5; i++) {
      await app.inject({
        method: 'POST',
        url: '/api/crm/admin/login',
        payload: { phone: '13800001234', password: 'not the password' },
        remoteAddress: ip,
      });
    }
    await call('PUT', '/api/crm/admin/org/employee/wechat/bindOpenid', {
      openid: 'o6_bmjrPTlm6_2sgVt7hMZOPfL2A',
    });

    // A reveal of a person's data.
    const person = await loginAs(app);
    await saveForm(app, person.token, FORM);
    await call('POST', `/api/admin/users/${person.uid}/reveal`, { field: 'realName', reason: '核实身份' });
    // An objection to conversion reporting, recorded and withdrawn.
    await call('PUT', `/api/admin/users/${person.uid}/ad-reporting`, { objected: true });
    await call('PUT', `/api/admin/users/${person.uid}/ad-reporting`, { objected: false });

    const entries = await allEntries();
    const seen = new Set(entries.map((e) => `${e.entity}:${e.action}`));
    for (const kind of [
      'channel:create',
      'channel:update',
      'channel:status',
      'route_code:create',
      'route_code:update',
      'route_code:delete',
      'partner:create',
      'partner:update',
      'partner:rotate-secret',
      'partner:reconcile',
      'product:create',
      'product:update',
      'product:status',
      'product_price:create',
      'staff:create',
      'staff:update',
      'staff:status',
      'staff:reset-password',
      'staff:login-lock',
      'staff:bind-wechat',
      'user:reveal',
      'user:ad-reporting',
    ])
      expect(seen, kind).toContain(kind);

    const unlabelled: string[] = [];
    const raw: string[] = [];
    for (const e of entries) {
      if (!AUDIT_ACTION_LABELS[e.action]) unlabelled.push(`action ${e.action}`);
      if (!AUDIT_ENTITY_LABELS[e.entity]) unlabelled.push(`entity ${e.entity}`);
      for (const snapshot of [e.before, e.after]) {
        for (const [key, value] of Object.entries(snapshot ?? {})) {
          const label = auditFieldLabel(e.entity, key);
          if (label === key || CAMEL_CASE.test(label)) unlabelled.push(`${e.entity}.${key}`);
          const text = auditValueText(e.entity, key, value);
          if (ISO_TIME.test(text) || /[{}"]/.test(text)) raw.push(`${e.entity}.${key} = ${text}`);
        }
      }
    }
    expect([...new Set(unlabelled)]).toEqual([]);
    expect([...new Set(raw)]).toEqual([]);
  });
});
