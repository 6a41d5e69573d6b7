/** localStorage key of the staff token, sent as the `accessToken` header. */
export const ADMIN_TOKEN_KEY = 'ADMIN_TOKEN';
/** The console's known-device token (ADR 055), sent as X-Known-Device on the login calls; kept across logouts. */
export const ADMIN_KNOWN_DEVICE_KEY = 'ADMIN_KNOWN_DEVICE';

export const ROLE_LABELS: Record<string, string> = {
  admin: '管理员',
  operator: '运营',
  viewer: '只读',
  channel_partner: '渠道合作方',
};
