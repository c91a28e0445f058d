/**
 * The CLI's environment: the same configuration as the server (loadConfig over the same
 * variables, D61), the same database (createDb migrates it) and the same Context, so every
 * command runs the operations the HTTP routes run. Log lines go to stderr, never stdout, so that
 * `--json` output stays one JSON object.
 */
import { createLogger } from '../lib/logger.js';
import { loadConfig } from '../config.js';
import { closeContext, createContext, type Context } from '../context.js';
import { createDb } from '../db/create-db.js';
import type { CliIo } from './io.js';

export interface CliRuntime {
  ctx: Context;
  close(): Promise<void>;
}

/**
 * Opens the database named by `io.env` (DATA_DIR or DATABASE_URL) and builds the Context.
 * Throws ConfigError for unusable variables. Without LOG_LEVEL the CLI logs warnings only.
 */
export async function openRuntime(io: CliIo): Promise<CliRuntime> {
  const config = loadConfig(io.env);
  const level = io.env.LOG_LEVEL ? config.logLevel : 'warn';
  const log = createLogger(level, { write: (line: string) => io.stderr.write(line) });
  const db = await createDb(config, { poolSize: 2 });
  try {
    const ctx = await createContext(config, db, { log, redis: false, indexBuilds: false });
    return {
      ctx,
      close: async () => {
        await closeContext(ctx);
        await db.close();
      },
    };
  } catch (err) {
    await db.close();
    throw err;
  }
}
