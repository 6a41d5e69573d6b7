/**
 * A small web build written by a test (the render module's contract of apps/web/src/prerender.tsx, the
 * templates and index.html), so the server's page serving is tested without building the
 * H5. The render module counts its renders (`renders()`), and a channel titled "throw" makes it fail.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const INDEX =
  '<!doctype html><html lang="zh-CN"><body><div id="root"></div><p>default landing</p></body></html>';
/** The application form's page (its template filled with the frame). */
export const FORM = '<html><body><main>form frame</main></body></html>';
const template = (shell: string) =>
  '<!doctype html><html lang="zh-CN" __LM_HTML_ATTRS__><head>' +
  '<meta name="theme-color" content="__LM_THEME_COLOR__"><link rel="icon" href="__LM_ICON__">' +
  `<title>__LM_TITLE__</title></head><body><div id="lm-shell"><div data-shell="${shell}"><!--lm-ssr--></div></div>` +
  '<div id="root"></div><script type="application/json" id="lm-channel">__LM_DATA__</script></body></html>';

const RENDER_MODULE = `
export const AUTHORIZE_PATH = '/fill-information/common-authorize';
export function renderAuthorize() { return null; }
export const FORM_PATH = '/fill-information';
export function renderForm() { return '<main>form frame</main>'; }
export const CHANNEL_PAGES = { '/': '/', '/download': '/', '/login': '/login', '/getQuota': '/login', '/h5': '/login' };
export const CHANNEL_PAGE_MARKUP_KEYS = ['encryptionMobile', 'rp', 'rsaPhone', 'phone', 'mobile', 'linkExpired', 'previewToken'];
globalThis.__lmRenders = 0;
const esc = (t) => String(t).replaceAll('&', '&amp;').replaceAll('<', '&lt;');
export function renderChannelPage(path, search, config) {
  globalThis.__lmRenders += 1;
  if (config.title === 'throw') throw new Error('render failed');
  const shell = CHANNEL_PAGES[path];
  return {
    html: '<main data-skin="' + config.skin + '">' + esc(config.title ?? '') + ' ' + path + '</main>',
    shell,
    title: config.title || (shell === '/' ? '借款超市' : '登录'),
    icon: config.icon || 'data:,',
    tokens: { '--app-primary': config.themeColor },
  };
}
`;

export function webBuild(root: string): string {
  const dist = join(root, 'dist');
  const ssr = join(root, 'dist-ssr');
  mkdirSync(dist, { recursive: true });
  mkdirSync(ssr, { recursive: true });
  writeFileSync(join(dist, 'index.html'), INDEX);
  writeFileSync(join(ssr, 'prerender.js'), RENDER_MODULE);
  writeFileSync(join(ssr, 'authorize.html'), '<html><body><!--lm-ssr--></body></html>');
  writeFileSync(join(ssr, 'form.html'), '<html><body><!--lm-ssr--></body></html>');
  writeFileSync(join(ssr, 'channel-landing.html'), template('/'));
  writeFileSync(join(ssr, 'channel-login.html'), template('/login'));
  return dist;
}

/** How many pages the render module has rendered in this process. */
export const renders = () => (globalThis as unknown as { __lmRenders: number }).__lmRenders;
