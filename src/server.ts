/**
 * `npm start`: reads the configuration, opens the database (migrating it), seeds the demo
 * workspace on an empty embedded database (D60), starts the scheduling job and listens.
 * SIGINT/SIGTERM close the listener, let in-flight requests finish, stop jobs, close the database.
 */
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { createContext } from './context.js';
import { createDb } from './db/create-db.js';
import { startServices } from './services.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`quire: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const db = await createDb(config);
  const ctx = await createContext(config, db);
  const app = await buildApp(ctx);
  const services = await startServices(ctx);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    ctx.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000).unref();
    try {
      await app.close();
      await services.stop();
      await db.close();
    } finally {
      clearTimeout(timer);
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
}

main().catch((err) => {
  process.stderr.write(`quire: failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
