import { describe, expect, it } from 'vitest';
import { partnerTargetUrl } from '../../lib/partner-url.ts';
import type { ProductRow } from '../matching/product-row.ts';
import {
  AGENT_SERVICE_HOURS,
  agentFor,
  applyVerdict,
  type CatalogPartner,
  isH5LinkType,
  isListed,
  mergeTodayApplies,
  outsideHoursMessage,
  PRODUCT_UNAVAILABLE_MSG,
  pageOffset,
  TARGET_URL_MISSING_MSG,
  TARGET_URL_NOT_ALLOWED_MSG,
  toProductDetail,
  toProductItem,
} from './rules.ts';

const HOSTS = ['partner-a.example.com'];
const NOON = new Date('2026-11-22T12:00:00+08:00');

/** The test product's terms: a list item answers them as stored. */
const TERMS = {
  companyType: 'KAInstitution',
  institutionType: 1,
  thirdpartyType: 0,
  linkType: 2,
  amountMinFen: 100_000,
  amountMaxFen: 5_000_000,
  termMinMonths: 3,
  termMaxMonths: 36,
  aprBps: 1800,
} as const;

function product(over: Partial<ProductRow> = {}): ProductRow {
  return {
    id: 7,
    code: 'p',
    partnerId: 1,
    productName: '测试贷',
    ...TERMS,
    partnerProductName: null,
    targetUrl: null,
    rules: {},
    dailyCap: null,
    totalCap: null,
    priority: 50,
    priceFen: 3000,
    activeHours: null,
    status: 'published',
    sharedFields: ['realName', 'mobile'],
    createdAt: new Date(0),
    updatedAt: new Date(0),
    ...over,
  };
}

const partner: CatalogPartner = {
  legalName: '星河消费金融有限公司',
  licenceNumber: '金融许可证 S0001',
  allowedHosts: HOSTS,
  status: 'active',
};

describe('partnerTargetUrl', () => {
  it('accepts http(s) URLs on an allowed host, case-insensitively', () => {
    expect(partnerTargetUrl('https://partner-a.example.com/apply?x=1', HOSTS)).toBe(
      'https://partner-a.example.com/apply?x=1',
    );
    expect(partnerTargetUrl(' https://PARTNER-A.example.com/a ', HOSTS)).toBe(
      'https://PARTNER-A.example.com/a',
    );
    expect(partnerTargetUrl('http://partner-a.example.com:8443/a', HOSTS)).toBe(
      'http://partner-a.example.com:8443/a',
    );
  });

  it('refuses other hosts, look-alikes, subdomains, credentials, schemes and relative paths', () => {
    for (const url of [
      'https://evil.example.com/apply',
      'https://partner-a.example.com.evil.net/apply',
      'https://x.partner-a.example.com/apply',
      'https://evil.net@partner-a.example.com/apply',
      'https://user:pw@partner-a.example.com/apply',
      'javascript:alert(1)',
      'ftp://partner-a.example.com/file',
      '/apply',
      '//partner-a.example.com/apply',
      'not a url',
      '',
      null,
      undefined,
    ]) {
      expect(partnerTargetUrl(url, HOSTS), String(url)).toBeNull();
    }
    expect(partnerTargetUrl('https://partner-a.example.com/', [])).toBeNull();
  });
});

