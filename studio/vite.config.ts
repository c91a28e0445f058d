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

/** One built chunk as `.vite/chunks.json` lists it (test/studio-bundle.test.ts reads it). */
export interface ChunkReport {
  file: string;
  /** the module that starts it: `studio/src/...` for a screen chunk, null for a shared chunk */
  facade: string | null;
  isEntry: boolean;
  isDynamicEntry: boolean;
  /** chunks it loads at once (static imports) and on demand (import()) */
  imports: string[];
  dynamicImports: string[];
  /** the modules bundled into it, relative to the repository (`node_modules/graphiql/...`) */
  modules: string[];
  bytes: number;
}

/**
 * Writes `.vite/chunks.json` into the build (beside Vite's own `.vite/` files; the server only
 * serves `assets/`): every chunk with the modules it holds and what it imports, and every other
 * asset (worker scripts, styles). test/studio-bundle.test.ts proves from it which screens load
 * what on their first load (docs/studio.md "How it is built and served").
 */
function chunkReport(): Plugin {
  const repo = path.resolve(root, '..');
  const rel = (id: string) => path.relative(repo, id.replace(/^\0/, '').split('?')[0]).split(path.sep).join('/');
  return {
    name: 'quire-chunk-report',
    apply: 'build',
    writeBundle(options, bundle) {
      const chunks: ChunkReport[] = [];
      const assets: { file: string; bytes: number }[] = [];
      for (const item of Object.values(bundle)) {
        if (item.type === 'chunk') {
          chunks.push({
            file: item.fileName,
            facade: item.facadeModuleId ? rel(item.facadeModuleId) : null,
            isEntry: item.isEntry,
            isDynamicEntry: item.isDynamicEntry,
            imports: item.imports,
            dynamicImports: item.dynamicImports,
            modules: item.moduleIds.map(rel),
            bytes: Buffer.byteLength(item.code),
          });
        } else {
          assets.push({ file: item.fileName, bytes: typeof item.source === 'string' ? Buffer.byteLength(item.source) : item.source.byteLength });
        }
      }
      const dir = path.join(options.dir!, '.vite');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'chunks.json'), JSON.stringify({ chunks, assets }, null, 1));
    },
  };
}

export default defineConfig({
  root,
  base: '/studio/',
  plugins: [react(), precompress(), chunkReport()],
  build: {
    outDir: fileURLToPath(new URL('../dist/studio', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    // The GraphQL explorer's editor (Monaco, 2.8 MB, loaded only on that screen) is the largest chunk;
    // what each screen loads first is held by test/studio-bundle.test.ts and the e2e suite.
    chunkSizeWarningLimit: 3000,
    rolldownOptions: {
      // GraphiQL's modules start with React Compiler directives ("use no memo"), which bundling
      // drops harmlessly; every other warning is shown.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE' && /node_modules/.test(warning.id ?? '')) return;
        warn(warning);
      },
    },
  },
  server: {
    // `npm run dev:studio` proxies the API to a Quire server on :3000.
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
});
