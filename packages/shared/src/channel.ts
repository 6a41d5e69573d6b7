/**
 * Channels (spec §1–§3): a channel's dash-separated feature-flag value picks its skin, colour theme and
 * flow. Used by the server (h5Config) and the H5 alike; no zod here so the landing bundle stays small.
 */

export const DEFAULT_SKIN = 17;
export const SKINS = [8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23] as const;
export type Skin = (typeof SKINS)[number];

/**
 * Channel colours. `primary` is the brand colour (spec §1, what h5Config.themeColor carries); `ink` is its
 * accessible shade (issue 17: `accessibleShade(primary)` from ./contrast.ts, the same hue darkened until
 * white text on it and it as text on white and on the page grey reach 4.5:1), which the H5 uses for
 * buttons, links and coloured text.
 */
export const THEMES = {
  red: { name: '经典红', primary: '#FF2C3E', ink: '#d92535' },
  purple: { name: '紫色', primary: '#7B4DFF', ink: '#7a4cfc' },
  shallowBlue: { name: '浅蓝', primary: '#3D8BFF', ink: '#316fcc' },
  halo: { name: '光晕蓝', primary: '#1F6BFF', ink: '#1e67f5' },
  teal: { name: '青色', primary: '#14B8A6', ink: '#0e7f73' },
} as const;
export type ThemeName = keyof typeof THEMES;
export const DEFAULT_THEME: ThemeName = 'red';

export type FlowName = 'default' | 'fenqile' | 'formprocess3' | 'formprocess4';

export interface FlowRoutes {
  /** Where the application form is. */
  form: string;
  /** Re-match and authorise. */
  rematch: string;
  success: string;
}

/** Flow routes by channel value (spec §2). */
export const FLOW_ROUTES: Record<FlowName, FlowRoutes> = {
  default: {
    form: '/fill-information',
    rematch: '/fill-information/rematch-waiting',
    success: '/fill-information/success',
  },
  fenqile: {
    form: '/new-fill-information',
    rematch: '/new-fill-information',
    success: '/fill-information/success',
  },
  formprocess3: {
    form: '/fill-information-three/loading',
    rematch: '/fill-information-three/authorize-page-three',
    success: '/fill-information-three/success-page',
  },
  formprocess4: {
    form: '/fill-information-four',
    rematch: '/fill-information-four',
    success: '/fill-information/success',
  },
};

/** Special routes (spec §2). */
export const SPECIAL_ROUTES = {
  haierAutoForm: '/fill-information/waiting-result',
  identityVerification: '/credit-process/identity-verification',
  faceVerificationLoading: '/credit-process/face-verification-loading',
  creditPersonalInfo: '/credit-process/credit-personal-infomation',
  creditApplicationForm: '/credit-process/credit-application-form',
  commonAuthorize: '/fill-information/common-authorize',
  registerSuccess: '/register/success',
  quota: '/getQuota',
} as const;

/** Known feature flags. Unknown flags are kept (operators may add new ones) but have no effect here. */
export const KNOWN_FLAGS = [
  ...SKINS.map((n) => `skin${n}`),
  'shallowBlue',
  'halo',
  'purple',
  'teal',
  'fenqile',
  'formprocess3',
  'formprocess4',
  'jufu',
  'baidu',
  'huanbei',
  'haier',
] as const;

export interface ChannelFeatures {
  skin: number;
  theme: ThemeName;
  flow: FlowName;
  flags: string[];
}

/** Reads a channel's flag value, e.g. "skin8-shallowBlue-fenqile". */
export function parseChannelFlags(value: string | null | undefined): ChannelFeatures {
  const flags = (value ?? '')
    .split('-')
    .map((f) => f.trim())
    .filter(Boolean);
  let skin = DEFAULT_SKIN;
  for (const f of flags) {
    const m = /^skin(\d+)$/.exec(f);
    if (m && (SKINS as readonly number[]).includes(Number(m[1]))) skin = Number(m[1]);
  }
  const theme: ThemeName = flags.includes('purple')
    ? 'purple'
    : flags.includes('shallowBlue')
      ? 'shallowBlue'
      : flags.includes('halo')
        ? 'halo'
        : flags.includes('teal')
          ? 'teal'
          : DEFAULT_THEME;
  const flow: FlowName = flags.includes('fenqile')
    ? 'fenqile'
    : flags.includes('formprocess3')
      ? 'formprocess3'
      : flags.includes('formprocess4')
        ? 'formprocess4'
        : 'default';
  return { skin, theme, flow, flags };
}

