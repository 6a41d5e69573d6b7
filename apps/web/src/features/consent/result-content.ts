/**
 * What a flow's result page says (spec §2 success options), as a pure function:
 * - isSpecialListCity: the person's city is not served (registerLink after the location flow);
 * - registered (registerLink: linkType 1, or linkType 3 with credit and diversion closed): the person
 *   has registered and nothing was submitted — the page says so, and leads on to the channel's plan
 *   target when there is one the channel allows (`partner`; issue 16.6);
 * - isNotFormReq: no application went to a lender (nothing matched, sold out, or a returning applicant
 *   with nothing new) — the page must not say one was submitted;
 * - revisit: a returning applicant;
 * - rePageShowType 2: the app-download guide (fenqile channel on a Huawei phone, spec §4 step 6);
 * - applyStatus=0 (a sold-out re-match of the post-login decision): the sold-out wording, and the
 *   APPLY_STATUS_MODAL alert on arrival; soldOut=1 (sold out after the form, the alert already shown):
 *   the wording only;
 * - applyStatus=2 (a re-match: already registered at a lender): the confirm on arrival, with the
 *   lender's page taken from the stored answer (productMatchInfo), never from the link.
 * Consents given in this session are listed with what happens next for each lender.
 */
import type { ConsentedItem } from './consent-result';
import { isOn, numberOption, type QueryOptions } from './query-options';

export type ResultStatus = 'success' | 'info';

export interface ResultContent {
  status: ResultStatus;
  title: string;
  description: string;
  showDownload: boolean;
  /** List the lenders consented to (with "去申请" for those continuing on their own page). */
  showConsents: boolean;
  /** Sold out: every product the person qualified for has reached its cap. */
  soldOut: boolean;
  /** Show the sold-out alert on arrival (not shown yet). */
  alertSoldOut: boolean;
  /** Show the "already registered" confirm on arrival (from the stored answer). */
  confirmRegistered: boolean;
  /** Registered only (registerLink): offer the button to the channel's plan target. */
  showPartner: boolean;
  /**
   * A lender may have received the person's data (this visit's consents, or an earlier application):
   * only then does the page say lenders may call (issue 44.16: not after sold out, nothing matched or
   * a registration).
   */
  lendersMayCall: boolean;
  /**
   * What the retention popup says when nothing went to a lender (its usual words promise progress and a
   * lender's call); undefined: its usual words.
   */
  retention?: { description: string; download: string };
}

export const NOTHING_SENT_RETENTION = {
  description: '您的资料已保存。下载App，随时查看可申请的机构。',
  download: '下载App',
} as const;

export const RE_PAGE_SHOW_TYPE_DOWNLOAD = 2;

/**
 * `partner`: whether the channel has a plan target the page may lead to (checked by the server and
 * again against the channel's allowed hosts: see SuccessView).
 */
export function resultContent(
  options: QueryOptions,
  consents: readonly ConsentedItem[],
  partner = false,
): ResultContent {
  const revisit = isOn(options.revisit);
  const notForm = isOn(options.isNotFormReq);
  const specialCity = isOn(options.isSpecialListCity);
  const registered = isOn(options.registered) && !specialCity;
  const alertSoldOut = options.applyStatus !== undefined && numberOption(options.applyStatus, -1) === 0;
  const soldOut = alertSoldOut || isOn(options.soldOut);
  const confirmRegistered = options.applyStatus !== undefined && numberOption(options.applyStatus, -1) === 2;
  const showDownload = numberOption(options.rePageShowType) === RE_PAGE_SHOW_TYPE_DOWNLOAD;
  const showConsents = consents.length > 0 && !notForm && !specialCity && !soldOut && !registered;
  const showPartner = registered && partner;
  const lendersMayCall = !specialCity && !registered && !soldOut && (!notForm || revisit);
  const base = {
    showDownload,
    showConsents,
    soldOut,
    alertSoldOut,
    confirmRegistered,
    showPartner,
    lendersMayCall,
    ...(lendersMayCall ? {} : { retention: NOTHING_SENT_RETENTION }),
  };

  if (specialCity) {
    return {
      ...base,
      status: 'info',
      title: '您所在城市暂未开通',
      description: '您所在城市的合作机构正在接入中，暂时无法为您匹配产品，您的信息不会提供给任何机构。',
    };
  }
  if (registered) {
    return {
      ...base,
      status: 'success',
      title: '注册成功',
      description: partner
        ? '您已完成注册，点击前往合作机构继续申请。'
        : '您已完成注册，尚未向任何机构提交借款申请，您的信息不会提供给任何机构。',
    };
  }
  if (soldOut) {
    return {
      ...base,
      status: 'info',
      title: '今日名额已满',
      description: '符合您条件的机构今日可申请名额已满，您的资料已保存，请明天再来看看。',
    };
  }
  if (notForm) {
    return revisit
      ? {
          ...base,
          status: 'info',
          title: '欢迎回来',
          description: '您已提交过借款申请，暂无新的可申请机构。已授权的机构审核结果请留意其短信或来电。',
        }
      : {
          ...base,
          status: 'info',
          title: '暂未匹配到合适的机构',
          description:
            '您的资料已保存，目前暂无符合条件的合作机构，您的信息不会提供给任何机构，请稍后再来看看。',
        };
  }
  if (showConsents) {
    return {
      ...base,
      status: 'success',
      title: '申请已提交',
      description: `您已授权${consents.length}家机构，资料仅提供给您授权的机构，审核结果以机构通知为准。`,
    };
  }
  if (revisit) {
    return {
      ...base,
      status: 'success',
      title: '欢迎回来',
      description: '您已提交过借款申请，合作机构正在审核，请留意机构的短信或来电。',
    };
  }
  return {
    ...base,
    status: 'success',
    title: '提交成功',
    description: '您的申请已提交至所选机构，审核结果以机构通知为准。',
  };
}

/** One line per consent mode (authData `mode`). */
export function consentModeText(mode: string): string {
  switch (mode) {
    case 'api':
      return '资料已提交，机构将尽快与您联系';
    case 'h5Redirect':
      return '请前往机构页面完成申请';
    case 'jointLogin':
      return '等待机构确认，请留意机构通知';
    default:
      return '已授权，等待机构处理';
  }
}
