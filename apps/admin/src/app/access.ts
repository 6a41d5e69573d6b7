import type { StaffRole } from '@/features/auth/api/types';

const STAFF: readonly StaffRole[] = ['admin', 'operator', 'viewer'];

/**
 * The console's pages with the roles that may open them — the menu shows these and the router sends
 * anyone else to their own first page (the server refuses the same calls with 403 anyway, spec §6).
 */
export const PAGES: readonly { path: string; label: string; roles: readonly StaffRole[] }[] = [
  { path: '/', label: '概览', roles: STAFF },
  { path: '/funnel', label: '转化漏斗', roles: [...STAFF, 'channel_partner'] },
  { path: '/roi', label: '投放收益', roles: STAFF },
  { path: '/channels', label: '渠道管理', roles: STAFF },
  { path: '/spend-imports', label: '消耗导入', roles: STAFF },
  { path: '/operators', label: '运营主体', roles: STAFF },
  { path: '/partners', label: '合作机构', roles: STAFF },
  { path: '/products', label: '产品管理', roles: STAFF },
  { path: '/rule-tester', label: '规则测试', roles: STAFF },
  { path: '/leads', label: '用户与线索', roles: STAFF },
  { path: '/deliveries', label: '线索发送', roles: STAFF },
  { path: '/returns', label: '线索退回', roles: STAFF },
  { path: '/privacy/deletions', label: '数据删除请求', roles: STAFF },
  { path: '/settlement', label: '结算对账', roles: [...STAFF, 'channel_partner'] },
  { path: '/audit-log', label: '操作日志', roles: STAFF },
  { path: '/web-vitals', label: '性能监控', roles: STAFF },
  { path: '/staff', label: '账号管理', roles: ['admin'] },
];

/** The page a path belongs to (`/channels/12` → `/channels`; unknown paths → `/`). */
export function pageOf(pathname: string): (typeof PAGES)[number] {
  const path = pathname.replace(/\/+$/, '') || '/';
  const match = PAGES.filter(
    (p) => p.path !== '/' && (path === p.path || path.startsWith(`${p.path}/`)),
  ).sort((a, b) => b.path.length - a.path.length)[0];
  return match ?? PAGES[0]!;
}

/** Where a role starts: a channel partner on its funnel, staff on the overview. */
export function homeOf(role: StaffRole): string {
  return PAGES.find((p) => p.roles.includes(role))!.path;
}

/** Whether `role` may open `pathname`. */
export function mayOpen(role: StaffRole, pathname: string): boolean {
  return pageOf(pathname).roles.includes(role);
}
