#!/usr/bin/env node
/**
 * Fails when a script the H5 ships does not parse in the engines that run it (the support matrix,
 * docs/h5.md, ADR 067):
 * - the modern build's module scripts (apps/web/dist/assets/*.js but the legacy ones; the pages' inline
 *   module scripts): ES2020, @vitejs/plugin-legacy's modern target (Chrome 105, Safari 16.4 run them);
 * - the legacy build (`*-legacy-*.js`: SystemJS chunks and polyfills) and every classic script — the boot
 *   script and the pages' inline scripts, which every engine runs: ES5 (Chrome 49, iOS 10).
 * Reads them with acorn (the pages: apps/web/dist/*.html and the server's templates apps/web/dist-ssr/*.html)
 * and names each file and the first place that is not: a parse error at the floor, or in a module a
 * construct newer than ES2020 acorn would accept there. `.ci/run` runs it after the build.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parse } from 'acorn';

const root = resolve(import.meta.dirname, '..');
const web = join(root, 'apps/web/dist');
const ssr = join(root, 'apps/web/dist-ssr');
const MODULE_FLOOR = 2020;
const CLASSIC_FLOOR = 5;

function* files(dir, test) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path, test);
    else if (test(name)) yield path;
  }
}

const failures = [];
const counts = { module: 0, legacy: 0, classic: 0 };
const check = (label, code, kind) => {
  counts[kind]++;
  const around = (line, column) => {
    const text = code.split('\n')[line - 1] ?? '';
    return `\n    …${text.slice(Math.max(0, column - 40), column + 40)}…`;
  };
  try {
    parse(code, {
      ecmaVersion: kind === 'module' ? MODULE_FLOOR : CLASSIC_FLOOR,
      sourceType: kind === 'module' ? 'module' : 'script',
      locations: true,
    });
  } catch (err) {
    const floor = kind === 'module' ? `ES${MODULE_FLOOR}` : 'ES5';
    failures.push(
      `${label} (${floor}): ${err.message}${err.loc ? around(err.loc.line, err.loc.column) : ''}`,
    );
  }
};

for (const file of files(join(web, 'assets'), (n) => n.endsWith('.js'))) {
  check(relative(root, file), readFileSync(file, 'utf8'), /-legacy-/.test(file) ? 'legacy' : 'module');
}
check(relative(root, join(web, 'boot.js')), readFileSync(join(web, 'boot.js'), 'utf8'), 'classic');
const pages = [...files(web, (n) => n.endsWith('.html')), ...files(ssr, (n) => n.endsWith('.html'))];
for (const page of pages) {
  const html = readFileSync(page, 'utf8');
  let i = 0;
  for (const m of html.matchAll(
    /<script(?![^>]*\ssrc=)(?![^>]*type="application\/json")([^>]*)>([\s\S]*?)<\/script>/g,
  )) {
    check(
      `${relative(root, page)} inline script ${++i}`,
      m[2],
      /type="module"/.test(m[1]) ? 'module' : 'classic',
    );
  }
}

if (counts.module < 20 || counts.legacy < 20 || counts.classic < 5) {
  console.error(`too few scripts found (${JSON.stringify(counts)}): run \`npm run build:ui\` first`);
  process.exit(1);
}
const checked = counts.module + counts.legacy + counts.classic;
if (failures.length > 0) {
  console.error(
    `${failures.length} of ${checked} shipped scripts do not parse in the engines that run them:`,
  );
  for (const f of failures) console.error(`  ${f}`);
  process.exit(1);
}
console.log(
  `${checked} shipped scripts parse where they run: ${counts.module} modern modules as ES${MODULE_FLOOR}, ` +
    `${counts.legacy} legacy scripts and ${counts.classic} classic scripts as ES5`,
);
