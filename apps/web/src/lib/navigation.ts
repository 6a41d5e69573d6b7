/**
 * Navigation for code outside React (the API client). The app registers the router's navigate at
 * start, so a forced logout keeps the page (and its toast) instead of reloading it.
 */
type Navigate = (to: string) => void;

let navigateImpl: Navigate = (to) => window.location.assign(to);

export function setNavigate(fn: Navigate): void {
  navigateImpl = fn;
}

export function navigateTo(to: string): void {
  navigateImpl(to);
}
