import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type HtmlTagDescriptor, type Plugin } from 'vite';

/** Pages whose files the HTML starts loading itself (the app would find them only after its entry ran). */
const ROUTE_MODULES: Record<string, string> = {
  '/': '/src/app/routes/landing.tsx',
  '/download': '/src/app/routes/landing.tsx',
  '/login': '/src/app/routes/login.tsx',
  '/getQuota': '/src/app/routes/login.tsx',
  '/h5': '/src/app/routes/login.tsx',
  '/fill-information': '/src/app/routes/fill-information/index.tsx',
  '/fill-information/common-authorize': '/src/app/routes/fill-information/common-authorize.tsx',
};
/** Pages pre-rendered into the HTML (src/prerender.tsx): their stylesheets go into the page. */
const PRERENDERED = new Set(['/', '/download', '/login', '/getQuota', '/h5', '/fill-information']);
/**
 * Pages the server renders when a link carries their data (src/prerender.tsx `renderAuthorize`):
 * their stylesheets go into their own template (scripts/prerender.mjs); index.html, which also serves
 * them when there is nothing to render, loads the stylesheets like any other page's.
 */
const SERVER_RENDERED = new Set(['/fill-information/common-authorize']);

/**
 * Replaces the entry's module script and Vite's modulepreload tags with a small inline loader (run
 * after public/boot.js) that knows, per page, the chunks and stylesheets the page needs beyond the
 * entry: the form page's chunks load in parallel with the entry instead of after it, and the landing's
 * are not fetched on other pages. On a page whose pre-rendered HTML is shown (boot.js sets
 * `data-shell`), the scripts are requested once that HTML has painted: the first paint never shares
 * the network with them (and Lighthouse's simulation no longer counts them as needed for it). The
 * stylesheets of the pre-rendered pages are linked here (scripts/prerender.mjs puts them inline).
 */
function routeLoader(): Plugin {
  return {
    name: 'lm-route-loader',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
        const entry = chunks.find((c) => c.isEntry);
        if (!entry) throw new Error('lm-route-loader: no entry chunk');
        // The entry imports the app's start steps dynamically (src/main.tsx: one module graph
        // evaluated per task); their chunks are preloaded with the entry on every page.
        const startFiles: string[] = [];
        const addStart = (fileName: string) => {
          if (
            startFiles.includes(fileName) ||
            fileName === entry.fileName ||
            entry.imports.includes(fileName)
          )
            return;
          const chunk = chunks.find((c) => c.fileName === fileName);
          if (!chunk) return;
          startFiles.push(fileName);
          for (const imported of chunk.imports) addStart(imported);
        };
        for (const f of entry.dynamicImports) addStart(f);
        const inEntry = new Set([entry.fileName, ...entry.imports, ...startFiles]);
        const closure = (moduleSuffix: string) => {
          const start = chunks.find((c) => c.moduleIds.some((id) => id.endsWith(moduleSuffix)));
          if (!start) throw new Error(`lm-route-loader: no chunk holds ${moduleSuffix}`);
          const js: string[] = [];
          const css = new Set<string>();
          const visit = (fileName: string) => {
            if (js.includes(fileName) || inEntry.has(fileName)) return;
            const chunk = chunks.find((c) => c.fileName === fileName);
            if (!chunk) return;
            js.push(fileName);
            for (const f of chunk.viteMetadata?.importedCss ?? []) css.add(f);
            for (const imported of chunk.imports) visit(imported);
          };
          visit(start.fileName);
          return { js, css: [...css] };
        };
        const files: string[] = [];
        const index = (f: string) => {
          if (!files.includes(f)) files.push(f);
          return files.indexOf(f);
        };
        const routes: Record<string, { js: number[]; css: number[] }> = {};
        // Stylesheet → the pre-rendered paths that need it (scripts/prerender.mjs inlines into each
        // page the ones of the shells it carries).
        const inlineCss = new Map<string, string[]>();
        for (const [path, module] of Object.entries(ROUTE_MODULES)) {
          const { js, css } = closure(module);
          if (PRERENDERED.has(path) || SERVER_RENDERED.has(path))
            for (const f of css) inlineCss.set(f, [...(inlineCss.get(f) ?? []), path]);
          routes[path] = { js: js.map(index), css: PRERENDERED.has(path) ? [] : css.map(index) };
        }
        const entryTag = new RegExp(
          `<script type="module" crossorigin src="/${entry.fileName}"></script>\\s*`,
        );
        if (!entryTag.test(html)) throw new Error('lm-route-loader: the entry script tag is not in the page');
        const page = html
          .replace(entryTag, '')
          .replace(/<link rel="modulepreload" crossorigin href="[^"]+">\s*/g, '');
        const start = startFiles.map(index);
        const loader = `(${loadPage.toString()})(${JSON.stringify({ entry: entry.fileName, start, files, routes })});`;
        return {
          html: page,
          tags: [
            ...[...inlineCss].map(
              ([f, paths]): HtmlTagDescriptor => ({
                tag: 'link',
                attrs: { rel: 'stylesheet', href: `/${f}`, 'data-shells': paths.join(' ') },
                injectTo: 'head',
              }),
            ),
            { tag: 'script', children: loader, injectTo: 'head' },
          ],
        };
      },
    },
  };
}

