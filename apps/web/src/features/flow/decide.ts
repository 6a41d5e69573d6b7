/**
 * The post-login decision (spec §4) as a pure function.
 *
 * `decide(input)` looks only at data already in `input`. When it needs something not fetched yet it
 * answers `{kind: 'need', what}`; the orchestrator (run-post-login.ts) fetches it, puts it into the
 * input (`null` = fetched, no data: failed or 404) and asks again, until the answer is
 * `{kind: 'navigate', …}`. So only the calls a branch needs are made, and every branch is testable
 * with plain data.
 *
 * Two orderings:
 * - 'main' (spec §4 "Post-login decision", steps 1–7), used after every login;
 * - 'credit' (spec §4 "Alternative ordering for the credit flow", steps 1–5), for the credit-process
 *   pages (e.g. after face verification) or a caller that asks for it.
 *
 * Query values: booleans travel as 'true'/'false', objects as JSON (see url.ts).
 */
import { type FlowName, type FlowRoutes, LinkType, SPECIAL_ROUTES } from '@lm/shared/channel';
import { type CreditInfo, creditInfoStep, FaceStatus } from '@lm/shared/credit-info';
import { matchLinkOptions } from './match-link';

/** creditStatus / diversionStatus (spec §3). */
export const OPEN = 1;
export const CLOSED = 0;
/** Cover status 1: CanCover. */
export const CAN_COVER = 1;
/** Face status 2: passed. */
export const FACE_PASSED = FaceStatus.PASSED;
/** Submit statuses after which an old user is re-matched: 1 submitted-unauthorized, 10 authorized. */
export const REMATCH_SUBMIT_STATUSES: readonly number[] = [1, 10];
/** rePageShowType of the success page for a fenqile channel on a Huawei phone (else 0). */
export const FENQILE_HUAWEI_PAGE_SHOW_TYPE = 2;
export const SUCCESS_CODE = 200;

/** Form config when its call fails or does not exist yet: credit closed, diversion open, no cover. */
export const DEFAULT_FORM_CONFIG: FormConfig = {
  creditStatus: CLOSED,
  diversionStatus: OPEN,
  coverStatus: 0,
};

export const FACE_FAILED_TOAST = { content: '认证失败', duration: 2000 } as const;

export type QueryValue = string | number | boolean | null | undefined | Record<string, unknown> | unknown[];
export type Query = Record<string, QueryValue>;

export interface NavigateDecision {
  kind: 'navigate';
  /** The spec step that chose this target, e.g. 'main.6 re-match: product' (logs and tests). */
  step: string;
  path: string;
  query?: Query;
  replace: boolean;
  /** Shown before navigating; the navigation then waits `delayMs`. */
  toast?: { content: string; duration: number };
  /** Delay before navigating; the helper's default (500 ms) when absent. */
  delayMs?: number;
  /** POST /api/reportDevice before navigating (location flow). */
  reportDevice?: DeviceReport;
}

export interface DeviceReport {
  provinceName: string;
  cityName: string;
  adChannelCode?: string;
}

export type Need = 'channelDetail' | 'location' | 'formConfig' | 'creditInfo' | 'applyStatus' | 'rematch';

export interface NeedDecision {
  kind: 'need';
  what: Need;
}

export type Decision = NavigateDecision | NeedDecision;

/** What the decision needs from the channel configuration (h5Config). */
export interface ChannelFacts {
  adChannelCode: string;
  linkType: number;
  flags: string[];
  flow: FlowName;
  flowRoutes: FlowRoutes;
  needsLocation: boolean;
  excludeCityCodes: string[];
}

/** loginUser of the login response. */
export interface LoginUserFacts {
  uid: number;
  userInfoStatus: number;
  coverStatus: number;
}

/** Channel detail (GET /api/getAdChannel): the fresh link type. */
export interface ChannelDetailFacts {
  linkType: number;
  excludeCityCodes?: string[] | null;
}

export interface LocationFacts {
  province: string;
  city: string;
  cityCode?: string | null;
  excludeCity: boolean;
}

/** GET /api/app/userInfo/userFormConfig */
export interface FormConfig {
  creditStatus: number;
  diversionStatus: number;
  coverStatus: number;
}

/** GET /api/user/info/detail: the envelope code (200 or the error's) and its data. */
export interface ApplyStatusFacts {
  code: number;
  data: { submitStatus?: number | null; applyLimit?: unknown; workCity?: unknown } | null;
}

/** Product match result (spec §3). */
export interface MatchResult {
  id?: number | string | null;
  /** The run's opaque name: what links carry (issue 16.8). */
  matchKey?: string | null;
  productName?: string | null;
  companyType?: string | null;
  applyStatus?: number | null;
  thirdpartyTargetUrl?: string | null;
  [key: string]: unknown;
}

export interface PostLoginInput {
  ordering: 'main' | 'credit';
  channel: ChannelFacts;
  loginUser: LoginUserFacts;
  isHuaweiPhone: boolean;
  /** Fetched on demand: undefined = not fetched yet, null = no data. */
  channelDetail?: ChannelDetailFacts | null;
  location?: LocationFacts | null;
  formConfig?: Partial<FormConfig> | null;
  creditInfo?: CreditInfo | null;
  applyStatus?: ApplyStatusFacts | null;
  rematch?: MatchResult | null;
}

