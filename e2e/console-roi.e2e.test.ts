/**
 * Issue 48.6 in the console: an admin opens 投放收益 with money on the books — a channel running an A/B test of
 * skins 17 and 9 with spend, lead revenue and a return over two days, and a channel that loses money — and sees
 * the channel's row with its margin and ROI, the trend chart, the top and bottom channels and the skin A/B arms
 * with the A/B page's significance; the 按皮肤 grouping splits the cost over the skins.
 */
import { shanghaiMonthOf } from '@lm/shared/money';
import { addDays, shanghaiDate } from '@lm/shared/time';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, shot, unexpectedErrors } from './browser.ts';
import { consolePage } from './console.ts';
import { type RunningServer, runCli, startServer } from './server.ts';

let server: RunningServer;
let browser: Browser;

const ADMIN = { phone: '13500000094', name: '收益管理员', password: 'roi console e2e' };
const today = shanghaiDate();
const yesterday = addDays(today, -1);
/** Noon in Shanghai of a day, as the UTC instant. */
const noon = (day: string) => `${day}T04:00:00Z`;

function entry(
  kind: string,
  party: 'channel' | 'lender',
  code: string,
  day: string,
  fen: number,
  reference: string,
  channelCode: string | null = null,
) {
  const partyId =
    party === 'channel'
      ? `(select id from channels where ad_channel_code = '${code}')`
      : `(select id from partners where code = '${code}')`;
  return `insert into ledger_entries (kind, party_type, party_id, party_code, month, event_month, event_at, amount_fen, reference, channel_code)
    values ('${kind}', '${party}', ${partyId}, '${code}', '${shanghaiMonthOf(new Date(noon(day)))}', '${shanghaiMonthOf(new Date(noon(day)))}', '${noon(day)}', ${fen}, '${reference}', ${channelCode === null ? 'null' : `'${channelCode}'`})`;
}

const clicks = (code: string, day: string, skin: number, n: number) =>
  `insert into channel_clicks (ad_channel_code, fingerprint_hash, day, ab_test_type)
    select '${code}', 'e2e-roi-${code}-${day}-${skin}-' || g, '${day}', ${skin} from generate_series(1, ${n}) g`;

beforeAll(async () => {
  // The embedded database belongs to one process: seed it (migrations, channels, lenders), stop, then add the
  // account and the books, and start again on the same data.
  const first = await startServer();
  expect(await first.stop()).toBe(0);
  await runCli(
    [
      'apps/server/src/cli/admin-create.ts',
      '--phone',
      ADMIN.phone,
      '--name',
      ADMIN.name,
      '--role',
      'admin',
      '--password',
      ADMIN.password,
    ],
    { DATA_DIR: first.dataDir },
  );
  await runCli(
    [
      'e2e/db-sql.ts',
      `insert into channels (ad_channel_code, name, flags, skin_arms) values ('roi-ab', 'A/B渠道', 'skin17', '[{"skin":17,"weight":1},{"skin":9,"weight":1}]'::jsonb)`,
      `insert into channels (ad_channel_code, name, flags) values ('roi-loss', '亏损渠道', 'skin8')`,
      clicks('roi-ab', yesterday, 17, 30),
      clicks('roi-ab', yesterday, 9, 30),
      clicks('roi-ab', today, 17, 40),
      clicks('roi-ab', today, 9, 40),
      clicks('roi-loss', today, 8, 10),
      entry('channel_cost', 'channel', 'roi-ab', yesterday, 30_000, `e2e:spend:roi-ab:${yesterday}`),
      entry('channel_cost', 'channel', 'roi-ab', today, 20_000, `e2e:spend:roi-ab:${today}`),
      entry('lead_revenue', 'lender', 'partner-a', yesterday, 45_000, 'e2e:rev:1', 'roi-ab'),
      entry('lead_revenue', 'lender', 'partner-a', today, 38_000, 'e2e:rev:2', 'roi-ab'),
      entry('return', 'lender', 'partner-a', today, -5_000, 'e2e:return:1', 'roi-ab'),
      entry('channel_cost', 'channel', 'roi-loss', today, 12_000, `e2e:spend:roi-loss:${today}`),
      entry('lead_revenue', 'lender', 'partner-a', today, 3_000, 'e2e:rev:3', 'roi-loss'),
    ],
    { DATA_DIR: first.dataDir },
  );
  server = await startServer({}, first.dataDir);
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('投放收益 in the console (issue 48.6)', () => {
  it("an admin sees the channel's row, the trend, top and bottom channels and the skin A/B arms", async () => {
    const { page, errors, context } = await consolePage(browser, server, ADMIN);
    await page.getByRole('menuitem', { name: '投放收益' }).click();
    await page.waitForURL(/\/admin\/roi/);
    await page.getByRole('heading', { name: '投放收益' }).waitFor();

    // roi-ab: revenue 830.00, returned 50.00, cost 500.00 → margin 280.00, ROI 56%.
    const detail = page.getByRole('region', { name: '投放收益明细' });
    const table = detail.getByRole('table').first();
    const abRow = detail.getByRole('row', { name: /roi-ab/ }).first();
    await abRow.waitFor({ timeout: 15_000 });
    const abRowText = await abRow.innerText();
    for (const figure of ['500.00', '830.00', '50.00', '280.00', '56%', '140'])
      expect(abRowText, abRowText).toContain(figure);
    const lossText = await page
      .getByRole('row', { name: /亏损渠道/ })
      .first()
      .innerText();
    expect(lossText).toContain('-90.00');
    expect(lossText).toContain('-75%');
    expect(await table.innerText()).toContain('合计');

    await page.getByRole('img', { name: '收益趋势：收入、成本、毛利' }).waitFor();
    await page.getByRole('img', { name: '毛利最高与最低的渠道' }).waitFor();
    await page.getByRole('img', { name: '各皮肤每访客收入' }).waitFor();
    await shot(page, 'console-roi-by-channel');
    const ab = page.getByRole('region', { name: 'A/B 分组 roi-ab' });
    await ab.waitFor();
    const abText = await ab.innerText();
    expect(abText).toContain('skin17');
    expect(abText).toContain('skin9');
    expect(abText).toContain('对照组');
    // The A/B page's verdict for 授权 (nobody authorised: the sample gives no conclusion).
    expect(abText).toContain('样本不足');
    // skin 17: revenue 780.00 (the channel's own skin) over 70 visitors → 11.14 元.
    expect(abText).toContain('11.14');
    await shot(page, 'console-roi-by-channel');

    // By skin: the cost of each channel-day split over its skins' clicks (half each for roi-ab).
    await page.getByText('按皮肤', { exact: true }).click();
    await page.waitForURL(/groupBy=skin/);
    const skin9 = detail.getByRole('row', { name: /^skin9/ }).first();
    await expect.poll(() => skin9.innerText(), { timeout: 15_000 }).toContain('250.00');
    await page.waitForTimeout(300);
    await shot(page, 'console-roi-by-skin');

    // By day: one row per day with money.
    await page.getByText('按日期', { exact: true }).click();
    const dayRow = detail.getByRole('row', { name: new RegExp(yesterday) }).first();
    await expect.poll(() => dayRow.innerText(), { timeout: 15_000 }).toContain('300.00');
    await shot(page, 'console-roi-by-day');

    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  });
});
