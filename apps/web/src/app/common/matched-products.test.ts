import { describe, expect, it } from 'vitest';
import { parseMatchedProducts, readMatchedProducts } from './matched-products';

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
