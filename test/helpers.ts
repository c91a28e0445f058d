/**
 * Test helpers: the dialects to run on, a fresh database per suite (in-memory SQLite; a new
 * PostgreSQL schema dropped afterwards), the app built on it, seeded workspaces and a small
 * request helper over inject().
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from '../src/app.js';
import { createLogger } from '../src/lib/logger.js';
import { loadConfig, type Config } from '../src/config.js';
import { createContext, type Context } from '../src/context.js';
import { createDb } from '../src/db/create-db.js';
import type { Dialect } from '../src/db/types.js';
import { bootstrap, type BootstrapResult } from '../src/modules/auth/operations.js';
import { PASSWORD_HASH_MIN_LOG2N } from '../src/modules/auth/passwords.js';
import type { Clock } from '../src/lib/time.js';
import { newId } from '../src/lib/ids.js';
import type { MediaTable } from '../src/db/types.js';

/** SQLite always; PostgreSQL when DATABASE_URL is set (CI always sets it: test/global-setup.ts). */
export function dialects(): Dialect[] {
  return process.env.DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

export interface TestEnv {
  dialect: Dialect;
  ctx: Context;
  app: FastifyInstance;
  config: Readonly<Config>;
  close(): Promise<void>;
}

export interface TestEnvOptions {
  clock?: Clock;
  config?: Partial<Config>;
  /** Adds to the app before it is ready (e.g. a route standing in for a slow handler). */
  beforeReady?: (app: FastifyInstance) => void;
  /** SQLite in a file under DATA_DIR instead of in memory: reader threads and background index builds need one. */
  sqliteOnDisk?: boolean;
}

/** A fresh database of `dialect` with the app built on it. Call close() in afterAll. */
export async function createTestEnv(dialect: Dialect, options: TestEnvOptions = {}): Promise<TestEnv> {
  const dataDir = path.join(os.tmpdir(), `quire-test-${process.pid}-${randomBytes(4).toString('hex')}`);
  const config = loadConfig(
    {
      DATA_DIR: dataDir,
      DATABASE_URL: dialect === 'postgres' ? process.env.DATABASE_URL : undefined,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
      PUBLIC_URL: 'http://quire.test',
    },
    // Suites send thousands of writes a minute with one key; test/rate-limit.test.ts turns it on.
    // Password hashes at scrypt's lowest cost here (N=2^10, about 3 ms against 130 for the 2^15 of
    // every deployment): suites sign in hundreds of times. Servers started as processes, and
    // src/modules/auth/passwords.test.ts, keep the deployment's cost.
    { demo: false, rateLimitManagement: 0, rateLimitDelivery: 0, passwordHashLog2n: PASSWORD_HASH_MIN_LOG2N, ...options.config },
  );
  const schema = dialect === 'postgres' ? `t_${process.pid}_${randomBytes(5).toString('hex')}` : undefined;
  const db = await createDb(config, dialect === 'postgres' ? { pgSchema: schema, poolSize: 4 } : { sqliteFile: options.sqliteOnDisk ? undefined : ':memory:' });
  const logStream = testLogStream();
  const ctx = await createContext(config, db, { clock: options.clock, log: logStream ? createLogger('debug', logStream) : pino({ level: 'silent' }) });
  const app = await buildApp(ctx, { logger: logStream !== null });
  options.beforeReady?.(app);
  await app.ready();
  return {
    dialect,
    ctx,
    app,
    config,
    close: async () => {
      await app.close();
      if (schema)
        await db.kysely.schema
          .dropSchema(schema)
          .ifExists()
          .cascade()
          .execute()
          .catch(() => {});
      await db.close();
      if (options.sqliteOnDisk) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let logDestination: pino.DestinationStream | null | undefined;
/**
 * This worker's log file under QUIRE_TEST_LOG_DIR (set by test/global-setup.ts, whose teardown
 * scans every line for secrets), or null outside a full run. Written synchronously, so nothing is
 * lost when the worker exits.
 */
function testLogStream(): pino.DestinationStream | null {
  if (logDestination === undefined) {
    const dir = process.env.QUIRE_TEST_LOG_DIR;
    logDestination = dir ? pino.destination({ dest: path.join(dir, `${process.pid}.ndjson`), sync: true }) : null;
  }
  return logDestination;
}

let counter = 0;
/** A new workspace (en default, de second) with its owner and three keys. */
export async function seedWorkspace(ctx: Context, overrides: { slug?: string; locales?: string[]; default_locale?: string } = {}): Promise<BootstrapResult> {
  counter += 1;
  return bootstrap(ctx, {
    slug: overrides.slug ?? `ws-${counter}-${randomBytes(3).toString('hex')}`,
    name: 'Test workspace',
    default_locale: overrides.default_locale ?? 'en',
    locales: overrides.locales ?? ['en', 'de'],
    email: `owner-${counter}-${randomBytes(3).toString('hex')}@example.com`,
  });
}

export interface Res {
  status: number;
  body: any;
  headers: Record<string, string | string[] | undefined>;
}

/** Request helper: `call(app, 'GET', url, {key, body, headers})` returning status, parsed body and headers. */
export async function call(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  opts: { key?: string; body?: unknown; headers?: Record<string, string>; raw?: string } = {},
): Promise<Res> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.key) headers['x-api-key'] = opts.key;
  let payload: string | undefined;
  if (opts.raw !== undefined) payload = opts.raw;
  else if (opts.body !== undefined) {
    payload = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await app.inject({ method, url, headers, payload });
  let body: unknown = res.body;
  try {
    body = JSON.parse(res.body);
  } catch {
    /* not JSON: keep the text */
  }
  return { status: res.statusCode, body, headers: res.headers as Res['headers'] };
}

/** Asserts the docs/api.md "Errors" envelope and returns it (for further checks). */
export function expectError(res: Res, status: number, code: string): Res['body'] {
  if (res.status !== status || res.body?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.body)}`);
  }
  const b = res.body;
  if (b.success !== false || b.data !== null || b.meta !== null || typeof b.message !== 'string' || !/^req_/.test(b.traceId)) {
    throw new Error(`not an error envelope: ${JSON.stringify(b)}`);
  }
  if (res.headers['x-request-id'] !== b.traceId) throw new Error('traceId differs from X-Request-Id');
  return b;
}

/**
 * Inserts a media record directly (the row the media module writes for an uploaded PNG, stored
 * under the key `<id>.png`, so its URL reads `<PUBLIC_URL>/media/files/<id>.png`), for suites
 * that need an asset to reference without uploading one. Returns its id.
 */
export async function insertMediaRow(
  ctx: Context,
  workspaceId: string,
  uploadedBy: number,
  overrides: Partial<Omit<MediaTable, 'id' | 'workspace_id'>> & { deleted?: boolean } = {},
): Promise<string> {
  const id = newId();
  const now = overrides.created_at ?? new Date().toISOString();
  const { deleted, ...fields } = overrides;
  await ctx.db.kysely
    .insertInto('media')
    .values({
      id,
      workspace_id: workspaceId,
      storage_key: `${id}.png`,
      remote_url: null,
      mime_type: 'image/png',
      width: 640,
      height: 480,
      alt_text: 'An image',
      focal_x: 0.5,
      focal_y: 0.25,
      filename: `${id}.png`,
      original_name: 'photo.png',
      folder: null,
      size: 1234,
      uploaded_by: uploadedBy,
      created_at: now,
      updated_at: now,
      deleted_at: deleted ? now : null,
      ...fields,
    })
    .execute();
  return id;
}
