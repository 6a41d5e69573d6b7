import { describe, expect, it } from 'vitest';
import { afterApplyStatus, applyStatusAction } from './apply-status';

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
