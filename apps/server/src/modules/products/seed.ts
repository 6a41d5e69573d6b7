import { maskPhone } from '@lm/shared/mask';
import { getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type DeliveryMode, partners, products } from '../../db/schema.ts';
import { encryptField, type KeyRing } from '../../lib/crypto.ts';
import { canPublish } from '../matching/publish.ts';

type NewPartner = Omit<
  typeof partners.$inferInsert,
  'id' | 'createdAt' | 'updatedAt' | 'contactPhoneEnc' | 'contactPhoneMasked' | 'signingSecretEnc'
>;
/** A fictional lender; phone and secret are encrypted when seeded. */
export type DemoPartner = NewPartner & { contactPhone: string; signingSecret: string | null };
/** A demo product, its partner named by code. */
export type DemoProduct = Omit<
  typeof products.$inferInsert,
  'id' | 'partnerId' | 'createdAt' | 'updatedAt'
> & {
  partnerCode: string;
};

const host = (letter: string) => `partner-${letter}.example.com`;
const MODES: Record<string, DeliveryMode> = {
  '1': 'h5Redirect',
  '2': 'api',
  '3': 'api',
  '4': 'h5Redirect',
  '5': 'callback',
  '6': 'api',
  '7': 'api',
  '8': 'jointLogin',
  '9': 'api',
};

function partner(
  letter: string,
  legalName: string,
  licenceNumber: string,
  contactName: string,
  contactPhone: string,
): DemoPartner {
  return {
    code: `partner-${letter}`,
    legalName,
    licenceNumber,
    contactName,
    contactPhone,
    apiEndpoint: `https://${host(letter)}/api/leads`,
    signingSecret: `demo-signing-secret-partner-${letter}`,
    allowedHosts: [host(letter)],
    deliveryModes: MODES,
    status: 'active',
  };
}

/** Fictional lenders (names, licences and phones are invented). */
export const DEMO_PARTNERS: DemoPartner[] = [
  partner('a', '星河消费金融有限公司', '金融许可证 S0001H211000001', '张经理', '13800000001'),
  partner('b', '云帆小额贷款有限公司', '沪金小贷备字〔2026〕001号', '李经理', '13800000002'),
  partner('c', '前海融通消费金融有限公司', '金融许可证 S0002H244030001', '王经理', '13800000003'),
  partner('d', '杭州和信小额贷款有限公司', '浙金小贷备字〔2026〕002号', '赵经理', '13800000004'),
  partner('e', '南湖农村商业银行股份有限公司', '金融许可证 B0003S233010001', '陈经理', '13800000005'),
  partner('f', '蓝海网络小额贷款有限公司', '粤金小贷备字〔2026〕003号', '刘经理', '13800000006'),
  partner('g', '晨光消费金融有限公司', '金融许可证 S0004H237010001', '周经理', '13800000007'),
  partner('h', '成都德润小额贷款有限公司', '川金小贷备字〔2026〕004号', '吴经理', '13800000008'),
];

const FORM_FIELDS = ['realName', 'mobile', 'identity', 'workCityCode', 'applyLimit'];
const FULL_FIELDS = [
  ...FORM_FIELDS,
  'job',
  'socialSecurity',
  'housingFund',
  'insurance',
  'houseProperty',
  'carProperty',
  'sesameCredit',
  'creditInvestigation',
];
const yuan = (n: number) => n * 100;

const base = {
  companyType: 'KAInstitution',
  institutionType: 1,
  thirdpartyType: 0,
  partnerProductName: null,
  termMinMonths: 3,
  termMaxMonths: 36,
  targetUrl: null,
  dailyCap: null,
  totalCap: null,
  priority: 50,
  priceFen: yuan(30),
  activeHours: null,
  status: 'published',
  sharedFields: FULL_FIELDS,
} satisfies Partial<DemoProduct>;

/**
 * Demo products that make the rarer answers of a match reachable at any hour (issue 16.9), each in a
 * city no other product singles out (see docs/demo.md "Demo states"):
 * - Lhasa (540100): a product whose daily cap is 0 — a person who qualifies for nothing else (a large
 *   amount, no contributions, assets or good credit, over 50) gets applyStatus 0, the sold-out alert.
 * - Yinchuan (640100): an H5-redirect (link type 1) and a joint-login (link type 8) product ranked
 *   first, so a match there offers both.
 * - Xining (630100): a product of a lender with a duplicate pre-check and its own login page: a person
 *   that lender already has (with the partner sandbox, any phone it received a lead for) and who
 *   qualifies for nothing else gets applyStatus 2, the "already registered" confirm → /inline-page.
 */
