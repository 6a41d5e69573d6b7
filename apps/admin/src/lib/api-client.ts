/**
 * The admin app's API client: the shared core (@lm/shared/client/api-client, ADR 028) with the
 * `accessToken` header from localStorage ADMIN_TOKEN, error notifications and the way back to the
 * login page (spec §8).
 */
import { createApiClient } from '@lm/shared/client/api-client';
import { adminPath, clearAdminToken, getAdminToken } from './auth';
import { notifyError } from './notify';

export { ApiError, type ApiErrorName, type RequestOptions } from '@lm/shared/client/api-client';

export const api = createApiClient({
  cancelPrevious: false,
  headers: ({ skipAuth }) => {
    const headers: Record<string, string> = { Accept: 'application/json' };
    const token = skipAuth ? null : getAdminToken();
    if (token) headers.accessToken = token;
    return headers;
  },
  showError: notifyError,
  /** The staff token is no longer valid: forget it and go back to the login page. */
  logout: (msg, { silent }) => {
    clearAdminToken();
    const login = adminPath('login');
    if (window.location.pathname === login) return;
    if (!silent) notifyError(msg);
    const from = window.location.pathname + window.location.search;
    window.location.assign(`${login}?from=${encodeURIComponent(from)}`);
  },
});