describe('toProductItem / toProductDetail', () => {
  it('maps a product with string id, lender name and no URL for non-H5 link types', () => {
    expect(toProductItem(product({ targetUrl: 'https://partner-a.example.com/x' }), partner)).toEqual({
      id: '7',
      productName: '测试贷',
      ...TERMS,
      yqlWholeProcessBumpVO: null,
      lenderLegalName: '星河消费金融有限公司',
      thirdpartyTargetUrl: null,
    });
  });

  it('gives the partner page of H5 link types 1 and 4 only when its host is allowed', () => {
    const url = 'https://partner-a.example.com/h5';
    expect(toProductItem(product({ linkType: 1, targetUrl: url }), partner).thirdpartyTargetUrl).toBe(url);
    expect(toProductItem(product({ linkType: 4, targetUrl: url }), partner).thirdpartyTargetUrl).toBe(url);
    expect(
      toProductItem(product({ linkType: 1, targetUrl: 'https://evil.example.com/h5' }), partner)
        .thirdpartyTargetUrl,
    ).toBeNull();
    expect(toProductItem(product({ linkType: 8, targetUrl: url }), partner).thirdpartyTargetUrl).toBeNull();
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].filter(isH5LinkType)).toEqual([1, 4]);
  });

  it('fills yqlWholeProcessBumpVO for whole-process products (thirdpartyType 7) only', () => {
    const whole = product({ thirdpartyType: 7, partnerProductName: '星河·随心借' });
    expect(toProductItem(whole, partner).yqlWholeProcessBumpVO).toEqual({
      partnerProductName: '星河·随心借',
    });
    expect(toProductItem(product({ partnerProductName: 'x' }), partner).yqlWholeProcessBumpVO).toBeNull();
    // A whole-process product without the partner's name still carries the object, with our name.
    const unnamed = product({ thirdpartyType: 7, partnerProductName: null });
    expect(toProductItem(unnamed, partner).yqlWholeProcessBumpVO).toEqual({
      partnerProductName: unnamed.productName,
    });
  });

  it('adds licence, shared fields and active hours to the detail', () => {
    const detail = toProductDetail(product({ activeHours: { from: '09:00', to: '21:00' } }), partner);
    expect(detail).toMatchObject({
      id: '7',
      lenderLicenceNumber: '金融许可证 S0001',
      sharedFields: ['realName', 'mobile'],
      activeHours: { from: '09:00', to: '21:00' },
    });
  });
});

describe('applyVerdict', () => {
  it('answers the partner page of a listed H5 product on an allowed host', () => {
    const url = 'https://partner-a.example.com/apply';
    expect(applyVerdict(product({ linkType: 1, targetUrl: url }), partner, NOON)).toEqual({
      ok: true,
      thirdpartyTargetUrl: url,
    });
    // Joint login (8) carries a URL too; it is checked the same way.
    expect(applyVerdict(product({ linkType: 8, targetUrl: url }), partner, NOON)).toEqual({
      ok: true,
      thirdpartyTargetUrl: url,
    });
  });

  it('answers null for a product without a partner page (form and consent flow)', () => {
    expect(applyVerdict(product({ linkType: 2 }), partner, NOON)).toEqual({
      ok: true,
      thirdpartyTargetUrl: null,
    });
  });

  it('refuses unpublished products and suspended lenders', () => {
    for (const status of ['draft', 'paused'] as const) {
      expect(applyVerdict(product({ status }), partner, NOON)).toEqual({
        ok: false,
        kind: 'NOT_FOUND',
        msg: PRODUCT_UNAVAILABLE_MSG,
      });
    }
    expect(applyVerdict(product(), { ...partner, status: 'suspended' }, NOON)).toMatchObject({ ok: false });
    expect(isListed(product(), partner)).toBe(true);
    expect(isListed(product({ status: 'paused' }), partner)).toBe(false);
  });

  it('refuses a target URL off the allowed hosts, and an H5 product without one', () => {
    expect(
      applyVerdict(product({ linkType: 1, targetUrl: 'https://evil.example.com/' }), partner, NOON),
    ).toEqual({
      ok: false,
      kind: 'FORBIDDEN',
      msg: TARGET_URL_NOT_ALLOWED_MSG,
    });
    expect(
      applyVerdict(product({ linkType: 2, targetUrl: 'https://evil.example.com/' }), partner, NOON),
    ).toEqual({
      ok: false,
      kind: 'FORBIDDEN',
      msg: TARGET_URL_NOT_ALLOWED_MSG,
    });
    expect(applyVerdict(product({ linkType: 4, targetUrl: null }), partner, NOON)).toEqual({
      ok: false,
      kind: 'FORBIDDEN',
      msg: TARGET_URL_MISSING_MSG,
    });
  });
});

