import { LinkType, SKINS, THEMES, type ThemeName } from '@lm/shared/channel';
import { getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { channels, routeCodes } from '../../db/schema.ts';
import { type DemoOperatorCode, seedDemoOperators } from '../operators/seed.ts';

type NewChannel = Omit<typeof channels.$inferInsert, 'id' | 'createdAt' | 'updatedAt' | 'operatorId'>;
/**
 * A demo channel, the operator its footer, agreements and SMS name (ADR 057; null: the configured one), and
 * one line on what it shows (docs/demo.md).
 */
export type DemoChannel = NewChannel & { operatorCode: DemoOperatorCode | null; note: string };
export type DemoRouteCode = typeof routeCodes.$inferInsert & { note: string };

const PARTNER_HOST = 'partner.example.com';
const OCEANENGINE = { platform: 'oceanengine', params: ['clickid', 'callback'] };
const BAIDU = { platform: 'baidu', params: ['bd_vid'] };
const KUAISHOU = { platform: 'kuaishou', params: ['callback'] };
const TENCENT = { platform: 'tencent', params: ['gdt_vid', 'qz_gdt'] };

/** A small square icon in the theme colour (data URI, no file to serve). */
function iconFor(theme: ThemeName): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="${THEMES[theme].primary}"/><path d="M9 11h14v3H9zm0 6h14v3H9z" fill="#fff"/></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

const base = {
  channelStatus: 1,
  linkType: LinkType.API_FORM_H5,
  excludeCityCodes: [] as string[],
  planTargetUrl: null,
  pageIcon: null,
  needsLocation: false,
  trackReport: null,
  allowedHosts: [PARTNER_HOST],
} satisfies Partial<NewChannel>;

/** Colour variants spread over the skin channels (red is the default: no colour flag). */
const SKIN_COLOURS: (ThemeName | null)[] = ['purple', 'shallowBlue', 'halo', 'teal', null];

/**
 * The product name each skin channel shows as its brand and page title (made-up names that read like
 * a lender's product, never "借款皮肤N": a demo looks like what a visitor would see).
 */
const SKIN_BRANDS: Record<(typeof SKINS)[number], string> = {
  8: '星河易借',
  9: '恒信速贷',
  10: '安途信用借',
  11: '禾丰易贷',
  12: '云帆借款',
  13: '青禾分期',
  14: '金穗快借',
  15: '瑞丰信用贷',
  16: '锦程e借',
  17: '卓远借款',
  18: '优享额度',
  19: '远航易借',
  20: '润泽信用',
  21: '嘉禾快贷',
  22: '乐融分期',
  23: '汇通小额借',
};

/**
 * Demo channels served outside production. The flow demos use linkType 4 (API form H5 redirect): the
 * post-login decision sends every link type except 1 and 3 down the default flow (spec §4).
 */
export const DEMO_CHANNELS: DemoChannel[] = [
  {
    ...base,
    adChannelCode: 'demo',
    name: '演示渠道（默认流程）',
    flags: 'skin17',
    pageTitle: '极速借款',
    trackReport: OCEANENGINE,
    operatorCode: 'xinghe',
    note: 'default flow, skin17, red; ocean-engine callback parameters (clickid, callback) captured',
  },
  {
    ...base,
    adChannelCode: 'demo-fenqile',
    name: '演示渠道（分期乐流程）',
    flags: 'skin17-fenqile',
    pageTitle: '分期借款',
    pageIcon: iconFor('red'),
    operatorCode: 'yunfan',
    note: 'fenqile flow: form, re-match and authorise at /new-fill-information',
  },
  {
    ...base,
    adChannelCode: 'demo-formprocess3',
    name: '演示渠道（表单流程三）',
    flags: 'skin17-formprocess3',
    pageTitle: '额度评估',
    operatorCode: 'yunfan',
    note: 'form process 3: /fill-information-three/…',
  },
  {
    ...base,
    adChannelCode: 'demo-formprocess4',
    name: '演示渠道（表单流程四）',
    flags: 'skin17-formprocess4',
    pageTitle: '额度评估',
    operatorCode: 'yunfan',
    note: 'form process 4: /fill-information-four',
  },
  {
    ...base,
    adChannelCode: 'demo-haier',
    name: '演示渠道（海尔自动表单）',
    flags: 'skin17-haier',
    pageTitle: '海尔消费借款',
    operatorCode: 'hexin',
    note: 'Haier automatic form: /fill-information/waiting-result',
  },
  {
    ...base,
    adChannelCode: 'demo-location',
    name: '演示渠道（定位与排除城市）',
    linkType: LinkType.API,
    flags: 'skin17',
    pageTitle: '本地借款',
    needsLocation: true,
    // 北京、上海、深圳
    excludeCityCodes: ['110100', '310100', '440300'],
    trackReport: BAIDU,
    operatorCode: 'qianhai',
    note: 'asks for location; linkType 2; Beijing 110100, Shanghai 310100 and Shenzhen 440300 excluded → /register/success',
  },
  {
    ...base,
    adChannelCode: 'demo-link1',
    name: '演示渠道（H5跳转）',
    linkType: LinkType.H5_REDIRECT,
    flags: 'skin17',
    pageTitle: '合作方借款',
    planTargetUrl: `https://${PARTNER_HOST}/apply`,
    operatorCode: 'xinghe',
    note: `linkType 1 (H5 redirect): registerLink after login; plan URL https://${PARTNER_HOST}/apply`,
  },
  {
    ...base,
    adChannelCode: 'demo-crm',
    name: '演示渠道（CRM征信流程）',
    linkType: LinkType.CRM,
    flags: 'skin17',
    pageTitle: '信用借款',
    operatorCode: 'hexin',
    note: 'linkType 3 (CRM): the credit flow after login (identity / face verification by the form config)',
  },
  {
    ...base,
    adChannelCode: 'demo-off',
    name: '演示渠道（已关闭）',
    channelStatus: 0,
    flags: 'skin17',
    pageTitle: '极速借款',
    operatorCode: 'xinghe',
    note: 'channelStatus 0: the H5 reloads at the original address',
  },
  ...SKINS.map((n, i): DemoChannel => {
    const colour = SKIN_COLOURS[i % SKIN_COLOURS.length]!;
    const theme: ThemeName = colour ?? 'red';
    return {
      ...base,
      adChannelCode: `demo-skin${n}`,
      name: `演示渠道（皮肤${n}·${THEMES[theme].name}）`,
      flags: colour ? `skin${n}-${colour}` : `skin${n}`,
      pageTitle: SKIN_BRANDS[n],
      pageIcon: iconFor(theme),
      // One demo channel per ad platform reports conversions (modules/conversions/seed.ts): skin 11 Kuaishou,
      // skin 14 Tencent.
      trackReport:
        n === 11 ? KUAISHOU : n === 14 ? TENCENT : n % 3 === 0 ? OCEANENGINE : n % 3 === 1 ? BAIDU : null,
      operatorCode: n % 2 === 0 ? 'qianhai' : 'yunfan',
      note: `skin ${n}, ${THEMES[theme].name} (${THEMES[theme].primary})`,
    };
  }),
];

export const DEMO_ROUTE_CODES: DemoRouteCode[] = [
  { routeCode: 'r-demo', adChannelCode: 'demo', planTargetUrl: null, status: 1, note: '→ demo, no plan URL' },
  {
    routeCode: 'r-fenqile',
    adChannelCode: 'demo-fenqile',
    planTargetUrl: null,
    status: 1,
    note: '→ demo-fenqile',
  },
  {
    routeCode: 'r-plan',
    adChannelCode: 'demo',
    planTargetUrl: '/login?adChannelCode=demo&from=plan',
    status: 1,
    note: '→ demo, then a redirect to its plan URL /login?adChannelCode=demo&from=plan',
  },
  {
    routeCode: 'r-link1',
    adChannelCode: 'demo-link1',
    planTargetUrl: null,
    status: 1,
    note: `→ demo-link1 with the channel's plan URL (https://${PARTNER_HOST}/apply: leaves the site)`,
  },
  {
    routeCode: 'r-off',
    adChannelCode: 'demo',
    planTargetUrl: null,
    status: 0,
    note: 'disabled: the exchange answers 404 路由码已停用',
  },
];

/** `excluded.<column>` for every column but the key and creation time: re-seeding updates the rows. */
function excludedSet<T extends Record<string, { name: string }>>(columns: T, skip: (keyof T)[]) {
  return Object.fromEntries(
    Object.entries(columns)
      .filter(([key]) => !skip.includes(key))
      .map(([key, col]) => [key, sql.raw(`excluded.${col.name}`)]),
  );
}

/** Upserts the demo operators, channels and route codes (runs at start outside production). */
export async function seedDemoChannels(db: Db): Promise<void> {
  const operatorIds = await seedDemoOperators(db);
  await db
    .insert(channels)
    .values(
      DEMO_CHANNELS.map(({ note: _, operatorCode, ...c }) => ({
        ...c,
        operatorId: operatorCode ? (operatorIds.get(operatorCode) ?? null) : null,
        updatedAt: new Date(),
      })),
    )
    .onConflictDoUpdate({
      target: channels.adChannelCode,
      set: excludedSet(getTableColumns(channels), ['id', 'adChannelCode', 'createdAt']),
    });
  await db
    .insert(routeCodes)
    .values(DEMO_ROUTE_CODES.map(({ note: _, ...r }) => r))
    .onConflictDoUpdate({
      target: routeCodes.routeCode,
      set: excludedSet(getTableColumns(routeCodes), ['routeCode', 'createdAt']),
    });
}