/** The loader's code (serialised into the page: it must not use anything outside itself). */
function loadPage(assets: {
  entry: string;
  start: number[];
  files: string[];
  routes: Record<string, { js: number[]; css: number[] }>;
}) {
  const doc = document;
  const path = location.pathname.replace(/\/+$/, '') || '/';
  const route = assets.routes[path];
  const link = (rel: string, file: string) => {
    const el = doc.createElement('link');
    el.rel = rel;
    el.href = `/${file}`;
    if (rel === 'modulepreload') el.crossOrigin = '';
    doc.head.appendChild(el);
  };
  let started = false;
  const start = (urgent: boolean) => {
    if (started) return;
    started = true;
    // The entry first (the largest file; over HTTP/1.1 the browser opens six connections at most).
    const script = doc.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    if (urgent) script.fetchPriority = 'high';
    script.src = `/${assets.entry}`;
    doc.head.appendChild(script);
    for (const i of [...assets.start, ...(route?.js ?? [])]) link('modulepreload', assets.files[i]!);
  };
  // A pre-rendered page that is shown: after its first paint (or at once in a background tab, which
  // does not paint). Every other page: now.
  if (!doc.documentElement.dataset.shell || doc.visibilityState !== 'visible') {
    start(true);
    for (const i of route?.css ?? []) link('stylesheet', assets.files[i]!);
    return;
  }
  const later = () => start(false);
  let painted = false;
  try {
    if (PerformanceObserver.supportedEntryTypes.includes('paint')) {
      new PerformanceObserver((list, observer) => {
        if (list.getEntries().some((e) => e.name === 'first-contentful-paint')) {
          observer.disconnect();
          later();
        }
      }).observe({ type: 'paint', buffered: true });
      painted = true;
    }
  } catch {
    // No paint timing (below).
  }
  // Without paint timing: once the page is parsed and a frame has been drawn. With it, only as a
  // safety net a second later: a rAF + timeout can run before the frame is presented, and as the
  // main trigger it sometimes requested the scripts before the first paint (Lighthouse's simulation
  // then counted them as needed for it: /login's FCP 0.7 s became 1.3 s in such a run).
  doc.addEventListener('DOMContentLoaded', () =>
    requestAnimationFrame(() => setTimeout(later, painted ? 1000 : 0)),
  );
  doc.addEventListener('visibilitychange', later, { once: true });
}

/**
 * `import { Button, Toast } from 'antd-mobile'` becomes one deep import per component (as
 * babel-plugin-import does). The package root is marked as having side effects, so importing from it
 * keeps every component's stylesheet and module-level code (the error block's illustrations, the
 * popover's positioning library …): 47 KB gzipped of unused code in the form's and the authorise page's
 * chunks. The root's own
 * side effect, antd-mobile's global module (CSS variables), is kept with an import of it.
 */
function antdMobileDeepImports(): Plugin {
  const esDir = join(dirname(createRequire(import.meta.url).resolve('antd-mobile/package.json')), 'es');
  const exportsOf = new Map<string, { path: string; named: string | null }>();
  for (const m of readFileSync(join(esDir, 'index.js'), 'utf8').matchAll(
    /export \{ ([^}]+) \} from '\.\/([^']+)';/g,
  )) {
    for (const spec of m[1]!.split(',').map((x) => x.trim())) {
      const [name, alias] = spec.split(/\s+as\s+/);
      if (alias) exportsOf.set(alias, { path: m[2]!, named: name === 'default' ? null : name! });
      else exportsOf.set(name!, { path: m[2]!, named: name! });
    }
  }
  const ROOT_IMPORT = /import\s*\{([^}]*)\}\s*from\s*'antd-mobile';/g;
  return {
    name: 'lm-antd-mobile-deep-imports',
    enforce: 'pre',
    transform(code, id) {
      if (id.includes('node_modules') || !/\.tsx?$/.test(id) || !code.includes("'antd-mobile'")) return null;
      const out = code.replace(ROOT_IMPORT, (_all, list: string) => {
        const lines = ["import 'antd-mobile/es/global';"];
        for (const raw of list.split(',').map((x) => x.trim())) {
          if (!raw || raw.startsWith('type ')) continue;
          const [name, local = name] = raw.split(/\s+as\s+/);
          const target = exportsOf.get(name!);
          if (!target) throw new Error(`${id}: antd-mobile has no export ${name}`);
          lines.push(
            target.named
              ? `import { ${target.named} as ${local} } from 'antd-mobile/es/${target.path}';`
              : `import ${local} from 'antd-mobile/es/${target.path}';`,
          );
        }
        return lines.join(' ');
      });
      return out === code ? null : { code: out, map: null };
    },
  };
}

