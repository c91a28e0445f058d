/**
 * What a serving process keeps in memory (docs/scaling.md "Memory"), checked where a check can
 * fail rather than by measuring RSS:
 *
 * - Every SQLite connection, the main one and each reader thread's, keeps at most
 *   SQLITE_CACHE_BYTES of database pages (better-sqlite3's own default is 16 MiB each).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SQLITE_CACHE_BYTES, loadConfig } from '../src/config.js';
import { createDb } from '../src/db/create-db.js';
import { dialects } from './helpers.js';

describe.runIf(dialects().includes('sqlite'))('SQLite page caches', () => {
  it('sizes the main connection and every reader thread by SQLITE_CACHE_BYTES (default 4 MiB)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-page-cache-'));
    try {
      for (const [env, kib] of [
        [{}, DEFAULT_SQLITE_CACHE_BYTES / 1024],
        [{ SQLITE_CACHE_BYTES: String(3 * 1024 * 1024), SQLITE_READER_THREADS: '1' }, 3072],
      ] as const) {
        const db = await createDb(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', ...env }));
        try {
          const main = await sql<{ cache_size: number }>`pragma cache_size`.execute(db.kysely);
          expect(main.rows[0].cache_size).toBe(-kib);
          // Two reads at once: with one reader thread both run on it, with two each on its own.
          const reads = await Promise.all([1, 2].map(() => sql<{ cache_size: number }>`select cache_size from pragma_cache_size()`.execute(db.heavyReads!)));
          for (const r of reads) expect(r.rows[0].cache_size).toBe(-kib);
        } finally {
          await db.close();
        }
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
