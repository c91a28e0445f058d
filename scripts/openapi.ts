/**
 * The OpenAPI document of the running code, without a server: builds the app on a throwaway
 * in-memory SQLite database and asks it for `GET /api/v1/openapi.json` (the same document a
 * deployment serves). Used to generate the TypeScript client's wire types
 * (scripts/generate-client.ts) and by the test that keeps them in step with the server.
 *
 * Run directly: `tsx scripts/openapi.ts [--out FILE]` prints (or writes) the document.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pino from 'pino';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createContext } from '../src/context.js';
import { createDb } from '../src/db/create-db.js';

/** The OpenAPI 3.1 document as the server serves it (a parsed JSON object). */
export async function openApiDocument(): Promise<Record<string, unknown>> {
  const config = loadConfig(
    { DATA_DIR: path.join(os.tmpdir(), 'quire-openapi-dump'), LOG_LEVEL: 'silent', PUBLIC_URL: 'http://localhost:3000' },
    { demo: false },
  );
  const db = await createDb(config, { sqliteFile: ':memory:' });
  try {
    const ctx = await createContext(config, db, { log: pino({ level: 'silent' }), redis: false });
    const app = await buildApp(ctx, { logger: false });
    try {
      const res = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
      if (res.statusCode !== 200) throw new Error(`GET /api/v1/openapi.json answered ${res.statusCode}`);
      return JSON.parse(res.body) as Record<string, unknown>;
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
  }
}

/** True when this module is the script node was started with (not imported by another). */
export function isMain(metaUrl: string): boolean {
  return process.argv[1] !== undefined && metaUrl === pathToFileURL(path.resolve(process.argv[1])).href;
}

if (isMain(import.meta.url)) {
  const outIndex = process.argv.indexOf('--out');
  const text = `${JSON.stringify(await openApiDocument(), null, 2)}\n`;
  if (outIndex > 0 && process.argv[outIndex + 1]) await fs.writeFile(process.argv[outIndex + 1], text);
  else process.stdout.write(text);
}
