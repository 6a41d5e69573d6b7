/**
 * Issue 48.2: spend imported from an ad platform's daily report — POST /api/admin/spend-imports/preview (each row
 * accepted or rejected with its reason; nothing written), POST /api/admin/spend-imports (the accepted rows booked
 * as channel cost: the difference to what is booked per channel-day; the same file again books nothing), GET
 * /api/admin/spend-imports (the list; a viewer without totals). Admin and operator import; a channel partner is
 * refused; audited.
 */
import type { SpendImportResult, SpendImportsData, SpendPreviewData } from '@lm/shared/schemas/spend-imports';
import { addDays, shanghaiDate, shanghaiDayStart } from '@lm/shared/time';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  channelCosts,
  channels,
  ledgerEntries,
  spendImports,
  spendRows,
} from '../src/db/schema.ts';
import { BACKEND, body, createTestApp, staffLogin, type TestContext } from './helpers.ts';

type Role = 'admin' | 'operator' | 'viewer' | 'channel_partner';

let ctx: TestContext;
const tokens = {} as Record<Role, string>;
const staffIds = {} as Record<Role, number>;
const today = shanghaiDate();
const yesterday = addDays(today, -1);
const twoAgo = addDays(today, -2);
const db = () => ctx.app.database.db;
const ids = { a: 0, b: 0, cpc: 0 };

function call(role: Role, method: 'GET' | 'POST', url: string, payload?: object) {
  return ctx.app.inject({
    method,
    url,
    headers: { accesstoken: tokens[role] },
    ...(payload ? { payload } : {}),
  });
}

async function preview(content: string, role: Role = 'admin'): Promise<SpendPreviewData> {
  const res = await call(role, 'POST', '/api/admin/spend-imports/preview', {
    fileName: 'report.csv',
    content,
  });
  expect(res.statusCode, res.body).toBe(200);
  return body<SpendPreviewData>(res).data;
}

async function commit(
  content: string,
  fileName = 'report.csv',
  role: Role = 'admin',
): Promise<SpendImportResult> {
  const res = await call(role, 'POST', '/api/admin/spend-imports', { fileName, content });
  expect(res.statusCode, res.body).toBe(200);
  return body<SpendImportResult>(res).data;
}

const spendEntries = () =>
  db()
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.kind, 'channel_cost'), eq(ledgerEntries.model, 'spend')))
    .orderBy(asc(ledgerEntries.id));

const FILE = [
  '日期,渠道编码,消耗(元)',
  `${yesterday},sp-a,"1,234.56"`,
  `${yesterday},sp-b,100`,
  `${twoAgo},sp-cpc,10`,
  `${yesterday},nosuch,5`,
].join('\r\n');

beforeAll(async () => {
  ctx = await createTestApp();
  for (const role of ['admin', 'operator', 'viewer', 'channel_partner'] as const) {
    const s = await staffLogin(ctx.app, role, {
      name: `消耗${role}`,
      ...(role === 'channel_partner' ? { channelCodes: ['sp-a'] } : {}),
    });
    tokens[role] = s.token;
    staffIds[role] = s.id;
  }
  const made = await db()
    .insert(channels)
    .values([
      { adChannelCode: 'sp-a', name: '消耗 A' },
      { adChannelCode: 'sp-b', name: '消耗 B' },
      { adChannelCode: 'sp-cpc', name: '按点击' },
    ])
    .returning({ id: channels.id, code: channels.adChannelCode });
  ids.a = made.find((c) => c.code === 'sp-a')!.id;
  ids.b = made.find((c) => c.code === 'sp-b')!.id;
  ids.cpc = made.find((c) => c.code === 'sp-cpc')!.id;
  await db()
    .insert(channelCosts)
    .values([
      { channelId: ids.b, model: 'spend', effectiveFrom: shanghaiDayStart(addDays(today, -10)) },
      {
        channelId: ids.cpc,
        model: 'cpc',
        amountFen: 30,
        effectiveFrom: shanghaiDayStart(addDays(today, -10)),
      },
    ]);
});
afterAll(async () => ctx?.close());

