/**
 * What each Studio screen loads, read from the build's chunk report (dist/studio/.vite/chunks.json,
 * written by studio/vite.config.ts): the GraphQL explorer's GraphiQL, Monaco and graphql-js come
 * only with the explorer's route chunk, so every other screen keeps its first-load JavaScript
 * (docs/studio.md "GraphQL explorer", "How it is built and served"); the editor's workers are
 * script files of the build, started by URL (no blob: or data: worker under the Studio's CSP).
 * The first load of each screen (the entry's static imports plus the screen's chunk and its
 * static imports) is printed, raw and as sent (the build's brotli copies).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChunkReport as Chunk } from '../studio/vite.config.js';
import { ensureBuilt, ROOT } from './build.js';

const DIST = path.join(ROOT, 'dist/studio');
const EXPLORER = 'studio/src/screens/graphql/ApiExplorer.tsx';
/** Packages only the explorer may load (GraphiQL, its editor, graphql-js and what they bring). */
const EXPLORER_ONLY =
  /^node_modules\/(graphiql|@graphiql|monaco-editor|monaco-graphql|graphql|graphql-language-service|prettier|markdown-it|framer-motion|@radix-ui)\//;

let chunks: Map<string, Chunk>;
let assets: { file: string; bytes: number }[];

/** The chunks `from` loads at once: itself and its static imports, transitively. */
function staticClosure(from: string, into = new Set<string>()): Set<string> {
  if (into.has(from)) return into;
  into.add(from);
  for (const f of chunks.get(from)!.imports) staticClosure(f, into);
  return into;
}

describe('Studio bundle', () => {
  beforeAll(() => {
    ensureBuilt({ server: false });
    const report = JSON.parse(fs.readFileSync(path.join(DIST, '.vite/chunks.json'), 'utf8')) as { chunks: Chunk[]; assets: { file: string; bytes: number }[] };
    chunks = new Map(report.chunks.map((c) => [c.file, c]));
    assets = report.assets;
  }, 600_000);

  it('GraphiQL, Monaco and graphql-js load only with the explorer screen', () => {
    const entry = [...chunks.values()].find((c) => c.isEntry)!;
    const explorer = [...chunks.values()].find((c) => c.facade === EXPLORER);
    expect(explorer?.isDynamicEntry, 'the explorer is a lazy route chunk').toBe(true);
    const explorerModules = [...staticClosure(explorer!.file)].flatMap((f) => chunks.get(f)!.modules);
    expect(explorerModules.some((m) => m.startsWith('node_modules/graphiql/'))).toBe(true);

    // Everything the Studio can load without opening the explorer: from the entry, through static
    // and dynamic imports, except into the explorer's chunk.
    const reachable = new Set<string>();
    const walk = (file: string) => {
      if (reachable.has(file) || file === explorer!.file) return;
      reachable.add(file);
      const c = chunks.get(file)!;
      for (const f of [...c.imports, ...c.dynamicImports]) walk(f);
    };
    walk(entry.file);
    expect(reachable.size).toBeGreaterThan(20);
    const leaked = [...reachable].flatMap((f) =>
      chunks
        .get(f)!
        .modules.filter((m) => EXPLORER_ONLY.test(m))
        .map((m) => `${f}: ${m}`),
    );
    expect(leaked).toEqual([]);
  });

  it('the editor workers are files of the build, started by URL', () => {
    const explorer = [...chunks.values()].find((c) => c.facade === EXPLORER)!;
    const code = fs.readFileSync(path.join(DIST, explorer.file), 'utf8');
    for (const name of ['editor', 'json', 'graphql']) {
      const worker = assets.find((a) => new RegExp(`^assets/${name}\\.worker-[\\w-]+\\.js$`).test(a.file));
      expect(worker, `${name} worker`).toBeTruthy();
      expect(fs.existsSync(path.join(DIST, worker!.file))).toBe(true);
      expect(code).toContain(`new Worker(\`/studio/${worker!.file}\``);
    }
  });

  it('prints the first load of each screen', () => {
    const entry = [...chunks.values()].find((c) => c.isEntry)!;
    const first = staticClosure(entry.file);
    // The build's own brotli copy (what the server sends).
    const brotli = (file: string) => fs.statSync(path.join(DIST, `${file}.br`)).size;
    const rows: string[] = [];
    const screens = [...chunks.values()].filter((c) => c.isDynamicEntry && c.facade?.startsWith('studio/src/screens/'));
    for (const c of [entry, ...screens]) {
      const files = c === entry ? first : staticClosure(c.file, new Set(first));
      const raw = [...files].reduce((sum, f) => sum + chunks.get(f)!.bytes, 0);
      const br = [...files].reduce((sum, f) => sum + brotli(f), 0);
      const name = c === entry ? '(entry)' : c.facade!.replace('studio/src/screens/', '');
      rows.push(
        `  ${name.padEnd(28)} ${String(files.size).padStart(3)} files ${(raw / 1024).toFixed(1).padStart(7)} KB raw ${(br / 1024).toFixed(1).padStart(6)} KB brotli`,
      );
    }
    process.stdout.write(`\n[studio bundle] first load (JavaScript)\n${rows.join('\n')}\n`);
    expect(rows.length).toBeGreaterThan(10);
  });
});
