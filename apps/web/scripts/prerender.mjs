#!/usr/bin/env node
/**
 * After `vite build` and `vite build --ssr src/prerender.tsx --outDir dist-ssr`: the page templates the
 * server fills at request time with a first screen it renders (ADR 065: the one way a first screen is
 * rendered before the app runs), and dist/index.html with the boot script inline.
 *
 *   dist-ssr/channel-landing.html, channel-login.html  a channel's (or the default) landing and login page
 *                                                       (apps/server/src/lib/web-ssr.ts fills the markers)
 *   dist-ssr/form.html                                  the application form's frame
 *   dist-ssr/authorize.html                             the authorise page of a link that carries its match
 *
 * Each template carries, inline, the stylesheets of its page (Vite's manifest names them) and the boot
 * script (public/boot.js), which shows the rendered screen and starts the app's scripts once it has
 * painted (they wait in <template id="lm-app">).
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'dist');
const ssr = join(root, 'dist-ssr');
const { AUTHORIZE_PATH, FORM_PATH } = await import(pathToFileURL(join(ssr, 'prerender.js')).href);
/** Where the server puts the rendered page (must not occur in any page otherwise). */
const SSR_SLOT = '<!--lm-ssr-->';

// Vite's manifest (vite.config.ts `build.manifest`): the stylesheets each page needs. A build record,
// not a file to serve: it moves to dist-ssr.
const manifestPath = join(dist, '.vite/manifest.json');
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
mkdirSync(join(ssr, '.vite'), { recursive: true });
renameSync(manifestPath, join(ssr, '.vite/manifest.json'));
rmSync(join(dist, '.vite'), { recursive: true, force: true });

/** The stylesheets of a page module and of everything it imports statically. */
const stylesheetsOf = (key) => {
  const css = new Set();
  const seen = new Set();
  const visit = (k) => {
    if (seen.has(k)) return;
    seen.add(k);
    const chunk = manifest[k];
    if (!chunk) throw new Error(`the build manifest has no ${k}`);
    for (const f of chunk.css ?? []) css.add(f);
    for (const i of chunk.imports ?? []) visit(i);
  };
  visit(key);
  return [...css];
};

// The boot script goes inline (the server allows exactly the inline scripts of dist/*.html by their
// SHA-256 in its CSP; the templates carry the same one).
const BOOT_TAG = '<script src="/boot.js"></script>';
const index = readFileSync(join(dist, 'index.html'), 'utf8');
if (!index.includes(BOOT_TAG)) throw new Error('dist/index.html has no boot script tag');
const boot = `<script>${readFileSync(join(dist, 'boot.js'), 'utf8').trim()}</script>`;
const page = index.replace(BOOT_TAG, () => boot);
writeFileSync(join(dist, 'index.html'), page);

// #root holds the loading indicator until the app renders.
const EMPTY_ROOT = '<div id="root"><div class="lm-boot" role="status" aria-label="加载中"></div></div>';
if (!page.includes(EMPTY_ROOT)) throw new Error('dist/index.html has no #root as the app expects it');

const ENTRY_STYLESHEET = /<link rel="stylesheet" crossorigin href="\/([^"]+\.css)">/g;
/**
 * The app's module scripts as Vite and @vitejs/plugin-legacy put them in the page (ADR 067): the modern
 * entry, its modulepreload links and the plugin's two inline module scripts (modern-engine check, legacy
 * fallback). They wait in <template id="lm-app">. The plugin's `nomodule` scripts (Safari 10.1 fix, legacy
 * polyfills, SystemJS entry) stay where the plugin put them, at the end of <body>: an engine without module
 * scripts runs them as it parses; a modern one never fetches them; one between (Chrome 64–104) loads them
 * through the fallback script, which finds them there by id.
 */
const APP_SCRIPT = /\s*(<script type="module"[^>]*>[\s\S]*?<\/script>|<link rel="modulepreload"[^>]*>)/g;
/**
 * A stylesheet inline, and a disabled link (not fetched) that tells Vite's chunk loader it is on the page
 * already: without it, the app fetched it again and waited for it before rendering.
 */
