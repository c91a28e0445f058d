// A Quire server in its own process (test/faults/*.test.ts), so that a crash shows as a dead
// process instead of a dead test run, and so that the suite can kill it (SIGKILL) and start it
// again on the same database. argv[2] is a PostgreSQL schema (DATABASE_URL set) or `sqlite`
// (the file in DATA_DIR). With FAULT_BOOTSTRAP=1 it creates a workspace first. Runs the compiled
// build (npm test emits dist/ before vitest starts) and the scheduled-publishing job. Prints
// {port, keys} as one JSON line when ready (keys null without bootstrap).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const [target] = process.argv.slice(2);
const load = (p) => import(path.join(root, 'dist/src', p));
const { loadConfig } = await load('config.js');
const { createDb } = await load('db/create-db.js');
const { createContext } = await load('context.js');
const { buildApp } = await load('app.js');
const { bootstrap } = await load('modules/auth/operations.js');
const { startScheduler } = await load('modules/publishing/scheduler.js');

const config = loadConfig(process.env, { demo: false, rateLimitManagement: 0, rateLimitDelivery: 0 });
const db = await createDb(config, target === 'sqlite' ? {} : { pgSchema: target, poolSize: 2 });
const ctx = await createContext(config, db, { log: pino({ level: 'silent' }) });
const keys =
  process.env.FAULT_BOOTSTRAP === '1' ? (await bootstrap(ctx, { slug: 'faults', name: 'Faults', default_locale: 'en', locales: ['en'] })).keys : null;
const app = await buildApp(ctx, { logger: false });
const scheduler = startScheduler(ctx);
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(JSON.stringify({ port: app.server.address().port, keys }) + '\n');
process.on('SIGTERM', async () => {
  await app.close();
  await scheduler.stop();
  await db.close();
  process.exit(0);
});
