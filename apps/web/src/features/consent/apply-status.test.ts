import { describe, expect, it } from 'vitest';
import { APPLY_STATUS_TEXT, afterApplyStatus, applyStatusAction } from './apply-status';

describe('APPLY_STATUS_MODAL decision (spec §4)', () => {
  it('applyStatus 0 → the sold-out alert, then the result page', () => {
    const action = applyStatusAction({ id: null, productName: null, applyStatus: 0, mayAuthProductList: [] });
    expect(action).toEqual({ kind: 'soldOut' });
    expect(afterApplyStatus(action, false)).toEqual({ next: 'result' });
    expect(afterApplyStatus(action, true)).toEqual({ next: 'result' });
  });

  it('applyStatus 2 → confirm; on confirm /inline-page with the encoded target and productName', () => {
    const action = applyStatusAction({
      id: '2',
      productName: '星河极速贷',
      applyStatus: 2,
      thirdpartyTargetUrl: 'https://partner-a.example.com/apply?from=lm',
    });
    expect(action).toMatchObject({ kind: 'registered', productName: '星河极速贷' });
    const path = action.kind === 'registered' ? action.inlinePath : null;
    expect(path).toBe(
      '/inline-page?url=https%3A%2F%2Fpartner-a.example.com%2Fapply%3Ffrom%3Dlm&productName=%E6%98%9F%E6%B2%B3%E6%9E%81%E9%80%9F%E8%B4%B7',
    );
    expect(new URLSearchParams(path!.split('?')[1]).get('url')).toBe(
      'https://partner-a.example.com/apply?from=lm',
    );
    expect(afterApplyStatus(action, true)).toEqual({ next: 'inline', path });
    expect(afterApplyStatus(action, false)).toEqual({ next: 'proceed' });
  });

  it('applyStatus 2 as the server answers it (no product, the lender): the confirm names the lender', () => {
    const action = applyStatusAction({
      id: null,
      productName: null,
      applyStatus: 2,
      thirdpartyTargetUrl: 'https://partner-e.example.com/login?from=lm',
      lender: { legalName: '南湖农村商业银行股份有限公司', licenceNumber: 'B0003S233010001' },
      mayAuthProductList: [],
    });
    expect(action).toMatchObject({ kind: 'registered', lenderName: '南湖农村商业银行股份有限公司' });
    if (action.kind !== 'registered') throw new Error('registered expected');
    expect(APPLY_STATUS_TEXT.registered(action.lenderName, action.productName)).toBe(
      '您已在南湖农村商业银行股份有限公司注册过，可直接前往该机构的页面继续申请，是否立即前往？',
    );
    // The lender's page opens titled with its name.
    expect(new URLSearchParams(action.inlinePath!.split('?')[1]).get('productName')).toBe(
      '南湖农村商业银行股份有限公司',
    );
  });

  it('the confirm names lender and product when both are known, and says 该机构 only when nothing is', () => {
    expect(APPLY_STATUS_TEXT.registered('星河消费金融有限公司', '星河极速贷')).toBe(
      '您已在星河消费金融有限公司（星河极速贷）注册过，可直接前往该机构的页面继续申请，是否立即前往？',
    );
    expect(APPLY_STATUS_TEXT.registered(null, '星河极速贷')).toBe(
      '您已在星河极速贷注册过，可直接前往该机构的页面继续申请，是否立即前往？',
    );
    expect(APPLY_STATUS_TEXT.registered(null, null)).toBe(
      '您已在该机构注册过，可直接前往该机构的页面继续申请，是否立即前往？',
    );
  });

  it('the sold-out alert’s body does not repeat its title', () => {
    expect(APPLY_STATUS_TEXT.soldOutTitle).toBe('产品已售罄');
    expect(APPLY_STATUS_TEXT.soldOut).not.toContain(APPLY_STATUS_TEXT.soldOutTitle);
    expect(APPLY_STATUS_TEXT.soldOut).toContain('今日可申请名额已满');
  });

  it('applyStatus 2 without a target page → no navigation, the flow goes on', () => {
    const action = applyStatusAction({
      id: '2',
      productName: 'x',
      applyStatus: 2,
      thirdpartyTargetUrl: null,
    });
    expect(action).toMatchObject({ kind: 'registered', inlinePath: null });
    expect(afterApplyStatus(action, true)).toEqual({ next: 'proceed' });
  });

  it.each([
    [{ applyStatus: 1, id: '1' }],
    [{ applyStatus: null, id: null }],
    [{}],
    [null],
    ['x'],
  ])('%j → no dialog', (result) => {
    const action = applyStatusAction(result);
    expect(action).toEqual({ kind: 'none' });
    expect(afterApplyStatus(action, true)).toEqual({ next: 'proceed' });
  });
});