const need = (what: Need): NeedDecision => ({ kind: 'need', what });

function go(
  step: string,
  path: string,
  extra: Partial<Omit<NavigateDecision, 'kind' | 'step' | 'path'>> = {},
) {
  return { kind: 'navigate', step, path, replace: false, ...extra } satisfies NavigateDecision;
}

/** Spec §4 step 7: with linkType 1 a cover status in the login response is reset to 0. */
export function normalizeLoginUser(user: LoginUserFacts, linkType: number): LoginUserFacts {
  return linkType === LinkType.H5_REDIRECT && user.coverStatus ? { ...user, coverStatus: 0 } : user;
}

/**
 * Spec §4 step 1 / §5: the automatic-form store is usable only for the Haier channel (flag `haier`),
 * and not with linkType 1 (spec §5 "false if linkType is 1"; the city rule needs a location the login
 * does not have yet, so it is left to the automatic form itself).
 */
export function isAutoFormUsable(channel: ChannelFacts): boolean {
  return channel.flags.includes('haier') && channel.linkType !== LinkType.H5_REDIRECT;
}

/** userInfoStatus 0, or 1/2 with coverStatus 1. */
export function wantsAutoForm(user: LoginUserFacts): boolean {
  return (
    user.userInfoStatus === 0 ||
    ((user.userInfoStatus === 1 || user.userInfoStatus === 2) && user.coverStatus === CAN_COVER)
  );
}

export function isCityExcluded(
  location: LocationFacts | null | undefined,
  excludeCityCodes: readonly string[],
): boolean {
  if (!location) return false;
  return location.excludeCity || Boolean(location.cityCode && excludeCityCodes.includes(location.cityCode));
}

/** rePageShowType: 2 for a fenqile channel on a Huawei phone, else 0. */
export function rePageShowType(channel: ChannelFacts, isHuaweiPhone: boolean): number {
  const fenqile = channel.flow === 'fenqile' || channel.flags.includes('fenqile');
  return fenqile && isHuaweiPhone ? FENQILE_HUAWEI_PAGE_SHOW_TYPE : 0;
}

function formConfigOf(input: PostLoginInput): FormConfig {
  return { ...DEFAULT_FORM_CONFIG, ...(input.formConfig ?? {}) };
}

function linkTypeOf(input: PostLoginInput): number {
  return input.channelDetail?.linkType ?? input.channel.linkType;
}

function excludeCodesOf(input: PostLoginInput): string[] {
  return input.channelDetail?.excludeCityCodes ?? input.channel.excludeCityCodes;
}

/**
 * A re-match without a product that asks for the APPLY_STATUS_MODAL (spec §4): sold out
 * (applyStatus 0: the result page alerts) or already registered at a lender (2: the result page
 * confirms, with the lender's page from the stored answer, never from the link).
 */
function applyStatusQuery(match: MatchResult | null): Query {
  return match?.applyStatus === 0 || match?.applyStatus === 2 ? { applyStatus: match.applyStatus } : {};
}

/**
 * registerLink: the flow's success page with isSpecialListCity (replace), and `registered`: the person
 * has only registered (no application went anywhere), so the page says that and leads to the
 * channel's plan target instead of claiming a submission (issue 16.6).
 */
function registerLink(input: PostLoginInput, step: string): NavigateDecision {
  return go(step, input.channel.flowRoutes.success, {
    query: { isSpecialListCity: isCityExcluded(input.location, excludeCodesOf(input)), registered: true },
    replace: true,
  });
}

/** Spec §4 steps 5–6: the default flow. */
function defaultFlow(input: PostLoginInput): Decision {
  const routes = input.channel.flowRoutes;
  if (input.formConfig === undefined) return need('formConfig');
  if (formConfigOf(input).coverStatus === CAN_COVER) {
    return go('main.5 cover status: form with coverStatus=1', routes.form, {
      query: { coverStatus: 1 },
      replace: true,
    });
  }
  if (input.applyStatus === undefined) return need('applyStatus');
  const apply = input.applyStatus;
  if (apply?.code !== SUCCESS_CODE) return go('main.5 apply status not 200: form', routes.form);

  // Step 6: the submit-status rule.
  const data = apply.data ?? {};
  if (!REMATCH_SUBMIT_STATUSES.includes(Number(data.submitStatus))) {
    return go('main.6 not submitted: form', routes.form);
  }
  if (input.rematch === undefined) return need('rematch');
  const match = input.rematch;
  if (!match?.productName) {
    return go('main.6 re-match: no product, success', routes.success, {
      query: {
        isNotFormReq: true,
        revisit: true,
        rePageShowType: rePageShowType(input.channel, input.isHuaweiPhone),
        ...applyStatusQuery(match),
      },
    });
  }
  return go('main.6 re-match: product, re-match and authorise', routes.rematch, {
    // Issue 16.8: the match by its opaque key; the page loads it (never the result in the link).
    // Issue 44.6: nor the person's answers (spec's applyLimit, workCity): match-link.ts.
    query: { ...matchLinkOptions({ adChannelCode: input.channel.adChannelCode, matchKey: match.matchKey }) },
  });
}