/**
 * Chunks of the pages an ad visitor goes through. By default every route gets its own chunk and
 * Rolldown splits the modules routes share into one chunk per set of importers: the form page loaded
 * some 60 files, each a request (over HTTP/1.1 six at a time; with slow 4G's latency, seconds).
 * Here the static dependencies of the funnel's pages are grouped by the pages that need them:
 * `landing` (/ and /login: the two routes and the login form), `flow` (what both the application
 * form and the authorise page need), `form`, `authorize`. Modules of the entry stay in the entry.
 * The closures are computed from the module graph once it is built (`buildEnd`).
 */
const FUNNEL_SEEDS = {
  landing: [
    '/src/app/routes/landing.tsx',
    '/src/app/routes/login.tsx',
    '/src/features/auth/components/login-form.tsx',
  ],
  // With each page, the calls of the post-login decision (one file per call, issue 18): the `flow`
  // chunk carries them, as when they shared one module with the re-match call these pages import.
  form: ['/src/app/flow/form-page.tsx', '/src/app/sign-in/post-login-deps.ts'],
  authorize: ['/src/app/flow/authorize-page.tsx', '/src/app/sign-in/post-login-deps.ts'],
} as const;
/**
 * Modules of the landing that a lazy route imports too, kept in the landing's chunk (not moved to
 * `ui`, which the form pages load): what follows a login, given to the login form by /, /login and
 * /register (issue 18; the form itself is in that chunk, so /register loads it either way).
 */
const LANDING_ONLY = ['/src/app/sign-in/load-post-login.ts'];
type Funnel = keyof typeof FUNNEL_SEEDS | 'other';
const funnelOf = new Map<string, Set<Funnel>>();
/**
 * The start steps the entry imports one after another (src/main.tsx), each its own chunk: a module
 * goes into the first step that needs it (a later step imports it from there, already evaluated).
 */
const START_STEPS = [
  ['start-visit', '/src/start/visit.ts'],
  ['start-react', '/src/start/react.ts'],
  ['start-libs', '/src/start/libs.ts'],
  ['start-app', '/src/start/app.tsx'],
  // The channel's detail call stays with the channel's other calls, which the first step loads (they
  // were one module before issue 18's one file per call): the post-login decision and the waiting
  // page take it from there, so the flow chunk does not grow by it.
  ['start-visit', '/src/lib/channel/api/fetch-channel-detail.ts'],
] as const;
const startStepOf = new Map<string, string>();

function funnelChunks(): Plugin {
  return {
    name: 'lm-funnel-chunks',
    apply: 'build',
    // The build-time pre-render (SSR) is one file.
    applyToEnvironment: (environment) => environment.name === 'client',
    buildEnd() {
      funnelOf.clear();
      const ids = [...this.getModuleIds()];
      const staticClosure = (seeds: string[]) => {
        const seen = new Set<string>();
        const stack = [...seeds];
        while (stack.length) {
          const id = stack.pop()!;
          if (seen.has(id)) continue;
          seen.add(id);
          stack.push(...(this.getModuleInfo(id)?.importedIds ?? []));
        }
        return seen;
      };
      const entries = ids.filter((id) => this.getModuleInfo(id)?.isEntry);
      const entryClosure = staticClosure(entries);
      const initial = new Set(entryClosure);
      startStepOf.clear();
      for (const [name, suffix] of START_STEPS) {
        const seed = ids.find((i) => i.endsWith(suffix));
        if (!seed) throw new Error(`lm-funnel-chunks: ${suffix} is not in the build`);
        for (const id of staticClosure([seed])) {
          if (entryClosure.has(id) || startStepOf.has(id)) continue;
          startStepOf.set(id, name);
          initial.add(id);
        }
      }
      const seedIds = new Set<string>();
      for (const [funnel, suffixes] of Object.entries(FUNNEL_SEEDS) as [Funnel, readonly string[]][]) {
        const seeds = suffixes.map((suffix) => {
          const id = ids.find((i) => i.endsWith(suffix));
          if (!id) throw new Error(`lm-funnel-chunks: ${suffix} is not in the build`);
          return id;
        });
        for (const id of seeds) seedIds.add(id);
        for (const id of staticClosure(seeds)) {
          if (initial.has(id)) continue;
          const set = funnelOf.get(id) ?? new Set<Funnel>();
          set.add(funnel);
          funnelOf.set(id, set);
        }
      }
      // What other lazily loaded parts (the other routes, dialogs, the picker …) need of the funnel's
      // modules goes into one `shared` chunk: they do not load the form's chunk for it.
      for (const id of ids) {
        if (!this.getModuleInfo(id)?.dynamicImporters.length || funnelOf.has(id)) continue;
        const closure = staticClosure([id]);
        if ([...seedIds].some((seed) => closure.has(seed))) continue;
        for (const dep of closure) {
          if (!LANDING_ONLY.some((suffix) => dep.endsWith(suffix))) funnelOf.get(dep)?.add('other');
        }
      }
    },
  };
}

