/** Set-up shared by catalog.test.ts and catalog-apply.test.ts (issue 18: one file was 820 lines). */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { partners, products } from '../src/db/schema.ts';
import { createTestApp, type TestContext } from './helpers.ts';

export interface Item {
  id: string;
  productName: string;
  companyType: string;
  institutionType: number;
  thirdpartyType: number;
  yqlWholeProcessBumpVO: { partnerProductName: string } | null;
  linkType: number;
  amountMinFen: number;
  amountMaxFen: number;
  termMinMonths: number;
  termMaxMonths: number;
  aprBps: number | null;
  lenderLegalName: string;
  thirdpartyTargetUrl: string | null;
}
export interface Page {
  list: Item[];
  total: number;
  pageNum: number;
  pageSize: number;
}
export type TodayItem = Item & { appliedAt: string; sources: string[] };

export let ctx: TestContext;
export const db = () => ctx.app.database.db;

export const get = (url: string, token?: string, ip = '10.9.9.9') =>
  ctx.app.inject({
    method: 'GET',
    url,
    headers: token ? { accesstoken: token } : {},
    remoteAddress: ip,
  });
export const post = (url: string, payload: unknown, token?: string) =>
  ctx.app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers: token ? { accesstoken: token } : {},
  });

/** Ids of the products added by this file, by code. */
export const ids: Record<string, number> = {};
export const idOf = async (code: string) => {
  const [row] = await db().select({ id: products.id }).from(products).where(eq(products.code, code));
  return row!.id;
};

/** Every listed product (published, active lender) in catalogue order, computed independently. */
export async function expectedCatalogue() {
  const rows = await db()
    .select({ product: products, partnerStatus: partners.status })
    .from(products)
    .innerJoin(partners, eq(products.partnerId, partners.id));
  return rows
    .filter((r) => r.product.status === 'published' && r.partnerStatus === 'active')
    .map((r) => r.product)
    .sort((a, b) => b.priority - a.priority || b.priceFen - a.priceFen || a.id - b.id);
}

const product = (code: string, partnerId: number, over: Partial<typeof products.$inferInsert>) => ({
  code,
  partnerId,
  productName: code,
  companyType: 'KAInstitution' as const,
  institutionType: 1,
  linkType: 2,
  amountMinFen: 100_000,
  amountMaxFen: 1_000_000,
  termMinMonths: 3,
  termMaxMonths: 12,
  aprBps: 1500,
  priority: 50,
  priceFen: 3000,
  status: 'published' as const,
  sharedFields: ['realName'],
  ...over,
});

/** Shanghai HH:MM `hours` from now. */
const hhmmIn = (hours: number) => new Date(Date.now() + (8 + hours) * 3600_000).toISOString().slice(11, 16);
/** A window that does not contain the present moment (it starts in two hours). */
export const CLOSED_NOW = { from: hhmmIn(2), to: hhmmIn(3) };

/**
 * The app of a catalogue test file with the products it adds (lenders with and without allowed hosts, a
 * suspended lender, closed hours, no page), their ids in `ids`; call once at the top of the file.
 */
export function useCatalogApp(): void {
  beforeAll(async () => {
    ctx = await createTestApp();
    const partner = (code: string, allowedHosts: string[], status: 'active' | 'suspended') => ({
      code,
      legalName: `${code} 小额贷款有限公司`,
      licenceNumber: `备案 ${code}`,
      contactName: '测试',
      contactPhoneEnc: 'v1.test',
      contactPhoneMasked: '138****0000',
      allowedHosts,
      status,
    });
    const [hosts, suspended] = await db()
      .insert(partners)
      .values([
        partner('zz-hosts', ['good.example.com'], 'active'),
        partner('zz-suspended', ['suspended.example.com'], 'suspended'),
      ])
      .returning({ id: partners.id });
    const added = await db()
      .insert(products)
      .values([
        // An H5 product whose page is not on its lender's allowed hosts.
        product('zz-bad-host', hosts!.id, {
          linkType: 1,
          targetUrl: 'https://evil.example.net/apply',
          priority: 58,
        }),
        // An H5 form product on an allowed host (host compared case-insensitively).
        product('zz-good-h5', hosts!.id, {
          linkType: 4,
          targetUrl: 'https://GOOD.example.com/form?from=lm',
          companyType: 'RegionInstitution',
          institutionType: 4,
        }),
        // Outside its active hours right now.
        product('zz-closed', hosts!.id, {
          linkType: 1,
          targetUrl: 'https://good.example.com/closed',
          activeHours: CLOSED_NOW,
          priority: 5,
        }),
        // An H5 product without a page at all.
        product('zz-no-url', hosts!.id, { linkType: 1, targetUrl: null, priority: 10 }),
        // Published, but its lender is suspended: never shown, never applied to.
        product('zz-suspended-h5', suspended!.id, {
          linkType: 1,
          targetUrl: 'https://suspended.example.com/apply',
          priority: 999,
        }),
      ])
      .returning({ id: products.id, code: products.code });
    for (const p of added) ids[p.code] = p.id;
    for (const code of [
      'a-jisudai',
      'a-xinyongdai',
      'a-paused',
      'c-draft-high-apr',
      'c-quanliucheng',
      'e-h5form',
    ])
      ids[code] = await idOf(code);
  });
  afterAll(async () => ctx?.close());
}
