#!/usr/bin/env node
/**
 * After `vite build` and `vite build --ssr src/prerender.tsx`: writes the pre-rendered landing into
 * dist/index.html and the pre-rendered login page into dist/login.html (served for /login, /getQuota
 * and /h5). public/boot.js (inlined) hides a shell whose page or channel does not match the visit.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'dist');
const ssr = join(root, 'dist-ssr');
const { render } = await import(pathToFileURL(join(ssr, 'prerender.js')).href);

let template = readFileSync(join(dist, 'index.html'), 'utf8');

// First paint needs no request but the page: the stylesheets of the pre-rendered pages and the
// boot script go inline (the server allows exactly these inline scripts by their SHA-256 in its CSP).
template = template.replace(/<link rel="stylesheet"(?: crossorigin)? href="\/([^"]+\.css)">/g, (_m, file) => {
  const css = readFileSync(join(dist, file), 'utf8').replaceAll('</style', '<\\/style');
  return `<style>${css}</style>`;
});
template = template.replace('<script src="/boot.js"></script>', () => {
  const js = readFileSync(join(dist, 'boot.js'), 'utf8').trim();
  return `<script>${js}</script>`;
});
// The pre-rendered page paints without JavaScript: let the app's scripts yield to it.
template = template
  .replace(
    /<script type="module" crossorigin src=/g,
    '<script type="module" crossorigin fetchpriority="low" src=',
  )
  .replace(/<link rel="modulepreload"/g, '<link rel="modulepreload" fetchpriority="low"');

const EMPTY_ROOT = '<div id="root"></div>';
if (!template.includes(EMPTY_ROOT)) throw new Error('dist/index.html has no empty #root');

const withShell = (path) =>
  template.replace(EMPTY_ROOT, `<div id="root"><div data-shell="${path}">${render(path)}</div></div>`);

writeFileSync(join(dist, 'index.html'), withShell('/'));
writeFileSync(join(dist, 'login.html'), withShell('/login'));
rmSync(ssr, { recursive: true, force: true });
console.log('pre-rendered / (index.html) and /login (login.html)');
