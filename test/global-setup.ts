/**
 * Runs once before the suite: in CI, PostgreSQL must be configured and reachable, because every
 * storage test runs on both dialects and a test that needs a server never silently skips; so must
 * Redis (REDIS_URL), which the suite of instances sharing limits needs.
 *
 * It also collects the logs of the whole run: every app built by test/helpers.ts logs at debug
 * level into QUIRE_TEST_LOG_DIR (one file per worker), and the teardown fails the run if any
 * line holds an API key, a preview token or another secret (issue 8: secrets never reach a
 * log line, URLs included).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { scanLogsForSecrets } from './log-scan.js';

export default async function setup(): Promise<() => void> {
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-test-logs-'));
  process.env.QUIRE_TEST_LOG_DIR = logDir;
  const teardown = () => {
    try {
      const report = scanLogsForSecrets(logDir);
      if (report.leaks.length > 0) {
        // Vitest reports a throwing teardown but exits 0; the exit code must say the run failed.
        process.exitCode = 1;
        throw new Error(`secrets in the logs of the test run (${report.leaks.length} lines), e.g.:\n${report.leaks.slice(0, 5).join('\n')}`);
      }
    } finally {
      fs.rmSync(logDir, { recursive: true, force: true });
    }
  };
  await checkPostgres();
  await checkRedis();
  return teardown;
}

async function checkPostgres(): Promise<void> {
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
    throw new Error(`PostgreSQL at DATABASE_URL is not reachable: ${(err as Error).message}`, { cause: err });
  } finally {
    await client.end().catch(() => {});
  }
}

async function checkRedis(): Promise<void> {
  const url = process.env.REDIS_URL;
  if (!url) {
    if (process.env.CI) throw new Error('CI needs REDIS_URL (Redis): the suite of instances sharing limits runs against it');
    return;
  }
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 5000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await client.connect();
    await client.ping();
  } catch (err) {
    throw new Error(`Redis at REDIS_URL is not reachable: ${(err as Error).message}`, { cause: err });
  } finally {
    client.disconnect();
  }
}
