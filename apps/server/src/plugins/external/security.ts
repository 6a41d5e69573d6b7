import fp from 'fastify-plugin';
import helmet from 'helmet';
import { inlineScriptHashes } from '../../lib/csp.ts';
import { LOCAL_STORAGE_PATH, storageOrigins } from '../../providers/storage/index.ts';
import { WEB_DIST_DEFAULT } from './static.ts';
import { API_DOCS_PATH } from './swagger.ts';

/**
 * Powerful browser features nothing of ours uses: no document may use them, nor frame anything that does.
 * Only features Chromium recognises in Permissions-Policy (its permissions_policy_features.json5): an unknown
 * one (`bluetooth` was) is reported on every page load as "Unrecognized feature" (issue 44;
 * e2e/permissions-policy.e2e.test.ts).
 */
const DENIED_FEATURES = [
  'accelerometer',
  'camera',
  'display-capture',
  'geolocation',
  'gyroscope',
  'hid',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
] as const;

function permissionsPolicy(allowed: readonly (typeof DENIED_FEATURES)[number][]): string {
  return DENIED_FEATURES.map((f) => `${f}=${allowed.includes(f) ? '(self)' : '()'}`).join(', ');
}

/** Every answer but an H5 page: API answers, files, the console, the API document. */
export const PERMISSIONS_POLICY = permissionsPolicy([]);
/**
 * H5 pages: the face step (camera, getUserMedia) and the location flow (geolocation) are client-side
 * routes of one single-page app, reached from any page without a new document, so every H5 page keeps
 * both for itself (never for frames: the partner pages of /inline-page get neither). ADR 020.
 */
export const H5_PERMISSIONS_POLICY = permissionsPolicy(['camera', 'geolocation']);

/**
 * The headers of an API answer (JSON under /api, refusals included): what a JSON answer needs, after
 * OWASP's REST Security Cheat Sheet, instead of the document set (ADR 036), and `no-store` (ADR 056). The CSP forbids everything,
 * should anybody open an answer as a page; nosniff keeps it JSON; the resource policy keeps other sites'
 * pages from embedding it; HSTS as on every answer. The document headers (permissions, referrer, opener,
 * frame options, …) govern what a page may do and mean nothing to JSON read by script.
 */
export const API_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  // No cache keeps an API answer (issue 44 item 9): most carry personal data or a session's view. A public
  // answer meant to be cached (h5Config, agreements, news) sets its own Cache-Control over this one.
  'cache-control': 'no-store',
});

/**
 * An API call: under /api, except what /api serves to be opened as a page or file (the API document at
 * /api/docs, uploaded files at /api/storage), which get the document set.
 */
export function isApiCall(url: string): boolean {
  return (
    url.startsWith('/api/') &&
    !url.startsWith(API_DOCS_PATH) &&
    !url.startsWith(`${LOCAL_STORAGE_PATH}/`) &&
    url !== LOCAL_STORAGE_PATH
  );
}

/**
 * Marks an answer as an H5 page (HTML of the web app: index.html, a rendered
 * landing, the rendered authorise page): it gets ADR 020's H5 permissions instead of the deny-all set.
 * Called where those pages are sent (plugins/external/static.ts), which knows what it sends.
 */
export function markH5Page(reply: { header(name: string, value: string): unknown }): void {
  reply.header('permissions-policy', H5_PERMISSIONS_POLICY);
}

/**
 * The headers helmet sets for `options`, computed once: helmet builds its middleware (and @fastify/helmet
 * calls helmet per request) from the options every time, though ours never change (issue 17.3). Lower-case
 * names, as reply.header stores them.
 */
export function helmetHeaders(options: Parameters<typeof helmet>[0]): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failed: unknown;
  helmet(options)({} as never, res as never, (err?: unknown) => {
    failed = err;
  });
  if (failed) throw failed;
  return headers;
}

/** Security headers. Styles allow inline: antd and antd-mobile inject their CSS at run time. */
export default fp(
  async (app) => {
    // The H5's pages carry one small inline script (apps/web/public/boot.js, run before first paint).
    const scriptHashes = inlineScriptHashes(app.config.WEB_DIST ?? WEB_DIST_DEFAULT);
    // With Aliyun OSS the browser posts uploads to the bucket and shows public images from it.
    const storage = storageOrigins(app.config);
    const headers = helmetHeaders({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", ...scriptHashes],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:', ...storage],
          connectSrc: ["'self'", ...storage],
          fontSrc: ["'self'", 'data:'],
          frameSrc: ["'self'", 'https:'],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          // Same-origin framing only: the console's live channel preview frames the H5 (issue 7).
          frameAncestors: ["'self'"],
        },
      },
      crossOriginEmbedderPolicy: false,
    });
    // Set on arrival, so refusals carry them too; H5 pages get their permissions where they are sent
    // (markH5Page).
    headers['permissions-policy'] = PERMISSIONS_POLICY;
    app.addHook('onRequest', (req, reply, done) => {
      if (isApiCall(req.url)) reply.headers(API_HEADERS);
      else {
        reply.headers(headers);
        // The files and the document under /api are no-store too unless they say otherwise (a public
        // upload is immutable): a refusal of a private file is kept by no cache either.
        if (req.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
      }
      done();
    });
  },
  { name: 'security' },
);
