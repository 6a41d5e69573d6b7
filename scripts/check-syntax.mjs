#!/usr/bin/env node
/**
 * Fails when a script the H5 ships is not at the support matrix's floor (docs/h5.md, issue 46): ES2018
 * (Chrome 64, iOS Safari 12) — in module scripts also `import()` and `import.meta`, which every engine that
 * runs module scripts at that floor has (Vite's modern build relies on them). Reads every script of the built
 * H5 (apps/web/dist: the modules under assets/, boot.js, the pages' inline scripts) and the inline scripts of
 * the server's page templates (apps/web/dist-ssr/*.html) with acorn, and names each file and the first place
 * that is not: a parse error at ES2020, or an ES2019/2020 construct (optional catch binding, `?.`, `??`,
 * BigInt, `export * as`). `.ci/run` runs it after the build.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parse } from 'acorn';

const root = resolve(import.meta.dirname, '..');
const web = join(root, 'apps/web/dist');
const ssr = join(root, 'apps/web/dist-ssr');
const ECMA_VERSION = 2018;

/** The first construct newer than ES2018 (besides `import()` / `import.meta`) in an ES2020 tree, or null. */
function newerThanFloor(node) {
  const stack = [node];
  while (stack.length) {
    const n = stack.pop();
    if (!n || typeof n.type !== 'string') continue;
    if (n.type === 'ChainExpression') return ['optional chaining (?.)', n];
    if (n.type === 'LogicalExpression' && n.operator === '??') return ['nullish coalescing (??)', n];
    if (n.type === 'CatchClause' && n.param === null) return ['optional catch binding', n];
    if (n.type === 'Literal' && n.bigint !== undefined) return ['a BigInt literal', n];
    if (n.type === 'ExportAllDeclaration' && n.exported) return ['export * as', n];
    for (const value of Object.values(n)) {
      if (Array.isArray(value)) stack.push(...value);
      else if (value && typeof value === 'object') stack.push(value);
    }
  }
  return null;
}

function* files(dir, test) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path, test);
    else if (test(name)) yield path;
  }
}

const failures = [];
let checked = 0;
const check = (label, code, sourceType) => {
  checked++;
  const around = (line, column) => {
    const text = code.split('\n')[line - 1] ?? '';
    return `\n    …${text.slice(Math.max(0, column - 40), column + 40)}…`;
  };
  let tree;
  try {
    tree = parse(code, {
      ecmaVersion: sourceType === 'module' ? 2020 : ECMA_VERSION,
      sourceType,
      locations: true,
    });
  } catch (err) {
    failures.push(`${label}: ${err.message}${err.loc ? around(err.loc.line, err.loc.column) : ''}`);
    return;
  }
  const newer = newerThanFloor(tree);
  if (newer) {
    const [what, node] = newer;
    failures.push(
      `${label}: ${what} (${node.loc.start.line}:${node.loc.start.column})${around(node.loc.start.line, node.loc.start.column)}`,
    );
  }
};

// Module scripts (type=module: the app's entry and chunks).
for (const file of files(join(web, 'assets'), (n) => n.endsWith('.js'))) {
  check(relative(root, file), readFileSync(file, 'utf8'), 'module');
}
// Classic scripts: the boot script and every inline script of the pages and templates.
check(relative(root, join(web, 'boot.js')), readFileSync(join(web, 'boot.js'), 'utf8'), 'script');
const pages = [...files(web, (n) => n.endsWith('.html')), ...files(ssr, (n) => n.endsWith('.html'))].filter(
  (f) => !f.includes(`${join('dist-ssr', 'assets')}`),
);
for (const page of pages) {
  const html = readFileSync(page, 'utf8');
  let i = 0;
  for (const m of html.matchAll(
    /<script(?![^>]*\bsrc=)(?![^>]*type="application\/json")([^>]*)>([\s\S]*?)<\/script>/g,
  )) {
    check(
      `${relative(root, page)} inline script ${++i}`,
      m[2],
      /type="module"/.test(m[1]) ? 'module' : 'script',
    );
  }
}

if (checked < 20) {
  console.error(`only ${checked} scripts found: run \`npm run build:ui\` first`);
  process.exit(1);
}
if (failures.length > 0) {
  console.error(`${failures.length} of ${checked} shipped scripts do not parse as ES${ECMA_VERSION}:`);
  for (const f of failures) console.error(`  ${f}`);
  process.exit(1);
}
console.log(`${checked} shipped scripts parse as ES${ECMA_VERSION}`);
