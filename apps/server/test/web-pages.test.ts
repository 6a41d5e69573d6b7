/**
 * ADR 017: the server renders the authorise page of a re-match link with the web build's render
 * module (apps/web/dist-ssr) and serves index.html whenever there is nothing to render or rendering
 * fails. Here the web build is a small one written by the test, so the wiring is tested without
 * building the H5 (e2e/rematch-link.e2e.test.ts opens the real build in Chromium).
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { openDatabase } from '../src/db/client.ts';
import { encodePage } from '../src/lib/web-ssr.ts';
import { H5_PERMISSIONS_POLICY } from '../src/plugins/external/security.ts';
import { testConfig } from './helpers.ts';

const PATH = '/fill-information/common-authorize';
const INDEX = '<!doctype html><html lang="zh-CN"><body><div id="root"></div></body></html>';
const TEMPLATE =
  '<!doctype html><html lang="zh-CN" data-ssr="/fill-information/common-authorize"><body>' +
  '<div id="lm-shell"><div data-shell="/fill-information/common-authorize" inert><!--lm-ssr--></div></div>' +
  '<div id="root"></div></body></html>';
// The render module's contract (apps/web/src/prerender.tsx): null when the link carries no offer.
const RENDER_MODULE = `
export const AUTHORIZE_PATH = ${JSON.stringify(PATH)};
export function renderAuthorize(search) {
  const options = new URLSearchParams(search.replace(/^\\?/, '')).get('options');
  if (!options) return null;
  if (options === 'throw') throw new Error('render failed');
  return '<p>' + options.replaceAll('&', '&amp;').replaceAll('<', '&lt;') + '</p>';
}
export const FORM_PATH = '/fill-information';
export function renderForm() { return '<main>form frame</main>'; }
`;
const FORM_TEMPLATE =
  '<!doctype html><html lang="zh-CN" data-ssr="/fill-information"><body><!--lm-ssr--></body></html>';

function webBuild(root: string, opts: { template?: string } = {}): string {
  const dist = join(root, 'dist');
  mkdirSync(dist, { recursive: true });
  mkdirSync(join(root, 'dist-ssr'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), INDEX);
  writeFileSync(join(root, 'dist-ssr', 'prerender.js'), RENDER_MODULE);
  writeFileSync(join(root, 'dist-ssr', 'authorize.html'), opts.template ?? TEMPLATE);
  writeFileSync(join(root, 'dist-ssr', 'form.html'), FORM_TEMPLATE);
  return dist;
}

async function appFor(webDist: string): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const database = await openDatabase({});
  const app = await buildApp({
    config: testConfig({ WEB_DIST: webDist, ADMIN_DIST: join(webDist, 'no-admin') }),
    database,
    logger: false,
  });
  return {
    app,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

const decode = (raw: Buffer, encoding: string | undefined) =>
  (encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : raw).toString(
    'utf8',
  );

let root: string;
let served: { app: FastifyInstance; close(): Promise<void> };

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'lm-web-pages-'));
  served = await appFor(webBuild(join(root, 'good')));
});
afterAll(async () => {
  await served?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('server-rendered authorise page', () => {
  it('fills the template with the rendered page, compressed, never cached', async () => {
    const res = await served.app.inject({
      url: `${PATH}?options=${encodeURIComponent('{"rqResult":"<b>x</b>"}')}`,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.vary).toContain('accept-encoding');
    // The security headers of every page, with the CSP.
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['permissions-policy']).toBe(H5_PERMISSIONS_POLICY);
    const html = decode(res.rawPayload, 'br');
    expect(html).toBe(TEMPLATE.replace('<!--lm-ssr-->', '<p>{"rqResult":"&lt;b>x&lt;/b>"}</p>'));
  });

  it('answers gzip or plain HTML to clients without brotli (q=0 refuses an encoding)', async () => {
    for (const [accept, expected] of [
      ['gzip', 'gzip'],
      ['br;q=0, gzip;q=0.5', 'gzip'],
      ['br;q=0.0, gzip;q=0', undefined],
      ['identity', undefined],
      [undefined, undefined],
    ] as const) {
      const res = await served.app.inject({
        url: `${PATH}?options=x`,
        ...(accept ? { headers: { 'accept-encoding': accept } } : {}),
      });
      expect(res.statusCode, String(accept)).toBe(200);
      expect(res.headers['content-encoding'], String(accept)).toBe(expected);
      expect(decode(res.rawPayload, expected)).toContain('<p>x</p>');
    }
  });

  it('serves index.html when the link carries nothing to render, when rendering fails, and on other pages', async () => {
    for (const url of [
      PATH,
      `${PATH}?`,
      `${PATH}?adChannelCode=demo`,
      `${PATH}?options=throw`,
      '/fill-information/success',
      '/my',
    ]) {
      const res = await served.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(INDEX);
    }
  });

  it("serves the application form's frame rendered once, the same for everybody (ADR 065)", async () => {
    for (const url of ['/fill-information', '/fill-information/', '/fill-information?adChannelCode=demo']) {
      const res = await served.app.inject({ url, headers: { 'accept-encoding': 'identity' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.body, url).toBe(FORM_TEMPLATE.replace('<!--lm-ssr-->', '<main>form frame</main>'));
    }
  });

  it('a new build’s template is served without a restart', async () => {
    const dir = join(root, 'rebuilt');
    const rebuilt = await appFor(webBuild(dir));
    try {
      const next = TEMPLATE.replace('<body>', '<body data-build="2">');
      writeFileSync(join(dir, 'dist-ssr', 'authorize.html'), next);
      utimesSync(join(dir, 'dist-ssr', 'authorize.html'), new Date(), new Date(Date.now() + 5_000));
      const res = await rebuilt.app.inject({ url: `${PATH}?options=x` });
      expect(res.body).toBe(next.replace('<!--lm-ssr-->', '<p>x</p>'));
    } finally {
      await rebuilt.close();
    }
  });

  it('a broken render build leaves the page to the app (index.html), the server starts anyway', async () => {
    const broken = await appFor(
      webBuild(join(root, 'broken'), { template: '<html><body>no slot</body></html>' }),
    );
    try {
      const res = await broken.app.inject({ url: `${PATH}?options=x` });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(INDEX);
      expect((await broken.app.inject({ url: '/api/nope' })).statusCode).toBe(404);
    } finally {
      await broken.close();
    }
  });
});

describe('encodePage', () => {
  it('prefers brotli, then gzip, and round-trips the page', () => {
    const page = '<p>借款</p>'.repeat(200);
    const br = encodePage(page, 'gzip, br');
    expect(br.encoding).toBe('br');
    expect(br.body.length).toBeLessThan(Buffer.byteLength(page) / 5);
    expect(decode(br.body, 'br')).toBe(page);
    const gz = encodePage(page, 'GZIP');
    expect(gz.encoding).toBe('gzip');
    expect(decode(gz.body, 'gzip')).toBe(page);
    expect(encodePage(page, '*;q=0').encoding).toBeNull();
  });
});
