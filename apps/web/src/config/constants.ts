/** localStorage keys (spec §3, §9). */
export const STORAGE_KEYS = {
  token: 'TOKEN',
  uid: 'user_uid',
  phone: 'user_phone',
  adChannelCode: 'ad_channel_code',
  visitorId: 'VISITORID',
  /** Legacy cache, removed on every start (spec §9). */
  userInfo: 'USER_INFO',
} as const;

/** Skin sent as abTestType at login; skin17 is the default skin (spec §1, §3). */
export const DEFAULT_AB_TEST_TYPE = 17;

/** Delay before navigating after a success toast (spec §2, §9). */
export const NAVIGATION_DELAY_MS = 500;
