#!/usr/bin/env node
/**
 * After `vite build` and `vite build --ssr src/prerender.tsx --outDir dist-ssr`: writes the
 * pre-rendered landing and application form frame into dist/index.html (served for every page but
 * the login entries) and the pre-rendered login page into dist/login.html (served for /login,
 * /getQuota and /h5). dist-ssr keeps the render module and gets the authorise page's template
 * (dist-ssr/authorize.html), which the server fills at request time for a link that carries the
 * match (apps/server/src/lib/web-ssr.ts, ADR 017).
 * public/boot.js (inlined) shows the shell of the visit's page, if it has one and the channel allows.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'dist');
const ssr = join(root, 'dist-ssr');
const { render, AUTHORIZE_PATH } = await import(pathToFileURL(join(ssr, 'prerender.js')).href);
/** Where the server puts the rendered authorise page (must not occur in any page otherwise). */
const SSR_SLOT = '<!--lm-ssr-->';

let template = readFileSync(join(dist, 'index.html'), 'utf8');

// First paint needs no request but the page: the stylesheets of the pre-rendered pages (below) and
// the boot script go inline (the server allows exactly these inline scripts by their SHA-256 in its CSP).
template = template.replace('<script src="/boot.js"></script>', () => {
  const js = readFileSync(join(dist, 'boot.js'), 'utf8').trim();
  return `<script>${js}</script>`;
});
// The app's scripts are started by the route loader (vite.config.ts, `routeLoader`), after the
// pre-rendered page has painted.
if (/<script type="module"|rel="modulepreload"/.test(template)) {
  throw new Error('dist/index.html loads scripts itself: the route loader should start them');
}

// #root holds only the loading indicator of pages without a shell (index.html) until the app renders.
const EMPTY_ROOT = '<div id="root"><div class="lm-boot" role="status" aria-label="加载中"></div></div>';
if (!template.includes(EMPTY_ROOT)) throw new Error('dist/index.html has no #root as the app expects it');

// Each page carries the shells of the paths it is served for (boot.js shows the one of the visit)
// and, inline, the stylesheets they need (the entry's always; vite.config.ts names each one's shells
// in data-shells). A disabled link (not fetched) tells Vite's chunk loader a stylesheet is on the
// page already: without it, the app fetched these files again and waited for them before rendering.
const STYLESHEET =
  /<link rel="stylesheet"(?: crossorigin)? href="\/([^"]+\.css)"(?: data-shells="([^"]*)")?>/g;
const withShells = (shells) => {
  const paths = Object.keys(shells);
  return template
    .replace(STYLESHEET, (_m, file, forShells) => {
      if (forShells !== undefined && !forShells.split(' ').some((s) => paths.includes(s))) return '';
      const css = readFileSync(join(dist, file), 'utf8').replaceAll('</style', '<\\/style');
      return `<style>${css}</style><link rel="stylesheet" href="/${file}" disabled>`;
    })
    .replace(
      EMPTY_ROOT,
      `<div id="lm-shell">${paths.map((p) => `<div data-shell="${p}">${shells[p]}</div>`).join('')}</div>${EMPTY_ROOT}`,
    );
};

writeFileSync(
  join(dist, 'index.html'),
  withShells({ '/': render('/'), '/fill-information': render('/fill-information') }),
);
writeFileSync(join(dist, 'login.html'), withShells({ '/login': render('/login') }));

// The authorise page's template: boot.js shows the shell of the path <html data-ssr> names. The
// rendered page is inert until the app replaces it (a tick there would be lost in the hand-over).
const HTML_TAG = '<html lang="zh-CN">';
const authorize = withShells({ [AUTHORIZE_PATH]: SSR_SLOT })
  .replace(HTML_TAG, `<html lang="zh-CN" data-ssr="${AUTHORIZE_PATH}">`)
  .replace(`<div data-shell="${AUTHORIZE_PATH}">`, `<div data-shell="${AUTHORIZE_PATH}" inert>`);
if (!authorize.includes('data-ssr=') || authorize.split(SSR_SLOT).length !== 2) {
  throw new Error('dist-ssr/authorize.html: the template lacks data-ssr or has not exactly one slot');
}
writeFileSync(join(ssr, 'authorize.html'), authorize);

// The channel pages' templates (issue 17.1): the server renders `/`, `/download`, `/login`, `/getQuota`
// and `/h5` of an ad link in the channel's skin (apps/server/src/lib/web-ssr.ts fills the markers: the
// <html> attributes with data-ssr and the colour tokens, title, icon, theme colour, the rendered shell
// and the channel configuration the app starts with, modules/channels/pages.ts caches the result).
const MARKERS = {
  html: [HTML_TAG, '<html lang="zh-CN" __LM_HTML_ATTRS__>'],
  title: [/<title>[^<]*<\/title>/, '<title>__LM_TITLE__</title>'],
  themeColor: [
    /<meta name="theme-color" content="[^"]*"/,
    '<meta name="theme-color" content="__LM_THEME_COLOR__"',
  ],
  icon: [/<link rel="icon" href="[^"]*"/, '<link rel="icon" href="__LM_ICON__"'],
  data: ['</body>', '<script type="application/json" id="lm-channel">__LM_DATA__</script></body>'],
};
for (const shell of ['/', '/login']) {
  let page = withShells({ [shell]: SSR_SLOT });
  for (const [name, [from, to]] of Object.entries(MARKERS)) {
    const next = page.replace(from, to);
    if (next === page) throw new Error(`channel template ${shell}: no place for ${name}`);
    page = next;
  }
  if (page.split(SSR_SLOT).length !== 2) throw new Error(`channel template ${shell}: not exactly one slot`);
  writeFileSync(join(ssr, shell === '/' ? 'channel-landing.html' : 'channel-login.html'), page);
}
console.log(
  'pre-rendered / and /fill-information (index.html), /login (login.html); templates dist-ssr/authorize.html, channel-landing.html, channel-login.html',
);
