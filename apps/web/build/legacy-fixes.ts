import { createHash } from 'node:crypto';
import { transformAsync } from '@babel/core';
import presetEnv from '@babel/preset-env';
import { minify } from 'terser';
import type { Plugin } from 'vite';

/**
 * Two things @vitejs/plugin-legacy 8 does that the support matrix cannot take (docs/h5.md, ADR 067):
 *
 * 1. It tells a modern engine (Chrome 105, Safari 16.4: `import.meta.resolve`) from an older one with a
 *    module imported from a `data:` URL, in the page's detection script and at the top of every modern
 *    entry chunk. Our CSP (`script-src 'self'` + the hashes of the pages' inline scripts) blocks `data:`
 *    scripts, so every engine failed the check and ran the legacy build (measured in Chromium 156);
 *    allowing `data:` in script-src would undo the CSP. Here the same check is a file of the build
 *    (`assets/module-check-<hash>.js`) and those imports point at it.
 * 2. Its legacy polyfills chunk is bundled by Rolldown, whose module wrappers are arrow functions (it
 *    lowers no further than ES2015): the chunk is lowered to ES5 with the plugin's own Babel and preset-env
 *    for the legacy targets, like the legacy chunks themselves.
 * 3. With Vite's minifier (Oxc) it minifies the legacy chunks for ES2015 (strings become template literals),
 *    and Terser for every chunk made the modern entry's evaluation ~25 % slower (v8.evaluateModule of
 *    `/login`: 353–375 ms ×4 against 270–290 with Oxc, `bench/long-tasks.mjs`). So the modern chunks keep
 *    Oxc, the legacy outputs are not minified by Rolldown and Terser minifies the legacy chunks here, for ES5.
 */
const CHECK_URL =
  /data:text\/javascript,(?:"[^"]*";)?if\(!import\.meta\.resolve\)throw Error\("import\.meta\.resolve not supported"\)/g;
const CHECK = 'if(!import.meta.resolve)throw Error("import.meta.resolve not supported")\n';
const FILE = `assets/module-check-${createHash('sha256').update(CHECK).digest('hex').slice(0, 8)}.js`;

export function legacyFixes(targets: string[]): Plugin {
  let base = '/';
  let checks = 0;
  let polyfills = 0;
  let legacyOutputs = 0;
  let legacyMinified = 0;
  return {
    name: 'lm:legacy-fixes',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      base = config.base;
      // plugin-legacy's outputs for the legacy chunks (it names their files `[name]-legacy-[hash].js`).
      const output = config.build.rolldownOptions.output;
      for (const o of Array.isArray(output) ? output : output ? [output] : []) {
        if (typeof o.entryFileNames === 'string' && o.entryFileNames.includes('-legacy')) {
          o.minify = false;
          legacyOutputs++;
        }
      }
    },
    async generateBundle(_options, bundle) {
      let modern = false;
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        if (/^assets\/polyfills-legacy-[\w-]+\.js$/.test(chunk.fileName)) {
          const lowered = await transformAsync(chunk.code, {
            babelrc: false,
            configFile: false,
            compact: true,
            sourceType: 'script',
            presets: [[presetEnv, { targets, modules: false }]],
          });
          if (!lowered?.code) throw new Error(`${chunk.fileName}: Babel gave no code`);
          chunk.code = lowered.code;
          polyfills++;
          continue;
        }
        if (chunk.fileName.includes('-legacy')) {
          const min = await minify(chunk.code, { ecma: 5, safari10: true, format: { comments: false } });
          if (!min.code) throw new Error(`${chunk.fileName}: Terser gave no code`);
          chunk.code = min.code;
          legacyMinified++;
          continue;
        }
        const code = chunk.code.replace(CHECK_URL, () => {
          checks++;
          return `./${FILE.slice('assets/'.length)}`;
        });
        if (code !== chunk.code) {
          if (!chunk.fileName.startsWith('assets/')) throw new Error(`${chunk.fileName}: not under assets/`);
          chunk.code = code;
          modern = true;
        }
      }
      if (modern) this.emitFile({ type: 'asset', fileName: FILE, source: CHECK });
    },
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        return html.replace(CHECK_URL, () => {
          checks++;
          return `${base}${FILE}`;
        });
      },
    },
    closeBundle() {
      // A plugin-legacy version that does this differently: fail rather than ship pages that do not work.
      if (checks === 0) throw new Error('lm:legacy-fixes: no plugin-legacy module check found');
      if (polyfills === 0) throw new Error('lm:legacy-fixes: no legacy polyfills chunk found');
      if (legacyOutputs === 0 || legacyMinified === 0)
        throw new Error('lm:legacy-fixes: no plugin-legacy output for the legacy chunks found');
    },
  };
}
