import { describe, expect, it } from 'vitest';
import {
  formatAmountFen,
  formatAmountRange,
  formatApr,
  formatTermRange,
  hasMatchId,
  parseMatch,
  parseMatchedProducts,
  pickMatch,
  readMatch,
  readMatchedProducts,
  sharedFieldLabels,
} from './matched-products';

describe('parseMatchedProducts', () => {
  it('takes the matched product and its mayAuthProductList, without duplicates', () => {
    const products = parseMatchedProducts({
      id: 1,
      productName: '好借',
      companyType: 'KAInstitution',
      applyStatus: 1,
      mayAuthProductList: [
        { id: 2, productName: '易贷', thirdpartyType: 1 },
        { id: 1, productName: '好借' },
        { id: 3, productName: '全流程', thirdpartyType: 7, partnerProductName: '合作方A' },
      ],
    });
    expect(products.map((p) => p.id)).toEqual(['1', '2', '3']);
    expect(products[0]).toMatchObject({ companyType: 'KAInstitution', applyStatus: 1 });
    expect(products[2]?.partnerProductName).toBe('合作方A');
  });

  it('reads the whole-process partner name from yqlWholeProcessBumpVO', () => {
    const [p] = parseMatchedProducts({
      id: 'x',
      productName: '整合产品',
      thirdpartyType: 7,
      yqlWholeProcessBumpVO: { partnerProductName: '合作方B' },
    });
    expect(p?.partnerProductName).toBe('合作方B');
  });

  it('accepts lists and drops malformed entries', () => {
    expect(parseMatchedProducts([{ id: 1, productName: 'A' }, { id: 2 }, null, 'x'])).toHaveLength(1);
    expect(parseMatchedProducts({ list: [{ id: 5, productName: 'B' }] })).toHaveLength(1);
    expect(parseMatchedProducts(null)).toEqual([]);
  });

  it('reads from a store and survives bad JSON', () => {
    expect(readMatchedProducts('k', { getItem: () => '{oops' })).toEqual([]);
    expect(readMatchedProducts('k', { getItem: () => null })).toEqual([]);
    expect(readMatchedProducts('k', { getItem: () => '{"id":1,"productName":"A"}' })).toHaveLength(1);
  });
});

/** An offer as productOfferSchema describes it (money in fen, rate in bps). */
const offer = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  productName: `产品${id}`,
  companyType: 'KAInstitution',
  institutionType: 1,
  thirdpartyType: 0,
  yqlWholeProcessBumpVO: null,
  partnerProductName: null,
  linkType: 2,
  thirdpartyTargetUrl: null,
  aprBps: 1800,
  amountMinFen: 100_000,
  amountMaxFen: 20_000_000,
  termMinMonths: 3,
  termMaxMonths: 36,
  lender: {
    legalName: '星河消费金融有限公司',
    licenceNumber: '金融许可证 S0001H211000001',
    contactName: '张经理',
    contactPhone: '138****0001',
  },
  sharedFields: [
    { key: 'realName', label: '姓名' },
    { key: 'workCity', label: '工作城市' },
    { key: 'workCityCode', label: '工作城市' },
  ],
  purpose: '用于该机构评估您的借款申请',
  agreement: { id: 'information-agreement', version: '2026-01', title: '个人信息共享授权书' },
  rank: 1,
  ...over,
});

describe('parseMatch (matchResultSchema)', () => {
  const result = {
    ...offer('11'),
    matchId: 42,
    applyStatus: 1,
    mayAuthProductList: [offer('11'), offer('12', { companyType: 'RegionInstitution', lender: null })],
  };

  it('keeps the run id, apply status, top company type and every lender detail', () => {
    const match = parseMatch(result);
    expect(match).toMatchObject({ matchId: 42, applyStatus: 1, companyType: 'KAInstitution' });
    expect(match.products.map((p) => p.id)).toEqual(['11', '12']);
    expect(match.products[0]).toMatchObject({
      lender: { legalName: '星河消费金融有限公司', contactPhone: '138****0001' },
      purpose: '用于该机构评估您的借款申请',
      aprBps: 1800,
      amountMinFen: 100_000,
      termMaxMonths: 36,
      agreement: { id: 'information-agreement', title: '个人信息共享授权书', version: '2026-01' },
    });
    expect(match.products[1]?.lender).toBeNull();
  });

  it('nothing matched: no run products, status null; hasMatchId only with an id', () => {
    const none = {
      matchId: 7,
      matchKey: 'k1.aXY.Y3Q.dGFn',
      id: null,
      productName: null,
      applyStatus: null,
      mayAuthProductList: [],
    };
    expect(parseMatch(none)).toEqual({
      matchId: 7,
      matchKey: 'k1.aXY.Y3Q.dGFn',
      applyStatus: null,
      companyType: null,
      products: [],
    });
    expect(hasMatchId(none)).toBe(false);
    expect(hasMatchId(result)).toBe(true);
    expect(hasMatchId(null)).toBe(false);
    expect(parseMatch('x')).toEqual({
      matchId: null,
      matchKey: null,
      applyStatus: null,
      companyType: null,
      products: [],
    });
  });

  it('pickMatch: the link’s result when it has offers, else the stored one — never a mix', () => {
    const stored = parseMatch({ ...offer('1'), matchId: 1 });
    expect(pickMatch(result, stored).matchId).toBe(42);
    expect(pickMatch(undefined, stored).matchId).toBe(1);
    expect(pickMatch({ id: null, mayAuthProductList: [] }, stored).matchId).toBe(1);
  });

  it('readMatch reads a stored result and survives bad JSON', () => {
    expect(readMatch('k', { getItem: () => JSON.stringify(result) }).matchId).toBe(42);
    expect(readMatch('k', { getItem: () => '{oops' }).products).toEqual([]);
  });
});

describe('consent page wording', () => {
  it('APR from basis points with two decimals', () => {
    expect(formatApr(1800)).toBe('年化利率 18.00%');
    expect(formatApr(2350)).toBe('年化利率 23.50%');
    expect(formatApr(720)).toBe('年化利率 7.20%');
    expect(formatApr(null)).toBeNull();
  });

  it('amounts from fen in 元 below ten thousand yuan and 万元 from there', () => {
    expect(formatAmountFen(50_000)).toBe('500元');
    expect(formatAmountFen(100_000)).toBe('1,000元');
    expect(formatAmountFen(1_000_000)).toBe('1万元');
    expect(formatAmountFen(1_500_000)).toBe('1.5万元');
    expect(formatAmountFen(20_000_000)).toBe('20万元');
    expect(formatAmountRange(100_000, 20_000_000)).toBe('1,000元–20万元');
    expect(formatAmountRange(500_000, 500_000)).toBe('5,000元');
    expect(formatAmountRange(null, 1)).toBeNull();
    expect(formatAmountRange(2, 1)).toBeNull();
  });

  it('terms in months', () => {
    expect(formatTermRange(3, 36)).toBe('3–36个月');
    expect(formatTermRange(12, 12)).toBe('12个月');
    expect(formatTermRange(null, 12)).toBeNull();
  });

  it('shared field labels once each, in order', () => {
    expect(sharedFieldLabels(parseMatch(offer('1')).products[0]!.sharedFields)).toEqual(['姓名', '工作城市']);
  });
});
