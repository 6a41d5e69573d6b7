#!/usr/bin/env node
/**
 * The server's production build (ADR 064): esbuild bundles each entry — its own code and @lm/shared (TypeScript
 * sources) — into one ES module in apps/server/dist; npm packages stay imports, loaded from node_modules as
 * before. `node dist/main.js` is what the systemd units and `npm start` run; tsx is for development only.
 *
 *   dist/main.js          the API (src/main.ts)
 *   dist/worker.js        the lead-delivery worker (src/cli/worker.ts)
 *   dist/admin-create.js  console accounts (src/cli/admin-create.ts)
 *   dist/<name>.mjs       every worker thread the code starts with `new Worker(new URL('./<name>.mjs',
 *                         import.meta.url))`, found in the sources: beside the bundle that starts it
 *
 *   node scripts/build.mjs [--outdir dir]   (default dist; the compiled-build test builds into a directory of its own)
 *
 * Fails when a module uses `import.meta` otherwise than for a worker's URL or createRequire: a path taken
 * from the module's own place would change once bundled (name it from lib/server-root.ts instead).
 */
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const SERVER = resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: { outdir: { type: 'string', default: join(SERVER, 'dist') } },
});
const OUT = resolve(args.outdir);
const ENTRIES = {
  main: 'src/main.ts',
  worker: 'src/cli/worker.ts',
  'admin-create': 'src/cli/admin-create.ts',
};
/** The one module allowed to find its place from import.meta: it names the package's root from it. */
const ROOT_FINDER = 'src/lib/server-root.ts';

/** Bare imports (npm packages, node: built-ins) stay imports; the workspace's own packages are bundled. */
const npmPackagesExternal = {
  name: 'npm-packages-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@lm/') ? undefined : { path: args.path, external: true },
    );
  },
};

const common = {
  absWorkingDir: SERVER,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  outdir: OUT,
  // Function and class names as in the sources (Fastify names plugins by them; stack traces read the same).
  keepNames: true,
  // Stack traces name the TypeScript files with `node --enable-source-maps`, as they did under tsx.
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
  plugins: [npmPackagesExternal],
};

const WORKER_URL = /new\s+URL\(\s*(['"])\.\/([^'"]+)\1\s*,\s*import\.meta\.url\s*\)/g;
const ALLOWED_META = [WORKER_URL, /createRequire\(\s*import\.meta\.url\s*\)/g];

/** Worker files the bundled sources name relative to themselves: output name → source path. */
function scan(metafile, problems) {
  const workers = new Map();
  for (const input of Object.keys(metafile.inputs)) {
    if (input.includes('node_modules') || !/\.(m?[jt]s)$/.test(input)) continue;
    const file = resolve(SERVER, input);
    const text = readFileSync(file, 'utf8');
    const rel = relative(SERVER, file);
    for (const m of text.matchAll(WORKER_URL)) {
      const name = m[2];
      const source = resolve(dirname(file), name);
      if (!name.endsWith('.mjs') || name.includes('/'))
        problems.push(`${rel}: new URL('./${name}', import.meta.url) — only a .mjs file beside it is built`);
      else if (!existsSync(source)) problems.push(`${rel}: names ${name}, which does not exist`);
      else if (workers.has(name) && workers.get(name) !== source)
        problems.push(`${rel}: a second worker named ${name} (${relative(SERVER, workers.get(name))})`);
      else workers.set(name, source);
    }
    if (rel !== ROOT_FINDER) {
      const rest = ALLOWED_META.reduce((t, re) => t.replace(re, ''), text);
      if (/import\.meta\b/.test(rest))
        problems.push(
          `${rel}: uses import.meta for a path — bundled, its place changes; name it from ${ROOT_FINDER} (ADR 064)`,
        );
    }
  }
  return workers;
}

const t0 = performance.now();
rmSync(OUT, { recursive: true, force: true });
const problems = [];
let result = await build({ ...common, entryPoints: ENTRIES });
const workers = new Map();
// Workers may start workers of their own: build until no new one is named.
for (let found = scan(result.metafile, problems); ; ) {
  const todo = [...found].filter(([name]) => !workers.has(name));
  if (todo.length === 0) break;
  for (const [name, source] of todo) workers.set(name, source);
  result = await build({
    ...common,
    entryPoints: todo.map(([name, source]) => ({ in: source, out: basename(name, '.mjs') })),
    outExtension: { '.js': '.mjs' },
  });
  found = scan(result.metafile, problems);
}
if (problems.length > 0) {
  console.error(`server build: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
const outputs = [...Object.keys(ENTRIES).map((e) => `${e}.js`), ...workers.keys()];
for (const name of outputs) {
  if (!existsSync(join(OUT, name))) {
    console.error(`server build: ${relative(SERVER, join(OUT, name))} was not written`);
    process.exit(1);
  }
}
const kb = (name) => Math.round(statSync(join(OUT, name)).size / 1024);
console.log(
  `server build: ${outputs.map((n) => `${relative(SERVER, join(OUT, n))} (${kb(n)} kB)`).join(', ')} in ${Math.round(performance.now() - t0)} ms`,
);
