/**
 * Runs once before the suite: in CI, PostgreSQL must be configured and reachable, because every
 * storage test runs on both dialects and a test that needs a server never silently skips.
 */
import pg from 'pg';

export default async function setup(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    if (process.env.CI) throw new Error('CI needs DATABASE_URL (PostgreSQL): storage tests run on both dialects');
    process.stderr.write('\n[quire tests] DATABASE_URL is not set: storage tests run on SQLite only\n');
    return;
  }
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (err) {
    throw new Error(`PostgreSQL at DATABASE_URL is not reachable: ${(err as Error).message}`);
  } finally {
    await client.end().catch(() => {});
  }
}
