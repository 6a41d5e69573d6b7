/**
 * Issue 48.1: a product's lead prices with the day each takes effect — GET/POST
 * /api/admin/products/:id/prices. Admin adds, operator reads, viewer reads without amounts, channel partner
 * refused; bad bodies, past days and a second price of a model on one day refused in words; audited; the
 * price in force answered by date.
 */
import type { ProductPricesData } from '@lm/shared/schemas/product-prices';
import { addDays, shanghaiDate, shanghaiDayStart } from '@lm/shared/time';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, productPrices, products } from '../src/db/schema.ts';
import { PricingRepository } from '../src/modules/pricing/repository.ts';
import { PricingService } from '../src/modules/pricing/service.ts';
import { BACKEND, body, createTestApp, staffLogin, type TestContext } from './helpers.ts';

type Role = 'admin' | 'operator' | 'viewer' | 'channel_partner';

let ctx: TestContext;
const tokens = {} as Record<Role, string>;
let adminId = 0;
/** Two seeded products: one whose schedule the tests build, one for the refusals. */
let productId = 0;
let otherId = 0;
const today = shanghaiDate();

const db = () => ctx.app.database.db;

function call(role: Role, method: 'GET' | 'POST', url: string, payload?: object) {
  return ctx.app.inject({
    method,
    url,
    headers: { accesstoken: tokens[role] },
    ...(payload ? { payload } : {}),
  });
}

async function prices(role: Role, id: number, at?: string): Promise<ProductPricesData> {
  const res = await call(role, 'GET', `/api/admin/products/${id}/prices${at ? `?at=${at}` : ''}`);
  expect(res.statusCode, res.body).toBe(200);
  return body<ProductPricesData>(res).data;
}

async function add(id: number, payload: object): Promise<ProductPricesData> {
  const res = await call('admin', 'POST', `/api/admin/products/${id}/prices`, payload);
  expect(res.statusCode, res.body).toBe(200);
  return body<ProductPricesData>(res).data;
}

beforeAll(async () => {
  ctx = await createTestApp();
  const admin = await staffLogin(ctx.app, 'admin', { name: '价格管理员' });
  adminId = admin.id;
  tokens.admin = admin.token;
  tokens.operator = (await staffLogin(ctx.app, 'operator')).token;
  tokens.viewer = (await staffLogin(ctx.app, 'viewer')).token;
  tokens.channel_partner = (await staffLogin(ctx.app, 'channel_partner', { channelCodes: ['demo'] })).token;
  const rows = await db().select({ id: products.id }).from(products).orderBy(asc(products.id)).limit(2);
  expect(rows.length, 'the demo catalogue is seeded').toBe(2);
  productId = rows[0]!.id;
  otherId = rows[1]!.id;
});
afterAll(async () => ctx?.close());

