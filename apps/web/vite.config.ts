import { fileURLToPath } from 'node:url';
import legacy from '@vitejs/plugin-legacy';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { flexGapFallback } from './build/flex-gap-fallback.ts';
import { legacyFixes } from './build/legacy-fixes.ts';

/**
 * The legacy build's engines: the support matrix starts at Chrome 49 (CSS custom properties) and iOS 10;
 * Chrome 37 (Android 5's system WebView, never updated without Google Play; X5/TBS 3.x) makes Babel lower
 * the syntax to ES5, which the matrix asks of the legacy scripts.
 */
const LEGACY_TARGETS = ['chrome >= 37', 'ios >= 10'];

export default defineConfig(({ isSsrBuild }) => ({
  base: '/',
  // The render module (src/prerender.tsx) runs in the server: React's production renderer (faster, and
  // its pages carry no development messages naming files of the build).
  ...(isSsrBuild ? { define: { 'process.env.NODE_ENV': JSON.stringify('production') } } : {}),
  plugins: [
    react(),
    // The support matrix (docs/h5.md, ADR 067): the plugin's modern build for engines with
    // `import.meta.resolve` (Chrome 105, Safari 16.4), no polyfills; every older engine down to Chrome 49
    // and iOS 10 runs its ES5 build (SystemJS) with core-js by usage and the DOM polyfills the app needs.
    ...(isSsrBuild
      ? []
      : [
          legacy({
            targets: LEGACY_TARGETS,
            additionalLegacyPolyfills: [fileURLToPath(new URL('./src/legacy-polyfills.js', import.meta.url))],
          }),
          legacyFixes(LEGACY_TARGETS),
        ]),
  ],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
    // One React for the app and for the libraries hoisted to the repo root.
    dedupe: ['react', 'react-dom'],
  },
  // The render module bundles its dependencies: antd-mobile's ES build is not loadable by Node as it is.
  ssr: { noExternal: true },
  // Margins where an engine ignores `gap` on flex containers (build/flex-gap-fallback.ts, ADR 067).
  css: { postcss: { plugins: [flexGapFallback()] } },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
  build: {
    // Which files and stylesheets each page needs (scripts/prerender.mjs reads it, then moves it out of dist).
    manifest: true,
  },
}));
