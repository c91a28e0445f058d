/**
 * What a serving process keeps in memory (docs/scaling.md "Memory"), checked where a check can
 * fail rather than by measuring RSS:
 *
 * - The modules a ready app loads, having answered a delivery request, in a process of its own
 *   (test/startup-modules-child.mjs): the other database's driver, sharp, the S3 client, ioredis,
 *   nodemailer, file-type, jsdom, DOMPurify and openid-client (single sign-on) stay unloaded;
 *   sanitize-html, RE2JS and jose load only when rich-text HTML, a field pattern or a preview token
 *   needs them.
 * - Every SQLite connection, the main one and each reader thread's, keeps at most
 *   SQLITE_CACHE_BYTES of database pages (better-sqlite3's own default is 16 MiB each).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SQLITE_CACHE_BYTES, loadConfig } from '../src/config.js';
import { createDb } from '../src/db/create-db.js';
import { dialects } from './helpers.js';

const run = promisify(execFile);

/** Loaded only when the configuration or a request needs them, never at start. */
const NEVER_AT_START = ['sharp', '@aws-sdk/client-s3', 'ioredis', 'nodemailer', 'file-type', 'jsdom', 'dompurify', 'openid-client', 'oauth4webapi'];
/** Loaded on first use by the child: rich-text HTML, a field pattern, a preview token. */
const ON_FIRST_USE = ['sanitize-html', 're2js', 'jose'];

describe.each(dialects())('modules a serving process loads on %s', (dialect) => {
  it('loads neither unconfigured drivers nor what no request used yet; loads the latter on first use', async () => {
    const schema = `t_${process.pid}_${randomBytes(5).toString('hex')}`;
    const args = dialect === 'postgres' ? [process.env.DATABASE_URL!, schema] : [];
    const { stdout } = await run(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'startup-modules-child.mjs'), ...args], {
      cwd: path.join(import.meta.dirname, '..'),
      env: { PATH: process.env.PATH ?? '' },
    });
    const { answers, used, startup, afterUse } = JSON.parse(stdout) as {
      answers: number[];
      used: Record<string, unknown>;
      startup: string[];
      afterUse: string[];
    };
    expect(answers).toEqual([200, 200]);
    expect(used).toEqual({ html: '<p>a</p>', pattern: true, token: true });
    // The tracing sees what does load.
    // SQLite's driver is better-sqlite3 on Node 20 and better-sqlite3-napi from Node 22 (README).
    const sqliteDrivers = ['better-sqlite3', 'better-sqlite3-napi'];
    expect(startup).toEqual(expect.arrayContaining(['fastify', 'kysely', 'ajv']));
    if (dialect === 'postgres') expect(startup).toContain('pg');
    else expect(startup.filter((name) => sqliteDrivers.includes(name))).toHaveLength(1);
    const otherDrivers = dialect === 'postgres' ? sqliteDrivers : ['pg'];
    for (const name of [...NEVER_AT_START, ...ON_FIRST_USE, ...otherDrivers]) expect(startup, name).not.toContain(name);
    expect(afterUse).toEqual(expect.arrayContaining(ON_FIRST_USE));
    for (const name of [...NEVER_AT_START, ...otherDrivers]) expect(afterUse, name).not.toContain(name);
  }, 90_000);
});

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
