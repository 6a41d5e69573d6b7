#!/usr/bin/env node
/**
 * Fails when a built front end is a development build: React's development JSX runtime (`jsxDEV`) in any
 * shipped script means the build followed the shell's NODE_ENV (issue 44.2). `.ci/run` builds with
 * NODE_ENV=development and runs this after it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const DEV_MARKERS = ['jsxDEV', 'react-jsx-dev-runtime.development'];

function* scripts(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* scripts(path);
    else if (/\.m?js$/.test(name)) yield path;
  }
}

let bad = 0;
let seen = 0;
for (const dist of ['apps/web/dist', 'apps/admin/dist', 'apps/web/dist-ssr']) {
  for (const file of scripts(join(root, dist))) {
    seen++;
    const text = readFileSync(file, 'utf8');
    const marker = DEV_MARKERS.find((m) => text.includes(m));
    if (marker) {
      bad++;
      console.error(`development build: ${file.slice(root.length + 1)} contains ${marker}`);
    }
  }
}
if (seen === 0) {
  console.error('no built scripts found: run `npm run build:ui` first');
  process.exit(1);
}
if (bad > 0) process.exit(1);
console.log(`production build: ${seen} scripts, no development runtime`);