const inline = (file) => {
  const css = readFileSync(join(dist, file), 'utf8').replaceAll('</style', '<\\/style');
  return `<style>${css}</style><link rel="stylesheet" href="/${file}" disabled>`;
};

/**
 * The template of a page whose first screen (`screenPath`, page module `module`) the server renders into
 * the slot: its stylesheets inline, the app's scripts in <template id="lm-app"> (boot.js starts them once
 * the screen has painted; with Vite's tags left in place, 133.6 KB gz of JS came before the LCP, goal ≤ 130,
 * and two landings' simulated LCP was 1.9–2.2 s, goal ≤ 1.2 s: bench/web.mjs, ADR 065).
 */
function template(screenPath, module) {
  const scripts = (page.match(APP_SCRIPT) ?? []).map((tag) => tag.trim());
  if (!scripts.some((tag) => tag.startsWith('<script type="module" crossorigin src=')))
    throw new Error('dist/index.html: no entry script');
  if (!scripts.some((tag) => tag.includes('__vite_is_modern_browser)return')))
    throw new Error('dist/index.html: no legacy fallback script');
  if (!page.includes('<script nomodule crossorigin id="vite-legacy-entry"'))
    throw new Error('dist/index.html: no legacy entry script');
  const entryCss = new Set();
  let html = page
    .replace(APP_SCRIPT, '')
    .replace(ENTRY_STYLESHEET, (_m, file) => {
      entryCss.add(file);
      return inline(file);
    })
    .replace(boot, () => `<template id="lm-app">${scripts.join('')}</template>${boot}`);
  const css = stylesheetsOf(module).filter((f) => !entryCss.has(f));
  html = html
    .replace('</head>', () => `${css.map(inline).join('')}</head>`)
    .replace(
      EMPTY_ROOT,
      () => `<div id="lm-shell"><div data-shell="${screenPath}">${SSR_SLOT}</div></div>${EMPTY_ROOT}`,
    );
  if (html.split(SSR_SLOT).length !== 2) throw new Error(`template of ${screenPath}: not exactly one slot`);
  return html;
}

// The authorise page and the form's frame: boot.js shows the screen of the path <html data-ssr> names.
// The rendered authorise page is inert until the app replaces it (a tick there would be lost in the hand-over).
const HTML_TAG = '<html lang="zh-CN">';
writeFileSync(
  join(ssr, 'authorize.html'),
  template(AUTHORIZE_PATH, 'src/app/routes/fill-information/common-authorize.tsx')
    .replace(HTML_TAG, `<html lang="zh-CN" data-ssr="${AUTHORIZE_PATH}">`)
    .replace(`<div data-shell="${AUTHORIZE_PATH}">`, `<div data-shell="${AUTHORIZE_PATH}" inert>`),
);
writeFileSync(
  join(ssr, 'form.html'),
  template(FORM_PATH, 'src/app/routes/fill-information/index.tsx').replace(
    HTML_TAG,
    `<html lang="zh-CN" data-ssr="${FORM_PATH}">`,
  ),
);

// The channel pages (issue 17.1): `/`, `/download`, `/login`, `/getQuota` and `/h5` in the channel's skin
// (or the default one). web-ssr.ts fills the markers: the <html> attributes with data-ssr and the colour
// tokens, title, icon, theme colour, the rendered screen and the channel configuration the app starts with.
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
for (const [shell, module, file] of [
  ['/', 'src/app/routes/landing.tsx', 'channel-landing.html'],
  ['/login', 'src/app/routes/login.tsx', 'channel-login.html'],
]) {
  let html = template(shell, module);
  for (const [name, [from, to]] of Object.entries(MARKERS)) {
    const next = html.replace(from, to);
    if (next === html) throw new Error(`channel template ${shell}: no place for ${name}`);
    html = next;
  }
  writeFileSync(join(ssr, file), html);
}
console.log('templates dist-ssr/channel-landing.html, channel-login.html, form.html, authorize.html');
