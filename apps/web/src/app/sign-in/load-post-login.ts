/**
 * What follows a login (post-login.ts), loaded on demand: the pages that show the login form
 * (/login, the landing, /register) give it to the form, which prefetches it once a code was sent.
 */
export const loadPostLogin = () => import('./post-login');
