/**
 * Configuration: read once from the environment into one frozen object that is passed to
 * buildApp, the CLI and the jobs. Nothing in Quire reads process.env anywhere else.
 *
 * Variables (DECISIONS.md D60): PORT (default 3000), HOST (default 0.0.0.0), DATA_DIR
 * (default ./data, holds the SQLite file and media), DATABASE_URL (postgres://… switches to
 * PostgreSQL; unset means embedded SQLite), PUBLIC_URL (absolute base of media URLs, default
 * http://localhost:PORT), LOG_LEVEL (pino level, default info), SCHEDULER_INTERVAL_MS (how often
 * the publishing job runs, default 2000), QUIRE_DEMO (set to 0 to skip the demo workspace).
 */
import path from 'node:path';

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  /** null means the embedded SQLite database in dataDir. */
  readonly databaseUrl: string | null;
  readonly publicUrl: string;
  readonly logLevel: string;
  readonly schedulerIntervalMs: number;
  readonly demo: boolean;
}

/** Raised for an environment value that cannot be used; the server prints it and exits 1. */
export class ConfigError extends Error {}

function intFrom(env: Record<string, string | undefined>, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got '${raw}'`);
  }
  return n;
}

const LOG_LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/**
 * Builds the frozen Config from an environment map (process.env by default).
 * Throws ConfigError naming the variable when a value is unusable.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env, overrides: Partial<Config> = {}): Readonly<Config> {
  const port = intFrom(env, 'PORT', 3000, 0, 65535);
  const databaseUrl = env.DATABASE_URL ? env.DATABASE_URL : null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError(`DATABASE_URL must start with postgres:// (unset it to use the embedded SQLite database)`);
  }
  const logLevel = (env.LOG_LEVEL ?? 'info').toLowerCase();
  if (!LOG_LEVELS.has(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${[...LOG_LEVELS].join(', ')}`);
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    new URL(publicUrl);
  } catch {
    throw new ConfigError(`PUBLIC_URL must be an absolute URL, got '${publicUrl}'`);
  }
  const config: Config = {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    databaseUrl,
    publicUrl,
    logLevel,
    schedulerIntervalMs: intFrom(env, 'SCHEDULER_INTERVAL_MS', 2000, 100, 3_600_000),
    demo: env.QUIRE_DEMO !== '0',
    ...overrides,
  };
  return Object.freeze(config);
}
