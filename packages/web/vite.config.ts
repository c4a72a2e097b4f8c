import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

// What the reference server answers besides the app; in development Vite forwards it, so the app and
// the API share one origin exactly as in production.
const API_ORIGIN = 'http://127.0.0.1:8787';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  // `source` first: the SDK resolves to its TypeScript sources, so the web app never waits for an SDK build.
  resolve: { conditions: ['planwright-source', ...defaultClientConditions] },
  server: {
    proxy: {
      '/api': { target: API_ORIGIN },
      '/_allauth': { target: API_ORIGIN },
      '/accounts': { target: API_ORIGIN },
      '/ws': { target: API_ORIGIN, ws: true },
    },
  },
  build: { outDir: 'dist', emptyOutDir: true },
});
