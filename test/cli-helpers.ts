/**
 * Running the `quire` CLI in-process for tests: runCli with string buffers for stdout and stderr,
 * on a test environment's Context (so it works on the per-suite PostgreSQL schema too) or on a
 * given environment map, e.g. one from externalEnv (a fresh database as a shell would name it).
 * cappedNode runs a node process of its own with a capped heap (memory tests).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { runCli } from '../src/cli/index.js';
import type { Context } from '../src/context.js';
import type { Dialect } from '../src/db/types.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (throws when it is not exactly one JSON value). */
  json(): any;
}

export async function cli(argv: string[], opts: { context?: Context; env?: Record<string, string | undefined>; tty?: boolean } = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    env: opts.env ?? {},
    stdout: { write: (s: string) => (stdout += s), isTTY: opts.tty ?? false },
    stderr: { write: (s: string) => (stderr += s) },
    context: opts.context,
  });
  return { code, stdout, stderr, json: () => JSON.parse(stdout) };
}

/**
 * An environment map for a fresh database of `dialect`, as a shell would pass it: a temporary
 * DATA_DIR, or DATABASE_URL naming a new PostgreSQL database (dropped again by cleanup).
 */
export async function externalEnv(dialect: Dialect): Promise<{ env: Record<string, string>; cleanup(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-cli-'));
  if (dialect === 'sqlite') {
    return { env: { DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, cleanup: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  }
  const url = new URL(process.env.DATABASE_URL!);
  const name = `quire_cli_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const c = new pg.Client({ connectionString: url.toString() });
    await c.connect();
    try {
      await c.query(statement);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: target.toString(), LOG_LEVEL: 'silent' },
    cleanup: async () => {
      await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const execFileAsync = promisify(execFile);

/**
 * Runs node with its heap capped at `heapMb` MB (`--max-old-space-size`) and `args`, in the
 * repository's folder with only PATH and `env` set; resolves with the exit code (-1 when killed by
 * a signal) and the output, also when the process fails.
 */
export async function cappedNode(heapMb: number, args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [`--max-old-space-size=${heapMb}`, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}