describe(`spend imports (${BACKEND})`, () => {
  let firstId = 0;

  it('the preview judges every row, shows each rejected one with its reason, writes nothing', async () => {
    const data = await preview(FILE);
    expect(data.rows).toEqual([
      {
        line: 2,
        day: yesterday,
        channelCode: 'sp-a',
        amountFen: 123_456,
        status: 'ok',
        bookedFen: 0,
        deltaFen: 123_456,
      },
      {
        line: 3,
        day: yesterday,
        channelCode: 'sp-b',
        amountFen: 10_000,
        status: 'ok',
        bookedFen: 0,
        deltaFen: 10_000,
      },
      {
        line: 4,
        day: twoAgo,
        channelCode: 'sp-cpc',
        amountFen: 1_000,
        status: 'rejected',
        reason: '该渠道当日按「按点击 CPC」计费，消耗不计入成本',
      },
      {
        line: 5,
        day: yesterday,
        channelCode: 'nosuch',
        amountFen: 500,
        status: 'rejected',
        reason: '渠道编码「nosuch」不存在',
      },
    ]);
    expect(data).toMatchObject({ accepted: 2, rejected: 2, totalFen: 133_456, alreadyImported: null });
    expect(await db().select().from(spendImports)).toEqual([]);
    expect(await spendEntries()).toEqual([]);
  });

  it('the import books the accepted rows and skips the bad ones; audited', async () => {
    const data = await commit(FILE, '巨量日报-1.csv');
    expect(data).toMatchObject({
      repeated: false,
      accepted: 2,
      rejected: 2,
      totalFen: 133_456,
      entriesBooked: 2,
      bookedFen: 133_456,
      import: {
        fileName: '巨量日报-1.csv',
        rowsTotal: 4,
        rowsImported: 2,
        rowsRejected: 2,
        totalFen: 133_456,
        createdByName: '消耗admin',
      },
    });
    firstId = data.import.id;
    const entries = await spendEntries();
    expect(
      entries.map((e) => [e.reference, e.partyId, e.partyCode, e.amountFen, e.basisFen, e.month]),
    ).toEqual([
      [`spend:${ids.a}:${yesterday}:${firstId}`, ids.a, 'sp-a', 123_456, 123_456, yesterday.slice(0, 7)],
      [`spend:${ids.b}:${yesterday}:${firstId}`, ids.b, 'sp-b', 10_000, 10_000, yesterday.slice(0, 7)],
    ]);
    expect(entries[0]).toMatchObject({
      partyType: 'channel',
      channelCode: 'sp-a',
      staffId: staffIds.admin,
      reason: '导入 巨量日报-1.csv 第 2 行',
    });
    expect(entries[0]!.eventAt.toISOString()).toBe(shanghaiDayStart(yesterday).toISOString());
    const stored = await db().select().from(spendRows).orderBy(asc(spendRows.line));
    expect(stored.map((r) => [r.importId, r.line, r.day, r.channelId, r.channelCode, r.amountFen])).toEqual([
      [firstId, 2, yesterday, ids.a, 'sp-a', 123_456],
      [firstId, 3, yesterday, ids.b, 'sp-b', 10_000],
    ]);
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'spend_import'), eq(auditLog.entityId, String(firstId))));
    expect(audit).toMatchObject({ action: 'import', staffId: staffIds.admin });
    expect(audit!.after).toMatchObject({
      fileName: '巨量日报-1.csv',
      rowsImported: 2,
      rowsRejected: 2,
      totalFen: 133_456,
    });
  });

  it('the same file again answers the earlier import, repeated, and books nothing', async () => {
    const again = await commit(FILE, '另一个名字.csv');
    expect(again).toMatchObject({ repeated: true, entriesBooked: 0, bookedFen: 0, import: { id: firstId } });
    expect(await spendEntries()).toHaveLength(2);
    expect(await db().select().from(spendImports)).toHaveLength(1);
    const p = await preview(FILE);
    expect(p.alreadyImported).toMatchObject({ id: firstId, fileName: '巨量日报-1.csv' });
    expect(p.rows[0]).toMatchObject({ bookedFen: 123_456, deltaFen: 0 });
  });

  it('a corrected figure books only the difference; an unchanged day books nothing', async () => {
    const up = await commit(
      `date,adChannelCode,spend_fen\n${yesterday},sp-a,130000\n${yesterday},sp-b,10000\n`,
      'fix.csv',
      'operator',
    );
    expect(up).toMatchObject({ repeated: false, entriesBooked: 1, bookedFen: 6_544 });
    expect(up.rows[0]).toMatchObject({ bookedFen: 123_456, deltaFen: 6_544 });
    expect(up.rows[1]).toMatchObject({ bookedFen: 10_000, deltaFen: 0 });
    const down = await commit(`date,adChannelCode,spend_yuan\n${yesterday},sp-a,1200\n`, 'fix2.csv');
    expect(down).toMatchObject({ entriesBooked: 1, bookedFen: -10_000 });
    const entries = await spendEntries();
    expect(entries.map((e) => [e.reference, e.amountFen])).toEqual([
      [`spend:${ids.a}:${yesterday}:${firstId}`, 123_456],
      [`spend:${ids.b}:${yesterday}:${firstId}`, 10_000],
      [`spend:${ids.a}:${yesterday}:${up.import.id}`, 6_544],
      [`spend:${ids.a}:${yesterday}:${down.import.id}`, -10_000],
    ]);
    // What is booked for the channel-day is the latest figure.
    const a = entries.filter((e) => e.partyId === ids.a).reduce((s, e) => s + e.amountFen, 0);
    expect(a).toBe(120_000);
  });

  it('a file that cannot be read, or without one acceptable row, is refused in words', async () => {
    const cases: [string, RegExp][] = [
      ['date,spend_yuan\n2026-01-01,1', /缺少 adChannelCode/],
      [`日期,渠道编码,消耗(元)\n"${yesterday},sp-a,1`, /引号/],
      [`日期,渠道编码,消耗(元)\n${addDays(today, 1)},sp-a,1`, /没有可导入的行/],
    ];
    for (const [content, msg] of cases) {
      const res = await call('admin', 'POST', '/api/admin/spend-imports', { fileName: 'bad.csv', content });
      expect(res.statusCode, content).toBe(400);
      expect(body(res).msg).toMatch(msg);
    }
    for (const payload of [{ fileName: 'x.csv', content: '   ' }, { content: 'a' }, { fileName: 'x.csv' }]) {
      const res = await call('admin', 'POST', '/api/admin/spend-imports/preview', payload);
      expect(res.statusCode).toBe(400);
    }
    const future = await preview(`日期,渠道编码,消耗(元)\n${addDays(today, 1)},sp-a,1`);
    expect(future.rows[0]!.reason).toBe(`日期 ${addDays(today, 1)} 是未来的日期（北京时间今天是 ${today}）`);
  });

  it('the list: latest first, who and counts; a viewer without totals; a channel partner refused', async () => {
    const res = await call('admin', 'GET', '/api/admin/spend-imports');
    const data = body<SpendImportsData>(res).data;
    expect(data.amountsShown).toBe(true);
    expect(
      data.list.map((i) => [i.fileName, i.rowsImported, i.rowsRejected, i.totalFen, i.createdByName]),
    ).toEqual([
      ['fix2.csv', 1, 0, 120_000, '消耗admin'],
      ['fix.csv', 2, 0, 140_000, '消耗operator'],
      ['巨量日报-1.csv', 2, 2, 133_456, '消耗admin'],
    ]);
    const viewer = body<SpendImportsData>(await call('viewer', 'GET', '/api/admin/spend-imports')).data;
    expect(viewer.amountsShown).toBe(false);
    expect(viewer.list).toHaveLength(3);
    for (const i of viewer.list) expect(i).not.toHaveProperty('totalFen');
    expect((await call('operator', 'GET', '/api/admin/spend-imports')).statusCode).toBe(200);
  });

  it('a viewer and a channel partner may not preview nor import', async () => {
    for (const role of ['viewer', 'channel_partner'] as const) {
      for (const url of ['/api/admin/spend-imports/preview', '/api/admin/spend-imports']) {
        const res = await call(role, 'POST', url, { fileName: 'x.csv', content: FILE });
        expect(res.statusCode, `${role} ${url}`).toBe(403);
      }
    }
    expect((await call('channel_partner', 'GET', '/api/admin/spend-imports')).statusCode).toBe(403);
    expect(await db().select().from(spendImports)).toHaveLength(3);
  });
});