describe(`product prices (${BACKEND})`, () => {
  it('a product without prices: nothing in force, an empty schedule', async () => {
    const data = await prices('admin', productId);
    expect(data).toEqual({
      productId,
      at: today,
      today,
      inForce: { cpl: null, cpa: null, cps: null },
      list: [],
      amountsShown: true,
    });
  });

  it('admin adds a CPL price from today: in force at once, stored as the start of the Shanghai day, audited', async () => {
    const data = await add(productId, { model: 'cpl', amountFen: 3_500, effectiveFrom: today });
    expect(data.inForce.cpl).toMatchObject({
      model: 'cpl',
      amountFen: 3_500,
      effectiveFrom: today,
      createdByName: '价格管理员',
    });
    expect(data.inForce.cpl).not.toHaveProperty('bps');
    expect(data.inForce.cpa).toBeNull();
    expect(data.list).toHaveLength(1);

    const [row] = await db().select().from(productPrices).where(eq(productPrices.productId, productId));
    expect(row).toMatchObject({ model: 'cpl', amountFen: 3_500, bps: null, createdBy: adminId });
    expect(row!.effectiveFrom.toISOString()).toBe(shanghaiDayStart(today).toISOString());
    expect(row!.effectiveFrom.toISOString()).toMatch(/T16:00:00\.000Z$/); // 00:00 in Shanghai

    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'product_price'), eq(auditLog.entityId, String(row!.id))));
    expect(entry).toMatchObject({
      action: 'create',
      staffId: adminId,
      staffName: '价格管理员',
      before: null,
    });
    expect(entry!.after).toEqual({
      productId,
      productName: expect.any(String),
      model: 'cpl',
      amountFen: 3_500,
      effectiveFrom: today,
    });
  });

  it('the price in force is answered by date: a later CPL and a CPS share take over on their days', async () => {
    const in5 = addDays(today, 5);
    const in10 = addDays(today, 10);
    await add(productId, { model: 'cpl', amountFen: 4_200, effectiveFrom: in5 });
    const after = await add(productId, { model: 'cps', bps: 150, effectiveFrom: in10 });
    // Today: the first CPL price; the scheduled ones are not yet in force.
    expect(after.inForce.cpl?.amountFen).toBe(3_500);
    expect(after.inForce.cps).toBeNull();
    // Newest first: the latest effective day first.
    expect(after.list.map((p) => [p.model, p.effectiveFrom])).toEqual([
      ['cps', in10],
      ['cpl', in5],
      ['cpl', today],
    ]);
    expect(after.list[0]).toMatchObject({ bps: 150 });
    expect(after.list[0]).not.toHaveProperty('amountFen');

    expect((await prices('admin', productId, addDays(today, 4))).inForce.cpl?.amountFen).toBe(3_500);
    const day5 = await prices('admin', productId, in5);
    expect(day5.at).toBe(in5);
    expect(day5.today).toBe(today);
    expect(day5.inForce.cpl?.amountFen).toBe(4_200);
    expect(day5.inForce.cps).toBeNull();
    expect((await prices('admin', productId, addDays(today, 9))).inForce.cps).toBeNull();
    const day10 = await prices('admin', productId, in10);
    expect(day10.inForce).toMatchObject({ cpl: { amountFen: 4_200 }, cpa: null, cps: { bps: 150 } });
    // Before the first price: nothing in force.
    expect((await prices('admin', productId, addDays(today, -1))).inForce.cpl).toBeNull();
    // Another product's prices are its own.
    expect((await prices('admin', otherId)).list).toEqual([]);
  });

  it('a second price of one model on one day is refused in words; another model that day is taken', async () => {
    const in5 = addDays(today, 5);
    const res = await call('admin', 'POST', `/api/admin/products/${productId}/prices`, {
      model: 'cpl',
      amountFen: 9_900,
      effectiveFrom: in5,
    });
    expect(res.statusCode).toBe(400);
    expect(body(res).msg).toContain(`已有 ${in5} 起生效的「按线索 CPL」价格`);
    expect(body(res).msg).toContain('同一计价方式同一天只能有一个价格');
    const cpa = await add(productId, { model: 'cpa', amountFen: 20_000, effectiveFrom: in5 });
    expect(cpa.list.filter((p) => p.effectiveFrom === in5).map((p) => p.model)).toEqual(
      expect.arrayContaining(['cpl', 'cpa']),
    );
    const stored = await db().select().from(productPrices).where(eq(productPrices.productId, productId));
    expect(stored.find((p) => p.amountFen === 9_900)).toBeUndefined();
  });

  it('a day before today is refused: a price never changes the past', async () => {
    for (const day of [addDays(today, -1), '2020-01-01']) {
      const res = await call('admin', 'POST', `/api/admin/products/${otherId}/prices`, {
        model: 'cpl',
        amountFen: 100,
        effectiveFrom: day,
      });
      expect(res.statusCode, day).toBe(400);
      expect(body(res).msg).toContain('生效日期不能早于今天');
    }
    expect((await prices('admin', otherId)).list).toEqual([]);
  });

  it('the service holds the day against its own clock too (the schema’s today may be a day behind)', async () => {
    const tomorrow = new PricingService({
      repo: new PricingRepository(db()),
      now: () => shanghaiDayStart(addDays(today, 1)),
    });
    const admin = { staff: { id: adminId, name: '价格管理员', role: 'admin' as const }, ip: '127.0.0.1' };
    await expect(
      tomorrow.add(admin, otherId, { model: 'cpl', amountFen: 100, effectiveFrom: today }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('生效日期不能早于今天') });
    expect((await tomorrow.list(admin, otherId)).today).toBe(addDays(today, 1));
  });

  it('bad bodies are refused with the reason in words', async () => {
    const cases: [object, string][] = [
      [{ model: 'cpl', effectiveFrom: today }, '按线索和按授信计价须填写每条价格（分）'],
      [{ model: 'cpa', bps: 100, effectiveFrom: today }, '按线索和按授信计价须填写每条价格（分）'],
      [{ model: 'cpl', amountFen: 100, bps: 100, effectiveFrom: today }, '按线索和按授信计价不填分成比例'],
      [{ model: 'cps', effectiveFrom: today }, '按放款计价须填写分成比例（基点）'],
      [{ model: 'cps', bps: 100, amountFen: 100, effectiveFrom: today }, '按放款计价不填每条价格'],
      [{ model: 'cps', bps: 0, effectiveFrom: today }, '分成比例至少 1 个基点（0.01%）'],
      [{ model: 'cps', bps: 10_001, effectiveFrom: today }, '分成比例最高 10000 个基点（100%）'],
      [{ model: 'cps', bps: 1.5, effectiveFrom: today }, '分成比例应为整数'],
      [{ model: 'cpl', amountFen: -1, effectiveFrom: today }, '价格不能为负数'],
      [{ model: 'cpl', amountFen: 100_000_001, effectiveFrom: today }, '价格最高 1000000 元'],
      [{ model: 'cpl', amountFen: 12.5, effectiveFrom: today }, '价格应为整数（分）'],
      [{ model: 'cpl', amountFen: '100', effectiveFrom: today }, '价格应为整数（分）'],
      [
        { model: 'cpc', amountFen: 100, effectiveFrom: today },
        '计价方式应为 cpl（按线索）、cpa（按授信）或 cps（按放款）',
      ],
      [{ model: 'cpl', amountFen: 100 }, '日期格式应为 YYYY-MM-DD'],
      [{ model: 'cpl', amountFen: 100, effectiveFrom: '2030/01/01' }, '日期格式应为 YYYY-MM-DD'],
      [{ model: 'cpl', amountFen: 100, effectiveFrom: '2030-02-30' }, '日期不存在'],
    ];
    for (const [payload, words] of cases) {
      const res = await call('admin', 'POST', `/api/admin/products/${otherId}/prices`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(body(res).msg, JSON.stringify(payload)).toContain(words);
    }
    // The edges are taken: 0 fen (a free lead), 100 000 000 fen, 1 and 10 000 bps.
    await add(otherId, { model: 'cpl', amountFen: 0, effectiveFrom: addDays(today, 1) });
    await add(otherId, { model: 'cpa', amountFen: 100_000_000, effectiveFrom: addDays(today, 1) });
    await add(otherId, { model: 'cps', bps: 1, effectiveFrom: addDays(today, 1) });
    const last = await add(otherId, { model: 'cps', bps: 10_000, effectiveFrom: addDays(today, 2) });
    expect(last.list).toHaveLength(4);
    // A bad `at` and a product that does not exist.
    expect(
      (await call('admin', 'GET', `/api/admin/products/${otherId}/prices?at=2026-13-01`)).statusCode,
    ).toBe(400);
    const missing = await call('admin', 'GET', '/api/admin/products/987654/prices');
    expect(missing.statusCode).toBe(404);
    expect(body(missing).msg).toBe('产品不存在');
    const missingPost = await call('admin', 'POST', '/api/admin/products/987654/prices', {
      model: 'cpl',
      amountFen: 100,
      effectiveFrom: today,
    });
    expect(missingPost.statusCode).toBe(404);
  });

  it('the table itself refuses a price without its value or with both', async () => {
    const at = shanghaiDayStart(addDays(today, 30));
    await expect(
      db().insert(productPrices).values({ productId, model: 'cps', amountFen: 100, effectiveFrom: at }),
    ).rejects.toThrow();
    await expect(
      db().insert(productPrices).values({ productId, model: 'cpl', bps: 100, effectiveFrom: at }),
    ).rejects.toThrow();
  });

  it('operator reads with amounts but cannot add', async () => {
    const data = await prices('operator', productId);
    expect(data.amountsShown).toBe(true);
    expect(data.inForce.cpl?.amountFen).toBe(3_500);
    const res = await call('operator', 'POST', `/api/admin/products/${productId}/prices`, {
      model: 'cpl',
      amountFen: 1,
      effectiveFrom: addDays(today, 20),
    });
    expect(res.statusCode).toBe(403);
  });

  it('viewer reads the schedule without any amount (the fields are absent) and cannot add', async () => {
    const res = await call('viewer', 'GET', `/api/admin/products/${productId}/prices`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toMatch(/amountFen|"bps"/);
    const data = body<ProductPricesData>(res).data;
    expect(data.amountsShown).toBe(false);
    expect(data.list.map((p) => p.model)).toEqual(expect.arrayContaining(['cpl', 'cpa', 'cps']));
    expect(data.inForce.cpl).toMatchObject({ model: 'cpl', effectiveFrom: today });
    const post = await call('viewer', 'POST', `/api/admin/products/${productId}/prices`, {
      model: 'cpl',
      amountFen: 1,
      effectiveFrom: addDays(today, 20),
    });
    expect(post.statusCode).toBe(403);
  });

  it('a channel partner is refused both', async () => {
    expect((await call('channel_partner', 'GET', `/api/admin/products/${productId}/prices`)).statusCode).toBe(
      403,
    );
    const post = await call('channel_partner', 'POST', `/api/admin/products/${productId}/prices`, {
      model: 'cpl',
      amountFen: 1,
      effectiveFrom: addDays(today, 20),
    });
    expect(post.statusCode).toBe(403);
    const stored = await db().select().from(productPrices).where(eq(productPrices.amountFen, 1));
    expect(stored).toEqual([]);
  });
});
