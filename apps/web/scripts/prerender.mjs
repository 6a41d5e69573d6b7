#!/usr/bin/env node
/**
 * After `vite build` and `vite build --ssr src/prerender.tsx`: writes the pre-rendered landing and
 * application form frame into dist/index.html (served for every page but the login entries) and the
 * pre-rendered login page into dist/login.html (served for /login, /getQuota and /h5).
 * public/boot.js (inlined) shows the shell of the visit's page, if it has one and the channel allows.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'dist');
const ssr = join(root, 'dist-ssr');
const { render } = await import(pathToFileURL(join(ssr, 'prerender.js')).href);

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

const EMPTY_ROOT = '<div id="root"></div>';
if (!template.includes(EMPTY_ROOT)) throw new Error('dist/index.html has no empty #root');

// Each page carries the shells of the paths it is served for (boot.js shows the one of the visit)
// and, inline, the stylesheets they need (the entry's always; vite.config.ts names each one's shells
// in data-shells). A disabled link (not fetched) tells Vite's chunk loader a stylesheet is on the
// page already: without it, the app fetched these files again and waited for them before rendering.
const STYLESHEET =
  /<link rel="stylesheet"(?: crossorigin)? href="\/([^"]+\.css)"(?: data-shells="([^"]*)")?>/g;
const withShells = (...paths) =>
  template
    .replace(STYLESHEET, (_m, file, shells) => {
      if (shells !== undefined && !shells.split(' ').some((s) => paths.includes(s))) return '';
      const css = readFileSync(join(dist, file), 'utf8').replaceAll('</style', '<\\/style');
      return `<style>${css}</style><link rel="stylesheet" href="/${file}" disabled>`;
    })
    .replace(
      EMPTY_ROOT,
      `<div id="lm-shell">${paths.map((p) => `<div data-shell="${p}">${render(p)}</div>`).join('')}</div>${EMPTY_ROOT}`,
    );

writeFileSync(join(dist, 'index.html'), withShells('/', '/fill-information'));
writeFileSync(join(dist, 'login.html'), withShells('/login'));
rmSync(ssr, { recursive: true, force: true });
console.log('pre-rendered / and /fill-information (index.html), /login (login.html)');
