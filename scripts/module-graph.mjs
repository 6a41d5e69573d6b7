#!/usr/bin/env node
// The import graph of the server's modules (apps/server/src/modules/<module>/), run by `npm run lint`.
// Prints, for each module, the modules its source files (tests aside) import from (`from '../<module>/…'`,
// `import('../<module>/…')`), and fails (exit 1) on a cycle: two modules importing each other, or a
// longer loop. Modules are layers: a module may use the ones below it, never the other way round.
//
// It also keeps data access in repositories (ADR 032): a source file of a module that is not a repository
// (`repository.ts`, `<name>-repository.ts`), a seed (`seed.ts`) or a test may not import `drizzle-orm` nor
// (other than `import type`) anything from `db/schema.ts`; nor may a file of src/providers, src/lib or
// src/plugins (they are given a repository). DATA_STORES lists the data access under another name
// (the limiter's database store); an entry that stops being one (or is gone) fails too.
//
//   node scripts/module-graph.mjs [--quiet]

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MODULES = path.join(ROOT, 'apps/server/src/modules');
const quiet = process.argv.includes('--quiet');

/** Source files under `dir` (recursively), tests aside. */
function sources(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) out.push(...sources(file));
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(file);
  }
  return out;
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*)['"]((?:\.\.\/)+)([a-z0-9-]+)\//g;

/** module → Map(imported module → files that import it) */
const graph = new Map();
const modules = readdirSync(MODULES).filter((m) => statSync(path.join(MODULES, m)).isDirectory());
for (const m of modules) {
  const edges = new Map();
  graph.set(m, edges);
  for (const file of sources(path.join(MODULES, m))) {
    const text = readFileSync(file, 'utf8');
    const depth = path
      .relative(path.join(MODULES, m), path.dirname(file))
      .split(path.sep)
      .filter(Boolean).length;
    for (const [, ups, target] of text.matchAll(IMPORT)) {
      // `../x/` from a file directly in the module (more `../` from a sub-folder) names a sibling module.
      if (ups.length / 3 !== depth + 1 || target === m || !modules.includes(target)) continue;
      const files = edges.get(target) ?? new Set();
      files.add(path.relative(MODULES, file));
      edges.set(target, files);
    }
  }
}

/**
 * Files (relative to apps/server/src/modules) that still hold their queries (issue 18): to be moved into
 * their module's repository, then removed from here. Never add to this list.
 */
/**
 * Files that are data access under another name: the rate limiter's counter store on the database (a
 * `CounterStore`, beside the Redis one). Every other module file reaches the database through its repository.
 */
const DATA_STORES = new Set(['limits/db-store.ts']);

const STATIC_IMPORT = /\bimport\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]/g;
const DYNAMIC_IMPORT = /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g;
const isDataAccess = (source) => /^drizzle-orm(\/|$)/.test(source) || /(^|\/)db\/schema(\.ts)?$/.test(source);
/** `import type { … }` or `import { type a, type b }`: types only, nothing at run time. */
function typeOnly(typeKeyword, clause) {
  if (typeKeyword) return true;
  const braces = /^\{([\s\S]*)\}$/.exec(clause.trim());
  if (!braces) return false;
  const names = braces[1]
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  return names.length > 0 && names.every((n) => n.startsWith('type '));
}
/** The data-access imports of a file (drizzle-orm, or tables of db/schema other than as types). */
function dataAccessIn(file) {
  const text = readFileSync(file, 'utf8');
  const hits = [];
  for (const [, typeKeyword, clause, source] of text.matchAll(STATIC_IMPORT))
    if (isDataAccess(source) && !typeOnly(typeKeyword, clause)) hits.push(source);
  for (const [, source] of text.matchAll(DYNAMIC_IMPORT)) if (isDataAccess(source)) hits.push(source);
  return hits;
}
const isRepository = (file) => /(^|-)repository\.ts$/.test(path.basename(file));
const isSeed = (file) => path.basename(file) === 'seed.ts';

const dataAccess = [];
const compliantButListed = [];
for (const m of modules) {
  for (const file of sources(path.join(MODULES, m))) {
    if (isRepository(file) || isSeed(file)) continue;
    const rel = path.relative(MODULES, file).split(path.sep).join('/');
    const hits = dataAccessIn(file);
    if (DATA_STORES.has(rel)) {
      if (hits.length === 0) compliantButListed.push(rel);
    } else if (hits.length > 0) dataAccess.push(`${rel}: ${[...new Set(hits)].join(', ')}`);
  }
}
// Outside the modules, the providers (third-party adapters and their local stand-ins), lib and plugins
// reach the database only through a repository they are given: none imports drizzle-orm or a table.
const SRC = path.join(ROOT, 'apps/server/src');
for (const dir of ['providers', 'lib', 'plugins']) {
  for (const file of sources(path.join(SRC, dir))) {
    const rel = path.relative(SRC, file).split(path.sep).join('/');
    const hits = dataAccessIn(file);
    if (hits.length > 0) dataAccess.push(`src/${rel}: ${[...new Set(hits)].join(', ')}`);
  }
}
for (const rel of DATA_STORES)
  if (!compliantButListed.includes(rel) && !statSync(path.join(MODULES, rel), { throwIfNoEntry: false }))
    compliantButListed.push(rel);
if (dataAccess.length > 0 || compliantButListed.length > 0) {
  for (const line of dataAccess)
    console.error(
      `data access outside a repository (ADR 032): ${line} — move the queries to the module's repository`,
    );
  for (const rel of compliantButListed)
    console.error(
      `DATA_STORES lists ${rel}, which is gone or no longer imports drizzle-orm or tables: remove it from the list`,
    );
  process.exitCode = 1;
}

if (!quiet) {
  for (const [m, edges] of graph) {
    if (edges.size === 0) continue;
    const list = [...edges].map(([t, files]) => `${t}${files.size > 1 ? ` (${files.size})` : ''}`).join(', ');
    console.log(`${m} → ${list}`);
  }
}

// Strongly connected components (Tarjan): any with more than one module is a cycle.
let index = 0;
const stack = [];
const state = new Map();
const cycles = [];
function visit(v) {
  const s = { index, low: index, onStack: true };
  index++;
  state.set(v, s);
  stack.push(v);
  for (const w of graph.get(v).keys()) {
    const t = state.get(w);
    if (t === undefined) {
      visit(w);
      s.low = Math.min(s.low, state.get(w).low);
    } else if (t.onStack) s.low = Math.min(s.low, t.index);
  }
  if (s.low === s.index) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      state.get(w).onStack = false;
      component.push(w);
    } while (w !== v);
    if (component.length > 1) cycles.push(component.sort());
  }
}
for (const m of graph.keys()) if (!state.has(m)) visit(m);

if (cycles.length === 0) {
  if (!quiet) {
    console.log(`module graph: ${graph.size} modules, no cycle`);
    console.log(
      `repositories: every module's data access in repositories (+ ${[...DATA_STORES].join(', ')})`,
    );
  }
  process.exit(process.exitCode ?? 0);
}
for (const component of cycles) {
  console.error(`module cycle: ${component.join(', ')}`);
  for (const m of component)
    for (const [t, files] of graph.get(m))
      if (component.includes(t)) console.error(`  ${m} → ${t}: ${[...files].join(', ')}`);
}
process.exit(1);
