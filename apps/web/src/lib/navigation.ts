/**
 * Navigation for code outside React components (the API client, the post-login flow). The app
 * registers the router's navigate at start, so navigating keeps the page (and its toast) instead of
 * reloading it. Before that, or without a router, it falls back to a full page load.
 */
export interface NavigateOptions {
  /** Replace the current history entry instead of pushing one. */
  replace?: boolean;
}

type Navigate = (to: string, options?: NavigateOptions) => void;

let navigateImpl: Navigate = (to, options) => {
  if (options?.replace) window.location.replace(to);
  else window.location.assign(to);
};

/** Registered by the app with the router: `(to, o) => router.navigate(to, { replace: o?.replace })`. */
export function setNavigate(fn: Navigate): void {
  navigateImpl = fn;
}

export function navigateTo(to: string, options?: NavigateOptions): void {
  navigateImpl(to, options);
}
