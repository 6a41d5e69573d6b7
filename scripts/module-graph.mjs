#!/usr/bin/env node
// The import graph of the server's modules (apps/server/src/modules/<module>/), run by `npm run lint`.
// Prints, for each module, the modules its source files (tests aside) import from (`from '../<module>/…'`,
// `import('../<module>/…')`), and fails (exit 1) on a cycle: two modules importing each other, or a
// longer loop. Modules are layers: a module may use the ones below it, never the other way round.
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
  if (!quiet) console.log(`module graph: ${graph.size} modules, no cycle`);
  process.exit(0);
}
for (const component of cycles) {
  console.error(`module cycle: ${component.join(', ')}`);
  for (const m of component)
    for (const [t, files] of graph.get(m))
      if (component.includes(t)) console.error(`  ${m} → ${t}: ${[...files].join(', ')}`);
}
process.exit(1);
