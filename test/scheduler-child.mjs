// One scheduler pass in its own process, on a shared SQLite file (test/scheduler.test.ts): two
// processes with their own connections, as two instances of Quire would have. Runs the compiled
// build (npm test emits dist/ before vitest starts). Prints the pass's counts as JSON.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [file, now] = process.argv.slice(2);
const { createDb } = await import(path.join(root, 'dist/src/db/create-db.js'));
const { runSchedulerOnce } = await import(path.join(root, 'dist/src/modules/publishing/scheduler.js'));
const db = await createDb({ databaseUrl: null, dataDir: path.dirname(file) }, { sqliteFile: file });
try {
  const run = await runSchedulerOnce({ db, clock: () => new Date(now), log: { info() {}, error() {} } });
  process.stdout.write(JSON.stringify(run));
} finally {
  await db.close();
}