export const STATE_DEMO_PRODUCTS: DemoProduct[] = [
  {
    ...base,
    code: 'h-lhasa-soldout',
    partnerCode: 'partner-h',
    productName: '德润高原贷（演示：今日名额已满）',
    companyType: 'RegionInstitution',
    institutionType: 4,
    linkType: 2,
    amountMinFen: yuan(1_000),
    amountMaxFen: yuan(300_000),
    aprBps: 1900,
    rules: { citiesIn: ['540100'] },
    dailyCap: 0,
  },
  {
    ...base,
    code: 'a-yinchuan-h5',
    partnerCode: 'partner-a',
    productName: '星河塞上快贷',
    linkType: 1,
    targetUrl: `https://${host('a')}/apply?from=lm&city=640100`,
    amountMinFen: yuan(1_000),
    amountMaxFen: yuan(100_000),
    aprBps: 2100,
    rules: { citiesIn: ['640100'] },
    priority: 99,
    sharedFields: FORM_FIELDS,
  },
  {
    ...base,
    code: 'd-yinchuan-joint',
    partnerCode: 'partner-d',
    productName: '和信塞上联合贷',
    companyType: 'RegionInstitution',
    institutionType: 3,
    linkType: 8,
    targetUrl: `https://${host('d')}/joint-login?city=640100`,
    amountMinFen: yuan(5_000),
    amountMaxFen: yuan(200_000),
    aprBps: 1650,
    rules: { citiesIn: ['640100'] },
    priority: 98,
  },
  {
    ...base,
    code: 'e-xining-registered',
    partnerCode: 'partner-e',
    productName: '南湖青海安心贷',
    institutionType: 3,
    linkType: 2,
    targetUrl: `https://${host('e')}/login?from=lm`,
    amountMinFen: yuan(1_000),
    amountMaxFen: yuan(300_000),
    aprBps: 1700,
    rules: { citiesIn: ['630100'] },
  },
];

