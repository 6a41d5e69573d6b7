import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/',
  plugins: [react()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
    // One React for the app and for the libraries hoisted to the repo root.
    dedupe: ['react', 'react-dom'],
  },
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
