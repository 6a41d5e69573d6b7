import { ADMIN_TOKEN_KEY } from '@/config/constants';

export function getAdminToken(): string | null {
  try {
    return window.localStorage.getItem(ADMIN_TOKEN_KEY);
  } catch {
    return null;
  }
}

export function setAdminToken(token: string): void {
  window.localStorage.setItem(ADMIN_TOKEN_KEY, token);
}

export function clearAdminToken(): void {
  try {
    window.localStorage.removeItem(ADMIN_TOKEN_KEY);
  } catch {
    // Storage unavailable.
  }
}

/** Absolute path of an admin route, e.g. adminPath('login') → /admin/login. */
export function adminPath(route: string): string {
  return `${import.meta.env.BASE_URL}${route.replace(/^\//, '')}`;
}
