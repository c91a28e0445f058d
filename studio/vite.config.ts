/**
 * Vite build of the Studio (docs/studio.md): sources in studio/, output in dist/studio/, served by
 * the Quire server at /studio/ (src/http/routes/studio.ts). Asset names carry a content hash, so
 * the server can cache them forever; index.html is served with no-cache.
 */
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: '/studio/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/studio', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    chunkSizeWarningLimit: 700,
  },
  server: {
    // `npm run dev:studio` proxies the API to a Quire server on :3000.
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
});
