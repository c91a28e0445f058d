/**
 * Vite build of the Studio (docs/studio.md): sources in studio/, output in dist/studio/, served by
 * the Quire server at /studio/ (src/http/routes/studio.ts). Asset names carry a content hash, so
 * the server can cache them forever; index.html is served with no-cache.
 */
import { defineConfig, type Plugin } from 'vite';
import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Writes `.br` and `.gz` beside every built script and stylesheet: the server sends them to
 * browsers that accept them (@fastify/static preCompressed), so the Studio's JavaScript travels
 * compressed without compressing on each request.
 */
function precompress(): Plugin {
  return {
    name: 'quire-precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      for (const name of Object.keys(bundle)) {
        if (!/\.(js|css|svg)$/.test(name)) continue;
        const file = path.join(options.dir!, name);
        const data = fs.readFileSync(file);
        fs.writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
        fs.writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

export default defineConfig({
  root,
  base: '/studio/',
  plugins: [react(), precompress()],
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