/** About 20 products covering every company type, institution type, link type and rule kind. */
export const DEMO_PRODUCTS: DemoProduct[] = [
  {
    ...base,
    code: 'a-xinyongdai',
    partnerCode: 'partner-a',
    productName: '星河信用贷',
    linkType: 2,
    amountMinFen: yuan(1_000),
    amountMaxFen: yuan(200_000),
    aprBps: 1800,
    rules: { citiesIn: ['440000', '110000', '310000'], ageMin: 22, ageMax: 55 },
    dailyCap: 500,
    totalCap: 20_000,
    priority: 90,
    priceFen: yuan(80),
  },
  {
    ...base,
    code: 'a-jisudai',
    partnerCode: 'partner-a',
    productName: '星河极速贷',
    linkType: 1,
    targetUrl: `https://${host('a')}/apply?from=lm`,
    amountMinFen: yuan(5_000),
    amountMaxFen: yuan(50_000),
    aprBps: 2350,
    rules: { amountMinFen: yuan(5_000), amountMaxFen: yuan(50_000) },
    priority: 60,
    sharedFields: FORM_FIELDS,
  },
  {
    ...base,
    code: 'a-paused',
    partnerCode: 'partner-a',
    productName: '星河安居贷（暂停）',
    linkType: 2,
    amountMinFen: yuan(10_000),
    amountMaxFen: yuan(300_000),
    aprBps: 1200,
    rules: { requireHouse: true },
    status: 'paused',
  },
  {
    ...base,
    code: 'b-zhejiang',
    partnerCode: 'partner-b',
    productName: '云帆工薪贷',
    companyType: 'RegionInstitution',
    institutionType: 4,
    linkType: 2,
    amountMinFen: yuan(2_000),
    amountMaxFen: yuan(100_000),
    aprBps: 2200,
    rules: { citiesIn: ['330100', '330200', '310000'], jobs: ['employee', 'selfEmployed'] },
    dailyCap: 200,
  },
  {
    ...base,
    code: 'b-shebao',
    partnerCode: 'partner-b',
    productName: '云帆社保贷',
    companyType: 'RegionInstitution',
    institutionType: 4,
    linkType: 5,
    amountMinFen: yuan(3_000),
    amountMaxFen: yuan(150_000),
    aprBps: 1980,
    rules: { requireSocialSecurity: true },
    priority: 70,
    priceFen: yuan(45),
  },
  {
    ...base,
    code: 'b-crm',
    partnerCode: 'partner-b',
    productName: '云帆助业贷',
    companyType: 'RegionInstitution',
    institutionType: 4,
    linkType: 3,
    amountMinFen: yuan(10_000),
    amountMaxFen: yuan(500_000),
    aprBps: 1500,
    rules: { jobs: ['businessOwner'] },
  },
  {
    ...base,
    code: 'c-gongjijin',
    partnerCode: 'partner-c',
    productName: '前海公积金贷',
    institutionType: 2,
    linkType: 6,
    amountMinFen: yuan(10_000),
    amountMaxFen: yuan(300_000),
    aprBps: 1080,
    rules: { requireHousingFund: true, sesameMin: '650to700' },
    dailyCap: 100,
    totalCap: 5_000,
    priority: 85,
    priceFen: yuan(120),
  },
  {
    ...base,
    code: 'c-quanliucheng',
    partnerCode: 'partner-c',
    productName: '前海随心借',
    institutionType: 2,
    thirdpartyType: 7,
    partnerProductName: '前海融通·随心借',
    linkType: 7,
    amountMinFen: yuan(1_000),
    amountMaxFen: yuan(80_000),
    aprBps: 2300,
    rules: { creditRecord: ['none', 'good'] },
    priority: 75,
  },
  {
    ...base,
    code: 'c-draft-high-apr',
    partnerCode: 'partner-c',
    productName: '前海急用钱（草稿：年化超24%）',
    institutionType: 2,
    linkType: 2,
    amountMinFen: yuan(500),
    amountMaxFen: yuan(5_000),
    aprBps: 3600,
    rules: {},
    status: 'draft',
  },
  {
    ...base,
    code: 'c-callback',
    partnerCode: 'partner-c',
    productName: '前海回调贷',
    institutionType: 2,
    linkType: 5,
    amountMinFen: yuan(2_000),
    amountMaxFen: yuan(60_000),
    aprBps: 2100,
    rules: { ageMin: 22, ageMax: 50 },
    dailyCap: 50,
    totalCap: 1_000,
    priority: 40,
  },
  {
    ...base,
    code: 'd-baoxian',
    partnerCode: 'partner-d',
    productName: '和信保单贷',
    companyType: 'RegionInstitution',
    institutionType: 3,
    linkType: 8,
    targetUrl: `https://${host('d')}/joint-login`,
    amountMinFen: yuan(5_000),
    amountMaxFen: yuan(200_000),
    aprBps: 1600,
    rules: { requireInsurance: true, citiesOut: ['540000', '650000'] },
    priority: 65,
  },
  {
    ...base,
    code: 'd-fangdai',
    partnerCode: 'partner-d',
    productName: '和信房抵贷',
    companyType: 'RegionInstitution',
    institutionType: 3,
    linkType: 2,
    amountMinFen: yuan(50_000),
    amountMaxFen: yuan(1_000_000),
    termMaxMonths: 60,
    aprBps: 900,
    rules: { requireHouse: true, amountMinFen: yuan(50_000), amountMaxFen: yuan(1_000_000) },
    priceFen: yuan(200),
  },
  {
    ...base,
    code: 'e-chedai',
    partnerCode: 'partner-e',
    productName: '南湖车主贷',
    institutionType: 3,
    linkType: 2,
    amountMinFen: yuan(20_000),
    amountMaxFen: yuan(300_000),
    aprBps: 720,
    rules: { requireCar: true, citiesIn: ['330000'] },
    priority: 55,
  },
  {
    ...base,
    code: 'e-h5form',
    partnerCode: 'partner-e',
    productName: '南湖e贷',
    institutionType: 3,
    linkType: 4,
    targetUrl: `https://${host('e')}/form`,
    amountMinFen: yuan(3_000),
    amountMaxFen: yuan(100_000),
    aprBps: 1380,
    rules: { ageMin: 25, ageMax: 45, sesameMin: '600to650' },
    sharedFields: FORM_FIELDS,
  },
  {
    ...base,
    code: 'f-xiaoe',
    partnerCode: 'partner-f',
    productName: '蓝海小额应急',
    companyType: 'RegionInstitution',
    institutionType: 4,
    linkType: 1,
    targetUrl: `https://${host('f')}/h5?ch=lm`,
    amountMinFen: yuan(500),
    amountMaxFen: yuan(10_000),
    termMinMonths: 1,
    termMaxMonths: 12,
    aprBps: 2390,
    rules: { amountMaxFen: yuan(10_000) },
    activeHours: { from: '09:00', to: '21:00' },
    sharedFields: FORM_FIELDS,
  },
  {
    ...base,
    code: 'f-yejian',
    partnerCode: 'partner-f',
    productName: '蓝海夜间贷（仅22:00–06:00）',
    companyType: 'RegionInstitution',
    institutionType: 4,
    linkType: 2,
    amountMinFen: yuan(1_000),
    amountMaxFen: yuan(50_000),
    aprBps: 2000,
    // Its own amount range (issue 16.9: without it every night-time request matched, whatever its size).
    rules: { amountMaxFen: yuan(50_000) },
    activeHours: { from: '22:00', to: '06:00' },
    priority: 95,
  },
  {
    ...base,
    code: 'g-qiyezhu',
    partnerCode: 'partner-g',
    productName: '晨光经营贷',
    linkType: 2,
    amountMinFen: yuan(50_000),
    amountMaxFen: yuan(500_000),
    aprBps: 1450,
    rules: { jobs: ['businessOwner', 'selfEmployed'], requireHouse: true },
    priority: 80,
    priceFen: yuan(150),
  },
  {
    ...base,
    code: 'g-quanliucheng',
    partnerCode: 'partner-g',
    productName: '晨光安心借',
    thirdpartyType: 7,
    partnerProductName: '晨光消金·安心借',
    linkType: 7,
    amountMinFen: yuan(2_000),
    amountMaxFen: yuan(200_000),
    aprBps: 1750,
    rules: { citiesIn: ['440300', '440100'], sesameMin: '600to650' },
    dailyCap: 300,
    priority: 88,
    priceFen: yuan(90),
  },
  {
    ...base,
    code: 'h-chengdu',
    partnerCode: 'partner-h',
    productName: '德润同城贷',
    companyType: 'RegionInstitution',
    institutionType: 4,
    linkType: 9,
    amountMinFen: yuan(2_000),
    amountMaxFen: yuan(100_000),
    aprBps: 2100,
    rules: { citiesIn: ['510100'] },
  },
  {
    ...base,
    code: 'h-saas',
    partnerCode: 'partner-h',
    productName: '德润信用分期',
    companyType: 'RegionInstitution',
    institutionType: 2,
    linkType: 6,
    amountMinFen: yuan(1_000),
    amountMaxFen: yuan(100_000),
    aprBps: 2280,
    rules: { creditRecord: ['good', 'fewOverdues'], ageMin: 20, ageMax: 60, citiesOut: ['440300'] },
    dailyCap: 80,
    priority: 45,
  },
  ...STATE_DEMO_PRODUCTS,
];