/** Spec §4 step 4: the link-type flow. */
function linkTypeFlow(input: PostLoginInput): Decision {
  const linkType = linkTypeOf(input);
  if (linkType === LinkType.H5_REDIRECT) return registerLink(input, 'main.4 linkType 1: registerLink');
  if (linkType !== LinkType.CRM) return defaultFlow(input);

  if (input.formConfig === undefined) return need('formConfig');
  const config = formConfigOf(input);
  if (config.creditStatus !== OPEN) {
    return config.diversionStatus !== OPEN
      ? registerLink(input, 'main.4 linkType 3: credit and diversion closed, registerLink')
      : defaultFlow(input);
  }
  if (input.creditInfo === undefined) return need('creditInfo');
  return input.creditInfo?.auditStatus === FACE_PASSED
    ? go('main.4 linkType 3: credit open, face passed', SPECIAL_ROUTES.faceVerificationLoading)
    : go('main.4 linkType 3: credit open, face not passed', SPECIAL_ROUTES.identityVerification);
}

/** Spec §4 "Post-login decision", steps 1–7. */
export function decideMain(input: PostLoginInput): Decision {
  // Step 7 first: it changes the coverStatus that step 1 reads.
  const user = normalizeLoginUser(input.loginUser, input.channel.linkType);

  // Step 1: the Haier automatic form.
  if (isAutoFormUsable(input.channel) && wantsAutoForm(user)) {
    return go('main.1 Haier automatic form', SPECIAL_ROUTES.haierAutoForm);
  }

  // Step 2: the code details decide between the location flow and the link-type flow.
  if (input.channelDetail === undefined) return need('channelDetail');
  if (input.channel.needsLocation) {
    // Step 3: the location flow.
    if (input.location === undefined) return need('location');
    const location = input.location;
    if (location && isCityExcluded(location, excludeCodesOf(input)) && linkTypeOf(input) === LinkType.API) {
      return go('main.3 excluded city, linkType 2: registration success', SPECIAL_ROUTES.registerSuccess, {
        reportDevice: {
          provinceName: location.province,
          cityName: location.city,
          ...(input.channel.adChannelCode ? { adChannelCode: input.channel.adChannelCode } : {}),
        },
      });
    }
  }
  return linkTypeFlow(input);
}

/** Spec §4 "Alternative ordering for the credit flow", steps 1–5. */
export function decideCredit(input: PostLoginInput): Decision {
  const routes = input.channel.flowRoutes;
  if (input.formConfig === undefined) return need('formConfig');
  const config = formConfigOf(input);

  // Step 1: credit open → face verification, then credit information.
  if (config.creditStatus === OPEN) {
    if (input.creditInfo === undefined) return need('creditInfo');
    if (input.creditInfo?.auditStatus !== FACE_PASSED) {
      return go('credit.1 face not passed: toast, face verification', SPECIAL_ROUTES.identityVerification, {
        toast: { ...FACE_FAILED_TOAST },
        delayMs: FACE_FAILED_TOAST.duration,
      });
    }
    if (creditInfoStep(input.creditInfo) !== 'DONE') {
      return go('credit.1 credit info incomplete: credit personal info', SPECIAL_ROUTES.creditPersonalInfo);
    }
  }

  // Step 2.
  if (config.diversionStatus === CLOSED) return go('credit.2 diversion closed: success', routes.success);

  // Step 3.
  if (config.coverStatus === CAN_COVER) {
    return go(
      'credit.3 CanCover: application form with coverStatus=1',
      SPECIAL_ROUTES.creditApplicationForm,
      {
        query: { coverStatus: 1 },
      },
    );
  }

  // Step 4.
  if (input.applyStatus === undefined) return need('applyStatus');
  const apply = input.applyStatus;
  const data = apply?.code === SUCCESS_CODE ? (apply.data ?? {}) : null;
  if (data && REMATCH_SUBMIT_STATUSES.includes(Number(data.submitStatus))) {
    if (input.rematch === undefined) return need('rematch');
    const match = input.rematch;
    if (!match?.productName) {
      return go('credit.4 re-match: no product, success (revisit)', routes.success, {
        query: { revisit: true, ...applyStatusQuery(match) },
      });
    }
    return go('credit.4 re-match: product, common authorize', SPECIAL_ROUTES.commonAuthorize, {
      query: {
        // The match key only (issue 44.6: no answers in a link).
        options: matchLinkOptions({ adChannelCode: input.channel.adChannelCode, matchKey: match.matchKey }),
      },
    });
  }

  // Step 5.
  return go('credit.5 otherwise: application form', SPECIAL_ROUTES.creditApplicationForm);
}

export function decide(input: PostLoginInput): Decision {
  return input.ordering === 'credit' ? decideCredit(input) : decideMain(input);
}
