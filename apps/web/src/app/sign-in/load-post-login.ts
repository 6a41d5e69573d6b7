import { loadChunk } from '@/lib/chunk-load';

/**
 * What follows a login (post-login.ts), loaded on demand: the pages that show the login form
 * (/login, the landing, /register) give it to the form, which prefetches it once a code was sent.
 * Without a network it waits for it (网络连接错误) rather than failing the login (docs/decisions/058).
 */
export const loadPostLogin = () => loadChunk(() => import('./post-login'));