/** `excluded.<column>` for every column but those skipped: re-seeding updates the rows. */
function excludedSet<T extends Record<string, { name: string }>>(columns: T, skip: (keyof T)[]) {
  return Object.fromEntries(
    Object.entries(columns)
      .filter(([key]) => !skip.includes(key))
      .map(([key, col]) => [key, sql.raw(`excluded.${col.name}`)]),
  );
}

/** Throws unless every published demo product may be published (APR ≤ 24 %, named lender…). */
export function assertDemoProductsPublishable(): void {
  const legalNames = new Map(DEMO_PARTNERS.map((p) => [p.code, p.legalName]));
  for (const p of DEMO_PRODUCTS) {
    const partnerLegalName = legalNames.get(p.partnerCode);
    if (partnerLegalName === undefined)
      throw new Error(`demo product ${p.code}: unknown partner ${p.partnerCode}`);
    if (p.status !== 'published') continue;
    const problems = canPublish({
      ...p,
      aprBps: p.aprBps ?? null,
      activeHours: p.activeHours ?? null,
      partnerLegalName,
    });
    if (problems.length > 0) {
      throw new Error(
        `demo product ${p.code} cannot be published: ${problems.map((x) => x.text).join('；')}`,
      );
    }
  }
}

/** Upserts the demo partners and products (runs at start outside production). */
/**
 * Seeds the demo lenders and products. With `sandboxBaseUrl` (development) every lender delivers to
 * and answers duplicate pre-checks from the local partner sandbox on that server.
 */
export async function seedDemoProducts(db: Db, ring: KeyRing, sandboxBaseUrl?: string): Promise<void> {
  assertDemoProductsPublishable();
  const now = new Date();
  const base = sandboxBaseUrl?.replace(/\/+$/, '');
  const seeded = await db
    .insert(partners)
    .values(
      DEMO_PARTNERS.map(({ contactPhone, signingSecret, ...p }) => ({
        ...p,
        ...(base
          ? {
              apiEndpoint: `${base}/api/dev/partner-sandbox/${p.code}/leads`,
              dupCheckEndpoint: `${base}/api/dev/partner-sandbox/${p.code}/dup-check`,
            }
          : {}),
        contactPhoneEnc: encryptField(ring, contactPhone),
        contactPhoneMasked: maskPhone(contactPhone),
        signingSecretEnc: signingSecret === null ? null : encryptField(ring, signingSecret),
        updatedAt: now,
      })),
    )
    .onConflictDoUpdate({
      target: partners.code,
      set: excludedSet(getTableColumns(partners), ['id', 'code', 'createdAt']),
    })
    .returning({ id: partners.id, code: partners.code });
  const partnerIds = new Map(seeded.map((p) => [p.code, p.id]));
  await db
    .insert(products)
    .values(
      DEMO_PRODUCTS.map(({ partnerCode, ...p }) => ({
        ...p,
        partnerId: partnerIds.get(partnerCode)!,
        updatedAt: now,
      })),
    )
    .onConflictDoUpdate({
      target: products.code,
      set: excludedSet(getTableColumns(products), ['id', 'code', 'createdAt']),
    });
}