/** The funnel chunk of a module (null: Rolldown's default chunking). */
function funnelChunkName(id: string): string | null {
  const set = funnelOf.get(id);
  if (!set) return null;
  // Shared by the landing and the flow pages (antd-mobile's button, input, checkbox …): its own
  // chunk, so the form does not load the landing's code.
  if (set.has('landing')) return set.size > 1 ? 'ui' : 'landing';
  if (set.has('authorize')) return set.has('form') ? 'flow' : 'authorize';
  return set.has('other') ? null : 'form';
}

export default defineConfig(({ isSsrBuild }) => ({
  base: '/',
  // The render module (src/prerender.tsx) runs in the server: React's production renderer (faster, and
  // its pages carry no development messages naming files of the build).
  ...(isSsrBuild ? { define: { 'process.env.NODE_ENV': JSON.stringify('production') } } : {}),
  plugins: [antdMobileDeepImports(), react(), funnelChunks(), routeLoader()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
    // One React for the app and for the libraries hoisted to the repo root.
    dedupe: ['react', 'react-dom'],
  },
  // The build-time pre-render (src/prerender.tsx) bundles its dependencies: antd-mobile's ES build
  // is not loadable by Node as it is.
  ssr: { noExternal: true },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
  build: {
    outDir: 'dist',
    rolldownOptions: {
      output: {
        // Shared chunks are named after every route that imports them: keep file names short.
        chunkFileNames: (chunk) => `assets/${chunk.name.replace(/~.*/, '')}-[hash].js`,
        assetFileNames: (asset) =>
          `assets/${(asset.names[0] ?? 'asset').replace(/(~[^.]*)?\.[^.]*$/, '')}-[hash][extname]`,
        codeSplitting: {
          // Only the matched modules go into a group (not React and other shared dependencies).
          includeDependenciesRecursively: false,
          groups: [
            // antd-mobile's animation stack (Toast, Popup, Picker …) in its own chunk, so the small
            // shared helpers that the landing needs do not drag it into the first load.
            { name: 'animation', test: /node_modules[\\/](@react-spring|@use-gesture)/, priority: 4 },
            // What the entry imports statically, in one file with it; each start step's modules in
            // one file per step.
            { name: 'index', tags: ['$initial'], priority: 3 },
            { name: (id) => startStepOf.get(id) ?? null, debugName: 'start', priority: 3 },
            { name: funnelChunkName, debugName: 'funnel', priority: 2 },
            // The apply section's calls (app/routes/apply/api/*, one file per call) in one file, as when
            // they were one module: its pages make one request for them, not one per call.
            {
              name: 'api',
              test: /[\\/]src[\\/]app[\\/]routes[\\/]apply[\\/](api[\\/]|limit-choices)/,
              priority: 2,
            },
            // Small parts several lazy routes share (issue 18's folded duplicates: the page's main
            // button, 返回首页, the identity fields, the partner target, the code input and checks) in one
            // file: each file costs every route that needs it an entry in the route map and a request.
            {
              name: 'parts',
              test: /[\\/]src[\\/](components[\\/]((primary|home)-button|code-input)|lib[\\/]code-form|features[\\/]application-form[\\/]components[\\/]identity-fields|app[\\/]routes[\\/]fill-information[\\/]partner-target)\.tsx?$/,
              priority: 2,
            },
            // The form's modules that other routes use too: grouped by the routes that use them.
            // (One chunk: each request costs a round trip on slow networks; per set of routes, the form
            // needed eight small chunks.)
            { name: 'shared', test: (id) => funnelOf.get(id)?.has('other') ?? false, priority: 1 },
            // Other routes' libraries: one chunk per set of routes, small sets merged.
            // (Not the monitoring and fingerprint libraries: merged with UI libraries, loading the
            // real-user monitoring after the first paint fetched antd-mobile's animation library. Nor the
            // challenge solver, altcha-lib, which only a 1008 answer loads: ADR 055.)
            {
              name: 'vendor',
              test: (id) =>
                /node_modules/.test(id) &&
                !/node_modules[\\/](web-vitals|@fingerprintjs|altcha-lib)[\\/]/.test(id),
              entriesAware: true,
              entriesAwareMergeThreshold: 15_000,
            },
          ],
        },
      },
    },
  },
}));
