import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig(({ isSsrBuild }) => ({
  base: '/',
  // The render module (src/prerender.tsx) runs in the server: React's production renderer (faster, and
  // its pages carry no development messages naming files of the build).
  ...(isSsrBuild ? { define: { 'process.env.NODE_ENV': JSON.stringify('production') } } : {}),
  plugins: [react()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
    // One React for the app and for the libraries hoisted to the repo root.
    dedupe: ['react', 'react-dom'],
  },
  // The render module bundles its dependencies: antd-mobile's ES build is not loadable by Node as it is.
  ssr: { noExternal: true },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
  build: {
    // Which files and stylesheets each page needs (scripts/prerender.mjs reads it, then moves it out of dist).
    manifest: true,
    // The support matrix's floor (docs/h5.md, ADR 066): syntax lowered to ES2018, what Chrome 64 (old
    // X5/TBS and system WebViews) and iOS 12 parse. scripts/check-syntax.mjs fails the build's check otherwise.
    target: ['es2018', 'chrome64', 'safari12'],
  },
}));
