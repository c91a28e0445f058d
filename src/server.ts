/**
 * `npm start`: reads the configuration, opens the database (migrating it), seeds the demo
 * workspace on an empty embedded database (D60), starts the scheduling job and listens.
 * SIGINT/SIGTERM close the listener, let in-flight requests finish, stop jobs, close the database.
 */

// A server runs in production mode unless told otherwise: libraries read NODE_ENV once, when they
// are first imported, so it is set before anything else is loaded. In development mode graphql-js
// runs a check on every failed type test of its executor (a guard against two copies of it), which
// cost the GraphQL mega menu 5-10 % of its time (docs/configuration.md "NODE_ENV").
process.env.NODE_ENV ??= 'production';

async function main(): Promise<void> {
  const [{ buildApp }, { ConfigError, loadConfig }, { createContext }, { createDb }, { startServices }] = await Promise.all([
    import('./app.js'),
    import('./config.js'),
    import('./context.js'),
    import('./db/create-db.js'),
    import('./services.js'),
  ]);
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