describe('applyVerdict and active hours', () => {
  const at = (hhmm: string) => new Date(`2026-11-22T${hhmm}:00+08:00`);
  const url = 'https://partner-a.example.com/apply';

  it('refuses outside the Shanghai window, naming it; inside it answers as usual', () => {
    const day = product({ linkType: 1, targetUrl: url, activeHours: { from: '09:00', to: '21:00' } });
    expect(applyVerdict(day, partner, at('08:59'))).toEqual({
      ok: false,
      kind: 'FORBIDDEN',
      msg: '该产品仅在每日09:00–21:00受理申请，请在受理时间内再试',
    });
    expect(applyVerdict(day, partner, at('21:00'))).toMatchObject({ ok: false, kind: 'FORBIDDEN' });
    expect(applyVerdict(day, partner, at('09:00'))).toEqual({ ok: true, thirdpartyTargetUrl: url });
    const night = product({ activeHours: { from: '22:00', to: '06:00' } });
    expect(applyVerdict(night, partner, at('23:30'))).toEqual({ ok: true, thirdpartyTargetUrl: null });
    expect(applyVerdict(night, partner, at('12:00'))).toMatchObject({
      ok: false,
      msg: '该产品仅在每日22:00–次日06:00受理申请，请在受理时间内再试',
    });
    expect(outsideHoursMessage({ from: '22:00', to: '06:00' })).toContain('次日06:00');
  });

  it('says "下架" before anything about hours', () => {
    const paused = product({ status: 'paused', activeHours: { from: '09:00', to: '10:00' } });
    expect(applyVerdict(paused, partner, at('12:00'))).toMatchObject({ kind: 'NOT_FOUND' });
  });
});

describe('paging and days', () => {
  it('computes page offsets from 1', () => {
    expect(pageOffset(1, 10)).toBe(0);
    expect(pageOffset(3, 7)).toBe(14);
  });
});

describe('mergeTodayApplies', () => {
  const at = (hhmm: string) => new Date(`2026-11-22T${hhmm}:00+08:00`);

  it('keeps one entry per product with its first time and sources, most recent first', () => {
    const merged = mergeTodayApplies([
      { productId: 3, at: at('09:00'), source: 'consent' },
      { productId: 5, at: at('10:00'), source: 'apply' },
      { productId: 3, at: at('08:00'), source: 'apply' },
      { productId: 3, at: at('11:00'), source: 'apply' },
      { productId: 9, at: at('10:00'), source: 'apply' },
    ]);
    expect(merged).toEqual([
      { productId: 3, firstAt: at('08:00'), lastAt: at('11:00'), sources: ['apply', 'consent'] },
      { productId: 5, firstAt: at('10:00'), lastAt: at('10:00'), sources: ['apply'] },
      { productId: 9, firstAt: at('10:00'), lastAt: at('10:00'), sources: ['apply'] },
    ]);
    expect(mergeTodayApplies([])).toEqual([]);
  });
});

describe('agentFor', () => {
  const channel = {
    adChannelCode: 'demo',
    footer: [{ companyName: '北京星河融信信息技术有限公司', filingNumber: '京ICP备2026000001号' }],
  };

  it("names the channel's operator and the service hours", () => {
    expect(agentFor(channel, new Date('2026-11-22T10:00:00+08:00'))).toEqual({
      adChannelCode: 'demo',
      agentName: '在线客服',
      operatorName: '北京星河融信信息技术有限公司',
      operatorFilingNumber: '京ICP备2026000001号',
      serviceHours: AGENT_SERVICE_HOURS,
      online: true,
    });
    expect(agentFor({ adChannelCode: '', footer: [] }, new Date())).toMatchObject({
      adChannelCode: '',
      operatorName: null,
      operatorFilingNumber: null,
    });
  });

  it('is online from 09:00 (inclusive) to 21:00 (exclusive), Shanghai time', () => {
    const online = (hhmm: string) => agentFor(channel, new Date(`2026-11-22T${hhmm}:00+08:00`)).online;
    expect(online('08:59')).toBe(false);
    expect(online('09:00')).toBe(true);
    expect(online('20:59')).toBe(true);
    expect(online('21:00')).toBe(false);
    expect(online('03:00')).toBe(false);
  });
});
