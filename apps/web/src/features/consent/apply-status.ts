/**
 * APPLY_STATUS_MODAL (spec §3 event name, §4 "Apply status from a match"): what a match result's
 * applyStatus asks of the H5 after POST /api/user/info/save or POST /api/user/info/direct/match.
 *
 * - 0 sold out: an alert, then the flow's result page (nothing to authorise);
 * - 2 already registered at the lender: a confirm; on confirm the lender's page in /inline-page;
 * - 1 matched, null nothing matched: no dialog, the flow goes on.
 */
import { withQuery } from './query-options';

export const APPLY_STATUS_MODAL = 'APPLY_STATUS_MODAL';

export const APPLY_STATUS = { SOLD_OUT: 0, MATCHED: 1, REGISTERED: 2 } as const;

/**
 * The dialogs' words (issue 44.16): the alert's body does not repeat its title; the confirm names the
 * lender the person is registered with (the answer's `lender`, else the product).
 */
export const APPLY_STATUS_TEXT = {
  soldOutTitle: '产品已售罄',
  soldOut: '今日可申请名额已满，请明天再来看看。您的资料已保存，无需重新填写。',
  registeredTitle: '温馨提示',
  registered: (lenderName: string | null, productName: string | null = null) => {
    const who = lenderName
      ? `${lenderName}${productName && productName !== lenderName ? `（${productName}）` : ''}`
      : (productName ?? '该机构');
    return `您已在${who}注册过，可直接前往该机构的页面继续申请，是否立即前往？`;
  },
  registeredConfirm: '立即前往',
  registeredCancel: '暂不前往',
} as const;

export type ApplyStatusAction =
  | { kind: 'none' }
  | { kind: 'soldOut' }
  /** `inlinePath`: /inline-page for the lender's page; null when the answer named no page. */
  | {
      kind: 'registered';
      /** The lender's legal name (the answer's `lender`), when it names one. */
      lenderName: string | null;
      productName: string | null;
      url: string | null;
      inlinePath: string | null;
    };

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** The dialog a match result asks for (pure: the caller shows it). */
export function applyStatusAction(result: unknown): ApplyStatusAction {
  if (!result || typeof result !== 'object') return { kind: 'none' };
  const r = result as Record<string, unknown>;
  if (r.applyStatus === APPLY_STATUS.SOLD_OUT) return { kind: 'soldOut' };
  if (r.applyStatus === APPLY_STATUS.REGISTERED) {
    const productName = str(r.productName);
    const lender = r.lender && typeof r.lender === 'object' ? (r.lender as Record<string, unknown>) : null;
    const lenderName = str(lender?.legalName);
    const url = str(r.thirdpartyTargetUrl);
    return {
      kind: 'registered',
      lenderName,
      productName,
      url,
      inlinePath: url
        ? withQuery('/inline-page', { url, productName: productName ?? lenderName ?? '' })
        : null,
    };
  }
  return { kind: 'none' };
}

/**
 * What the flow does after the dialog:
 * - 'proceed': go on as usual (authorise the offers, or the result page when there are none);
 * - 'result': the flow's result page (sold out: nothing to authorise);
 * - {inline}: the lender's page in /inline-page (already registered, confirmed).
 */
export type AfterApplyStatus = { next: 'proceed' } | { next: 'result' } | { next: 'inline'; path: string };

/** The next step for an action, given whether the person confirmed the "already registered" dialog. */
export function afterApplyStatus(action: ApplyStatusAction, confirmed: boolean): AfterApplyStatus {
  if (action.kind === 'soldOut') return { next: 'result' };
  if (action.kind === 'registered' && confirmed && action.inlinePath) {
    return { next: 'inline', path: action.inlinePath };
  }
  return { next: 'proceed' };
}
