import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type HtmlTagDescriptor, type Plugin } from 'vite';

/**
 * The landing and login routes are lazy chunks; without help the browser finds them only after the
 * entry has run. This adds modulepreload tags (and their stylesheets) for them and their static
 * imports, so the pages an ad visitor lands on load in parallel with the entry, and their pre-rendered
 * HTML is styled at first paint. Other routes pay a few KB they may not use.
 */
function preloadLanding(): Plugin {
  return {
    name: 'lm-preload-landing',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return [];
        const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
        const entry = chunks.find((c) => c.isEntry);
        // The pre-rendered pages (src/prerender.tsx) and the login form both of them show.
        const targets = [
          '/app/routes/landing.tsx',
          '/app/routes/login.tsx',
          '/features/auth/components/login-form.tsx',
        ]
          .map((suffix) => chunks.find((c) => c.facadeModuleId?.endsWith(suffix)))
          .filter((c) => c !== undefined);
        if (!entry || targets.length === 0) return [];
        const inEntry = new Set([entry.fileName, ...entry.imports]);
        const files = new Set<string>();
        const css = new Set<string>();
        const visit = (fileName: string) => {
          if (files.has(fileName) || inEntry.has(fileName)) return;
          const chunk = chunks.find((c) => c.fileName === fileName);
          if (!chunk) return;
          files.add(fileName);
          for (const f of chunk.viteMetadata?.importedCss ?? []) css.add(f);
          for (const imported of chunk.imports) visit(imported);
        };
        for (const t of targets) visit(t.fileName);
        const tags: HtmlTagDescriptor[] = [];
        for (const f of css)
          tags.push({ tag: 'link', attrs: { rel: 'stylesheet', href: `/${f}` }, injectTo: 'head' });
        for (const f of files)
          tags.push({ tag: 'link', attrs: { rel: 'modulepreload', href: `/${f}` }, injectTo: 'head' });
        return tags;
      },
    },
  };
}

export default defineConfig({
  base: '/',
  plugins: [react(), preloadLanding()],
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
        advancedChunks: {
          // Only the matched modules go into a group (not React and other shared dependencies).
          includeDependenciesRecursively: false,
          groups: [
            // antd-mobile's animation stack (Toast, Popup, Picker …) in its own chunk, so the small
            // shared helpers that the landing needs do not drag it into the first load.
            { name: 'animation', test: /node_modules[\\/](@react-spring|@use-gesture)/ },
          ],
        },
      },
    },
  },
});
