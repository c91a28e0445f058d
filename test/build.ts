/**
 * The build that suites running Quire as a process start: `dist/src` (`tsc -p tsconfig.build.json`,
 * as `npm run build`) and the Studio (`dist/studio`, `npm run build:studio`). `ensureBuilt()`
 * rebuilds a part when its output is missing or older than its sources (src, studio/src), so a
 * suite never runs a stale build, and a server process starts from compiled JavaScript instead of
 * compiling src/ on every start (`--import tsx`: about 2 CPU-seconds more per start).
 *
 * In CI the build is fresh (`npm ci` runs `prepare`, which builds), so this only compares times.
 * Two workers finding it stale at once build one after the other: a lock file in dist/ lets one
 * build while the other waits, then finds it fresh.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

function mtime(file: string): number {
  return fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0;
}

const serverStale = () => mtime(path.join(ROOT, 'dist/src/server.js')) < newestMtime(path.join(ROOT, 'src'));
// The build config counts as a source: it decides the chunks and writes .vite/chunks.json.
const studioStale = () =>
  mtime(path.join(ROOT, 'dist/studio/index.html')) <
  Math.max(newestMtime(path.join(ROOT, 'studio/src')), mtime(path.join(ROOT, 'studio/index.html')), mtime(path.join(ROOT, 'studio/vite.config.ts')));

/** Holds dist/.test-build.lock while `build` runs; waits (10 minutes at most) while another process holds it. */
function withLock(build: () => void): void {
  const lock = path.join(ROOT, 'dist', '.test-build.lock');
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + 600_000;
  for (;;) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(fs.readFileSync(lock, 'utf8'));
      let alive = false;
      try {
        process.kill(holder, 0);
        alive = holder > 0;
      } catch {
        // the holder died while building: its lock is stale
      }
      if (!alive) fs.rmSync(lock, { force: true });
      else if (Date.now() > deadline) throw new Error(`${lock} held by process ${holder} for 10 minutes`, { cause: err });
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    build();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

/**
 * Builds what is missing or older than its sources: unless `server` is false, the server (`tsc -p
 * tsconfig.build.json`, as in `npm run build`) and, unless `studio` is false, the Studio (`npm run
 * build:studio`).
 */
export function ensureBuilt(options: { studio?: boolean; server?: boolean } = {}): void {
  const studio = options.studio !== false;
  const server = options.server !== false;
  if (!(server && serverStale()) && !(studio && studioStale())) return;
  // vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
  const run = {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'inherit', 'inherit'] as ('ignore' | 'inherit')[],
    timeout: 300_000,
  };
  withLock(() => {
    if (server && serverStale()) execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], run);
    if (studio && studioStale()) execFileSync('npm', ['run', 'build:studio'], run);
  });
}
