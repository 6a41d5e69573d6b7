import { matchRoutes, type RouteObject } from 'react-router';

/**
 * The route pattern of `pathname` in `routes` (/audit-new/:id, /my/personal-data, /*), never the
 * concrete URL: paths and queries may carry personal data.
 */
export function routePatternOf(routes: RouteObject[], pathname: string): string {
  const matches = matchRoutes(routes, pathname);
  if (!matches) return '/*';
  let pattern = '';
  for (const m of matches) {
    const p = m.route.path;
    if (!p) continue;
    pattern = p.startsWith('/') ? p : `${pattern.replace(/\/$/, '')}/${p}`;
  }
  return pattern || '/';
}
