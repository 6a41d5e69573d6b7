/** localStorage key of the staff token, sent as the `accessToken` header. */
export const ADMIN_TOKEN_KEY = 'ADMIN_TOKEN';

export const ROLE_LABELS: Record<string, string> = {
  admin: '管理员',
  operator: '运营',
  viewer: '只读',
  channel_partner: '渠道合作方',
};
