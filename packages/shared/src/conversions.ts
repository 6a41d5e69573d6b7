/**
 * Conversions (回传, issue 47.2): the steps of ours an ad platform can be told about, the event codes each
 * platform documents for them, the credentials each platform's API asks for, and the rule that decides
 * whether a step of a person is reported (pure; the outbox of 47.3 writes what it says).
 */
import { AD_PLATFORM_LABELS, type AdPlatform, CLICK_ID_PARAMS } from './ad-clicks.ts';

/** Our steps, in funnel order: 注册, 表单提交, 授权, and the lender's outcomes 授信 and 放款. */
export const CONVERSION_STEPS = ['register', 'form', 'consent', 'credit', 'loan'] as const;
export type ConversionStep = (typeof CONVERSION_STEPS)[number];

export const CONVERSION_STEP_LABELS: Record<ConversionStep, string> = {
  register: '注册',
  form: '表单提交',
  consent: '授权',
  credit: '授信',
  loan: '放款',
};

/** What each step means, as the console explains it. */
export const CONVERSION_STEP_HINTS: Record<ConversionStep, string> = {
  register: '新用户首次登录',
  form: '首次提交申请表单',
  consent: '同意向机构授权',
  credit: '机构回传已授信（额度）',
  loan: '机构回传已放款（金额）',
};

/** Steps that carry an amount (the credit limit, the funded amount) a platform can take as the value. */
export const VALUED_STEPS: readonly ConversionStep[] = ['credit', 'loan'];

/** One step's mapping to a platform event. */
export interface ConversionEventSetting {
  /** Whether the step is reported at all. */
  enabled: boolean;
  /** The platform's event code (Ocean Engine event_type, Kuaishou event_type, Baidu newType, Tencent action_type). */
  eventCode: string;
  /** Only the person's first time counts (a second submit or funded loan is not reported). */
  firstOnly: boolean;
  /** Reported only when the step's amount is at least this (fen); null: any amount. Valued steps only. */
  minAmountFen: number | null;
  /** Whether the amount goes to the platform as the event's value. Valued steps only. */
  sendValue: boolean;
}

export type ConversionEventMap = Record<ConversionStep, ConversionEventSetting>;

/** The event codes each platform documents for our steps ('' where it has none: the step starts off). */
export const DEFAULT_EVENT_CODES: Record<AdPlatform, Record<ConversionStep, string>> = {
  // Ocean Engine conversion API event_type (issue 47; docs/conversions.md).
  oceanengine: {
    register: 'active_register',
    form: 'form',
    consent: '',
    credit: 'loan_credit',
    loan: 'loan',
  },
  // Kuaishou /track/activate event_type: 2 注册, 9 表单, 11 授信; no funded-loan code.
  kuaishou: { register: '2', form: '9', consent: '', credit: '11', loan: '' },
  // Baidu oCPC newType: 3 表单提交成功 (its documentation's example); the others are the account's own.
  baidu: { register: '', form: '3', consent: '', credit: '', loan: '' },
  // Tencent user_actions/add action_type (DataNexus finance guide): REGISTER, COMPLETE_ORDER (完件), CREDIT.
  tencent: { register: 'REGISTER', form: 'COMPLETE_ORDER', consent: '', credit: 'CREDIT', loan: '' },
};

/** How each platform's event codes are written (checked when an operator saves a map). */
export const EVENT_CODE_PATTERNS: Record<AdPlatform, { pattern: RegExp; hint: string }> = {
  oceanengine: { pattern: /^[a-z][a-z0-9_]{0,63}$/, hint: '小写字母、数字和下划线，如 active_register' },
  kuaishou: { pattern: /^[1-9]\d{0,3}$/, hint: '数字，如 2（注册）' },
  baidu: { pattern: /^[1-9]\d{0,3}$/, hint: '数字（newType），如 3（表单提交成功）' },
  tencent: { pattern: /^[A-Z][A-Z0-9_]{0,63}$/, hint: '大写字母、数字和下划线，如 REGISTER' },
};