/** Link types (spec §3). */
export const LinkType = {
  H5_REDIRECT: 1,
  API: 2,
  CRM: 3,
  API_FORM_H5: 4,
  MATCH_CALLBACK: 5,
  SAAS_API: 6,
  WHOLE_PROCESS: 7,
  JOINT_LOGIN: 8,
  CITY: 9,
} as const;
export const LINK_TYPE_LABELS: Record<number, string> = {
  1: 'H5跳转',
  2: 'API对接',
  3: 'CRM对接',
  4: 'API表单H5跳转',
  5: '撞库回调',
  6: 'SaaS API',
  7: '全流程',
  8: '联合登录',
  9: '城市',
};

/**
 * Analytics funnel steps (spec §1), in order. `re_authorization` (二次授权) is the spec's last step: an
 * authorisation page opened again after the retention popup (挽留弹窗). `second_match_authorization`
 * (二次匹配授权) is not of the spec: the second authorisation of spec §4 (`/seconed-match-authorize`, a
 * second match offered right after the first consent), which has nothing to do with the popup
 * (issue 44.14, docs/console.md).
 */
export const FUNNEL_STEPS = [
  'init',
  'visit_landing',
  'get_verification_code',
  'login',
  'visit_form',
  'submit_form',
  'visit_authorization',
  'authorize',
  'visit_result',
  'download_app',
  'retention_popup',
  're_authorization',
  'second_match_authorization',
] as const;
export type FunnelStep = (typeof FUNNEL_STEPS)[number];
export const FUNNEL_STEP_LABELS: Record<FunnelStep, string> = {
  init: '初始化',
  visit_landing: '访问落地页',
  get_verification_code: '获取验证码',
  login: '登录',
  visit_form: '访问表单',
  submit_form: '提交表单',
  visit_authorization: '访问授权页',
  authorize: '授权',
  visit_result: '访问结果页',
  download_app: '下载App',
  retention_popup: '挽留弹窗',
  re_authorization: '二次授权',
  second_match_authorization: '二次匹配授权',
};
export const ANALYTICS_SOURCE = 'H5';

/** Agreement pages the H5 links to (spec §2). */
export const AGREEMENT_PAGES = [
  { key: 'register-agreement', title: '注册协议' },
  { key: 'privacy-agreement', title: '隐私政策' },
  { key: 'information-agreement', title: '个人信息授权书' },
  { key: 'info-audit-agreement', title: '信息审核授权书' },
  { key: 'jkr-general-agreement', title: '借款人通用协议' },
  { key: 'jkr-student-agreement', title: '非在校学生承诺函' },
  { key: 'jkr-privacy-agreement', title: '借款人隐私协议' },
  { key: 'jkr-register-agreement', title: '借款人注册协议' },
  { key: 'clarification-announcement', title: '澄清公告' },
  { key: 'audit-agreement-privacy', title: '审核隐私协议' },
  { key: 'audit-agreement-register', title: '审核注册协议' },
  { key: 'audit-agreement-contact', title: '联系人授权协议' },
  { key: 'yq-shopkeeper-agreement', title: '店主服务协议' },
] as const;

/**
 * Everything the H5 needs for one channel, in one cached answer of GET /api/adChannel/h5Config.
 * Without a channel code (or for an unknown one) the server answers the default configuration with
 * `adChannelCode: ''`.
 */
export interface H5Config {
  adChannelCode: string;
  name: string;
  /** 1 open, 0 closed. */
  channelStatus: number;
  linkType: number;
  skin: number;
  theme: ThemeName;
  themeColor: string;
  flow: FlowName;
  flowRoutes: FlowRoutes;
  flags: string[];
  /** Page title for the channel (falls back to the route's title when null). */
  title: string | null;
  icon: string | null;
  needsLocation: boolean;
  excludeCityCodes: string[];
  planTargetUrl: string | null;
  trackReport: { platform: string; params: string[] } | null;
  allowedHosts: string[];
  /**
   * The licensed-company record of the channel's operator (ADR 057; the configured one without): the party its
   * agreements, privacy policy and SMS name too. One entry.
   */
  footer: { companyName: string; filingNumber: string }[];
  agreements: { key: string; title: string; path: string }[];
  /**
   * Server side only (the cached value): the channel's A/B skin arms. The answer to the H5 never
   * carries them: it carries the skin of the visitor's arm.
   */
  skinArms?: { skin: number; weight: number }[];
}

/** Query keys that may carry the advertising channel code, in order of preference (spec §3). */
export const CHANNEL_QUERY_KEYS = ['adChannelCode', 'source', 'apiChannelCode'] as const;

/** Query key of a route code (spec §3: exchanged for a channel code and a plan target URL). */
export const ROUTE_CODE_QUERY_KEY = 'adRouteCode';

/** The channel code a query carries: the first non-blank of adChannelCode, source, apiChannelCode. */
export function pickChannelCode(query: { get(key: string): string | null }): string | undefined {
  for (const key of CHANNEL_QUERY_KEYS) {
    const value = query.get(key)?.trim();
    if (value) return value;
  }
  return undefined;
}
