import type { StaffRole } from '../api/get-staff';

export const STAFF_ROLE_LABELS: Record<StaffRole, string> = {
  admin: '管理员',
  operator: '运营',
  viewer: '只读',
  channel_partner: '渠道合作方',
};

export const STAFF_ROLE_HINTS: Record<StaffRole, string> = {
  admin: '全部功能，包括账号管理',
  operator: '查看并修改渠道、机构、产品、线索等',
  viewer: '只能查看，不能修改',
  channel_partner: '只能查看所绑定渠道的转化漏斗（与运营看到的数据一致）',
};

export const STAFF_ROLE_COLORS: Record<StaffRole, string> = {
  admin: 'red',
  operator: 'blue',
  viewer: 'default',
  channel_partner: 'purple',
};