/** The default event map of a platform: every step with a documented code on, first time only, values sent. */
export function defaultEventMap(platform: AdPlatform): ConversionEventMap {
  const codes = DEFAULT_EVENT_CODES[platform];
  const map = {} as ConversionEventMap;
  for (const step of CONVERSION_STEPS) {
    const valued = VALUED_STEPS.includes(step);
    map[step] = {
      enabled: codes[step] !== '',
      eventCode: codes[step],
      firstOnly: true,
      minAmountFen: null,
      sendValue: valued,
    };
  }
  return map;
}

/** A credential a platform's API asks for. */
export interface CredentialField {
  key: string;
  label: string;
  /** Secret values are never answered back, only whether they are set and their last four characters. */
  secret: boolean;
  pattern: RegExp;
  hint: string;
}

/**
 * The credentials of each platform's conversion API: Ocean Engine and Kuaishou take the click's own callback
 * and need none; Baidu a token per account; Tencent the account, its user action set and an access token.
 */
export const PLATFORM_CREDENTIALS: Record<AdPlatform, readonly CredentialField[]> = {
  oceanengine: [],
  kuaishou: [],
  baidu: [
    {
      key: 'token',
      label: '百度 token',
      secret: true,
      pattern: /^[A-Za-z0-9_.-]{8,256}$/,
      hint: '百度营销转化追踪的 token（8 到 256 位字母、数字、下划线、点或短横线）',
    },
  ],
  tencent: [
    { key: 'accountId', label: '广告主账户 ID', secret: false, pattern: /^\d{1,20}$/, hint: '数字' },
    {
      key: 'userActionSetId',
      label: '数据源 ID',
      secret: false,
      pattern: /^\d{1,20}$/,
      hint: '数字（user_action_set_id）',
    },
    {
      key: 'accessToken',
      label: 'access_token',
      secret: true,
      pattern: /^[A-Za-z0-9_.-]{8,256}$/,
      hint: '腾讯广告 Marketing API 的 access_token（8 到 256 位）',
    },
  ],
};

/** The longest and shortest attribution window an operator can set (days). */
export const ATTRIBUTION_WINDOW_DAYS = { min: 1, max: 30 } as const;

/** One happening of a step for a person, as the reporting rule sees it. */
export interface StepHappening {
  step: ConversionStep;
  /** How many times this person had this step before (0: the first time). */
  earlier: number;
  /** The step's amount in fen (credit limit, funded amount), null where it has none. */
  amountFen: number | null;
}

export type ReportDecision =
  | { report: true; eventCode: string; valueFen: number | null }
  | { report: false; reason: 'off' | 'step' | 'repeat' | 'below-minimum' };

/**
 * Whether a step of a person is reported to the channel's platform, under which event code and with which
 * value: not when the channel's reporting or the step is off, a repeat of a first-only step, or an amount
 * below the step's minimum (a step without an amount never passes a minimum).
 */
export function reportDecision(
  settings: { enabled: boolean; events: ConversionEventMap },
  happening: StepHappening,
): ReportDecision {
  if (!settings.enabled) return { report: false, reason: 'off' };
  const event = settings.events[happening.step];
  if (!event.enabled || event.eventCode === '') return { report: false, reason: 'step' };
  if (event.firstOnly && happening.earlier > 0) return { report: false, reason: 'repeat' };
  const valued = VALUED_STEPS.includes(happening.step);
  if (valued && event.minAmountFen !== null && (happening.amountFen ?? -1) < event.minAmountFen)
    return { report: false, reason: 'below-minimum' };
  return {
    report: true,
    eventCode: event.eventCode,
    valueFen: valued && event.sendValue ? happening.amountFen : null,
  };
}

/**
 * Why a channel's settings could not report now, in the console's words (empty: they can): the landing does
 * not capture the platform's click parameters (the channel's 广告回传 setting), a credential the platform's
 * API needs is missing, or no step is on. A channel whose reporting is on must have none (its save is refused).
 */
