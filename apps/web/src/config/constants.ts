/** localStorage keys (spec §3, §9). */
export const STORAGE_KEYS = {
  token: 'TOKEN',
  /** The known-device token of the last login (ADR 055), sent as X-Known-Device on the login calls. */
  knownDevice: 'KNOWN_DEVICE',
  uid: 'user_uid',
  phone: 'user_phone',
  adChannelCode: 'ad_channel_code',
  visitorId: 'VISITORID',
  /** Agreement acknowledged on entry (spec §3). */
  enterAgreement: 'ENTER_AGREEMENT',
  /** Route code → {channelCode, expire: 'YYYY-MM-DD' (Asia/Shanghai), planTargetUrl} (spec §3). */
  routeCodeMap: 'ROUTE_CODE_MAP',
  /** Analytics behavior code with its creation time (spec §3, §9). */
  behaviorCode: 'BEHAVIOR_CODE',
  /** Ad-platform callback parameters per channel, sent as the `track_report` header (spec §7). */
  trackReport: 'TRACK_REPORT',
  /** Channel → Shanghai date of the last reportAdChannelClick (once per day per channel). */
  adClickReported: 'AD_CLICK_REPORTED',
  /**
   * The channel colours last applied: {channel, tokens}. public/boot.js sets them before the first
   * paint of a pre-rendered page shown to that channel (the application form's frame).
   */
  themeTokens: 'THEME_TOKENS',
  /** Legacy cache, removed on every start (spec §9). */
  userInfo: 'USER_INFO',
} as const;

/** sessionStorage keys (cleared on logout together with the rest of session storage). */
export const SESSION_KEYS = {
  /** Analytics session id (random per browser session). */
  analyticsSession: 'ANALYTICS_SESSION_ID',
  /** Funnel steps already reported in this session. */
  reportedSteps: 'ANALYTICS_REPORTED_STEPS',
  /** Channel codes already reloaded once because their channelStatus is 0. */
  closedChannelReloads: 'CLOSED_CHANNEL_RELOADS',
} as const;

/**
 * sessionStorage keys of the match results (spec §3: productMatchInfo, openSecondAuthorize,
 * seconedProductMatchInfo); cleared on logout with the rest of the session's flow state.
 */
export const MATCH_SESSION_KEYS = {
  productMatchInfo: 'productMatchInfo',
  secondProductMatchInfo: 'seconedProductMatchInfo',
  /** '1' once the second authorisation was opened in this session (it opens at most once). */
  openSecondAuthorize: 'openSecondAuthorize',
} as const;

/** Skin sent as abTestType at login; skin17 is the default skin (spec §1, §3). */
export const DEFAULT_AB_TEST_TYPE = 17;

/** Delay before navigating after a success toast (spec §2, §9). */
export const NAVIGATION_DELAY_MS = 500;