export function conversionProblems(
  settings: { platform: AdPlatform; events: ConversionEventMap },
  capture: { platform: string; params: readonly string[] } | null,
  credentialsSet: ReadonlySet<string>,
): string[] {
  const problems: string[] = [];
  const clickParams = CLICK_ID_PARAMS[settings.platform];
  const name = AD_PLATFORM_LABELS[settings.platform];
  if (!capture)
    problems.push(
      `渠道未开启广告回传（track_report），落地页不采集点击参数：请在渠道设置中开启，平台填 ${settings.platform}，参数填 ${clickParams.join('、')}`,
    );
  else if (capture.platform !== settings.platform)
    problems.push(
      `渠道采集的是 ${capture.platform} 的参数，与回传平台 ${settings.platform}（${name}）不一致`,
    );
  else if (!clickParams.some((p) => capture.params.includes(p)))
    problems.push(
      `渠道采集的参数（${capture.params.join('、')}）不含${name}的点击参数 ${clickParams.join(' 或 ')}`,
    );
  for (const field of PLATFORM_CREDENTIALS[settings.platform])
    if (!credentialsSet.has(field.key)) problems.push(`请填写${name}的${field.label}`);
  if (!CONVERSION_STEPS.some((s) => settings.events[s].enabled)) problems.push('没有开启任何回传事件');
  return problems;
}

/** How a stored secret is shown: its last four characters after four stars. */
export const maskSecret = (value: string): string => `****${value.slice(-4)}`;

/**
 * What became of a conversion report (`ad_reports.status`): waiting for the worker, accepted by the platform,
 * refused for good or out of attempts (replayable from the console), or too late for the platform's window
 * (recorded, never sent; issue 47.5).
 */
export const AD_REPORT_STATUSES = ['pending', 'sent', 'dead', 'late'] as const;
export type AdReportStatus = (typeof AD_REPORT_STATUSES)[number];
export const AD_REPORT_STATUS_LABELS: Record<AdReportStatus, string> = {
  pending: '待回传',
  sent: '已回传',
  dead: '回传失败',
  late: '超出回传时限',
};

/**
 * How long after the ad click a platform still takes its conversion (days): a step later than this is recorded
 * as `late` and not sent (ADR 072 — our reading of each platform's attribution window; one place to change).
 */
export const PLATFORM_REPORT_WINDOW_DAYS: Record<AdPlatform, number> = {
  oceanengine: 7,
  kuaishou: 7,
  baidu: 30,
  tencent: 7,
};

/** Whether a step that happened at `happenedAt` is still inside the platform's window of a click at `clickedAt`. */
export function withinReportWindow(platform: AdPlatform, clickedAt: Date, happenedAt: Date): boolean {
  return happenedAt.getTime() - clickedAt.getTime() <= PLATFORM_REPORT_WINDOW_DAYS[platform] * 86_400_000;
}

/**
 * A negative signal (issue 47.3): the lead a platform was told about (表单提交) turned out invalid — a lender
 * reported it a duplicate (later: returned, issue 48). Only where the platform takes one: Ocean Engine as the
 * event `failed_lead`, Baidu through `uploadInvalidConvertData` with the lead's own `newType`. Kuaishou and
 * Tencent have no such call: nothing is sent.
 */
export const NEGATIVE_STEP = 'invalid' as const;
export type ReportStep = ConversionStep | typeof NEGATIVE_STEP;
export const REPORT_STEP_LABELS: Record<ReportStep, string> = {
  ...CONVERSION_STEP_LABELS,
  invalid: '无效线索（负向回传）',
};

/** The event code a negative signal goes under, given the code the lead (表单提交) was reported with; null: none. */
export function negativeEventCode(platform: AdPlatform, formEventCode: string): string | null {
  switch (platform) {
    case 'oceanengine':
      return 'failed_lead';
    case 'baidu':
      return formEventCode;
    case 'kuaishou':
    case 'tencent':
      return null;
  }
}
