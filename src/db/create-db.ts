/**
 * Opens the database named by the config: embedded SQLite in DATA_DIR (default; WAL journal,
 * foreign keys on) or PostgreSQL when DATABASE_URL is set. Migrations run before it returns.
 *
 * Options: `pgSchema` puts every table of a PostgreSQL connection in that schema (tests use one
 * schema per suite); `sqliteFile` overrides the file (':memory:' for throwaway databases).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, sql, type PostgresPool } from 'kysely';
import { DEFAULT_SQLITE_CACHE_BYTES, type Config } from '../config.js';
import { migrateToLatest } from './migrate.js';
import { isDatabaseUnavailable } from './errors.js';
import { gatedSqliteDialect, StatementCache, WriteGate } from './sqlite-driver.js';
import { runOnWorkerThread } from './sqlite-long-write.js';
import { ReaderPool, readerDialect, resolveModule } from './sqlite-readers.js';
import type { Database, Db, DbMemo } from './types.js';

export interface CreateDbOptions {
  pgSchema?: string;
  sqliteFile?: string;
  /** Skip migrations (only for tools that inspect an existing database). */
  migrate?: boolean;
  /** Maximum PostgreSQL pool size (default 10). */
  poolSize?: number;
}

export async function createDb(
  config: Pick<Config, 'databaseUrl' | 'dataDir'> & Partial<Pick<Config, 'dbStatementTimeoutMs' | 'sqliteCacheBytes' | 'sqliteReaderThreads'>>,
  options: CreateDbOptions = {},
): Promise<Db> {
  const timeoutMs = config.dbStatementTimeoutMs ?? 15_000;
  const db = config.databaseUrl
    ? await openPostgres(config.databaseUrl, options, timeoutMs)
    : await openSqlite(config.dataDir, options, {
        timeoutMs,
        cacheKib: Math.ceil((config.sqliteCacheBytes ?? DEFAULT_SQLITE_CACHE_BYTES) / 1024),
        readerThreads: config.sqliteReaderThreads ?? READER_THREADS,
      });
  if (options.migrate !== false) {
    if (db.dialect === 'postgres') {
      // One instance migrates at a time; the others wait, then find nothing left to do.
      await db.kysely.connection().execute(async (conn) => {
        // Building an index over a large table may take longer than a request's statement.
        await sql`set statement_timeout = 0`.execute(conn);
        await sql`select pg_advisory_lock(7216401)`.execute(conn);
        try {
          await migrateToLatest(conn, 'postgres', options.pgSchema);
        } finally {
          await sql`select pg_advisory_unlock(7216401)`.execute(conn);
          await sql`reset statement_timeout`.execute(conn);
        }
      });
    } else {
      await migrateToLatest(db.kysely, db.dialect);
    }
  }
  return db;
}

/** The memory of a new handle (Db.memo): empty, and shared by its transactions. */
function createDbMemo(): DbMemo {
  return { fieldPatterns: new Map(), eventWatchers: new Set(), compiledQueries: new Map(), statementNames: new Map() };
}

/**
 * Worker threads reading the SQLite file for delivery lists and counts (src/db/sqlite-readers.ts)
 * unless SQLITE_READER_THREADS says otherwise: two, so one long read leaves another worker to the
 * next list.
 */
const READER_THREADS = 2;

/** How openSqlite sizes its connections. */
interface SqliteSizing {
  /** Longest a statement (or a wait) may take. */
  timeoutMs: number;
  /** Page cache of each connection, in KiB (`PRAGMA cache_size = -N`). */
  cacheKib: number;
  readerThreads: number;
}

/**
 * How long a long write on a worker thread (an index build) waits for the write lock: another
 * process (the CLI) may hold it for a while, and meanwhile only that worker waits.
 */
const LONG_WRITE_LOCK_WAIT_MS = 60_000;

/**
 * The better-sqlite3 build for this Node.js: 12.x (compiled at install) on Node 20, whose ABI it
 * targets; 13.x (Node-API, prebuilt, installed as `better-sqlite3-napi`) on Node 22 and later.
 * Neither line covers both: 13 crashes on Node 20, and 12 aborts on Node >= 24.19 when a
 * statement is garbage-collected (node::ObjectWrap gained cleanup hooks there). The API is the same.
 */
function sqliteModule(): 'better-sqlite3-napi' | 'better-sqlite3' {
  return Number(process.versions.node.split('.')[0]) >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3';
}

/** The SQLite driver for this Node.js: better-sqlite3, or its N-API build on Node.js 22 and later. */
export async function loadSqlite(): Promise<typeof import('better-sqlite3')> {
  const mod = sqliteModule() === 'better-sqlite3-napi' ? await import('better-sqlite3-napi') : await import('better-sqlite3');
  return ((mod as { default?: unknown }).default ?? mod) as typeof import('better-sqlite3');
}

async function openSqlite(dataDir: string, options: CreateDbOptions, { timeoutMs, cacheKib, readerThreads }: SqliteSizing): Promise<Db> {
  const Sqlite = await loadSqlite();
  let file = options.sqliteFile;
  if (!file) {
    fs.mkdirSync(dataDir, { recursive: true });
    file = path.join(dataDir, 'quire.db');
  }
  const database = new Sqlite(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  // Waiting for the write lock held by another process (the CLI) blocks this thread, so the
  // wait is capped at 5 s whatever the statement timeout; past it the request answers 503.
  // This process's own background steps hold writes at the gate instead (sqlite-driver.ts).
  database.pragma(`busy_timeout = ${Math.min(timeoutMs, 5000)}`);
  // better-sqlite3 sets 16 MiB per connection; pages beyond the cache come from the OS file cache.
  database.pragma(`cache_size = -${cacheKib}`);
  const statements = new StatementCache(database);
  const gate = new WriteGate(timeoutMs);
  const kysely = new Kysely<Database>({ dialect: gatedSqliteDialect(statements, gate) });
  // A readNow answer serves the other requests of the same event-loop turn (many requests parsed
  // in one poll phase under load each read the workspace revision) unless this connection has
  // written since; it is forgotten at the turn's end (setImmediate). Another process's commit is
  // thus seen from the next turn on: as if the request had arrived a moment earlier.
  // By statement, then by parameters: the statement's text is a constant whose hash V8 keeps, so a
  // lookup hashes only the (short) parameters instead of a new concatenation of both.
  const turnReads = new Map<string, Map<string, { row: Record<string, unknown> | undefined; writes: number }>>();
  const readNow = (sqlText: string, parameters: readonly unknown[]) => {
    if (database.inTransaction) return undefined;
    const key = parameters.length === 1 ? String(parameters[0]) : JSON.stringify(parameters);
    let reads = turnReads.get(sqlText);
    const seen = reads?.get(key);
    if (seen && seen.writes === statements.writes) return { row: seen.row };
    const row = statements.rows(statements.prepare(sqlText), parameters)[0];
    if (turnReads.size === 0) setImmediate(() => turnReads.clear());
    if (reads === undefined) turnReads.set(sqlText, (reads = new Map()));
    reads.set(key, { row, writes: statements.writes });
    return { row };
  };
  const inFile = file !== ':memory:' && !file.startsWith('file::memory:');
  const readers = inFile ? new ReaderPool({ file: path.resolve(file), module: resolveModule(sqliteModule()), size: readerThreads, timeoutMs, cacheKib }) : null;
  const heavyReads = readers ? new Kysely<Database>({ dialect: readerDialect(readers) }) : undefined;
  return {
    kysely,
    dialect: 'sqlite',
    close: async () => {
      await heavyReads?.destroy();
      await kysely.destroy();
    },
    memo: createDbMemo(),
    readNow,
    heavyReads,
    ...(inFile
      ? {
          runLongWrite: (sqlText: string) =>
            gate.hold(() =>
              runOnWorkerThread({ file: path.resolve(file), module: resolveModule(sqliteModule()), sql: sqlText, busyTimeoutMs: LONG_WRITE_LOCK_WAIT_MS }),
            ),
        }
      : {}),
  };
}

/**
 * The pool as Kysely sees it, except that a client whose query met a lost connection (its backend
 * terminated, the server restarting) is discarded when released, and that the SQL of query
 * templates (`statementNames`: text to name) runs as named prepared statements. Kysely releases
 * clients without an error, and node-postgres learns that the socket closed only a moment later,
 * so the pool would otherwise hand the dead client to the next request, failing it too.
 */
function discardingLostClients(pool: import('pg').Pool, statementNames: ReadonlyMap<string, string>): PostgresPool {
  const lost = new WeakSet<object>();
  const watched = new WeakSet<object>();
  return {
    connect: async () => {
      const client = await pool.connect();
      if (!watched.has(client)) {
        watched.add(client);
        const query = client.query.bind(client) as (...args: unknown[]) => unknown;
        (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
          // A query template's statement runs prepared under its name (DbMemo.statementNames).
          const name = typeof args[0] === 'string' && args.length === 2 ? statementNames.get(args[0]) : undefined;
          const result = name ? query({ name, text: args[0], values: args[1] }) : query(...args);
          if (result instanceof Promise) result.catch((err: unknown) => void (isDatabaseUnavailable(err) && lost.add(client)));
          return result;
        };
      }
      const release = client.release;
      client.release = (err?: Error | boolean) => release(err ?? (lost.has(client) ? new Error('connection lost') : undefined));
      return client;
    },
    end: () => pool.end(),
  };
}

/**
 * The PostgreSQL pool. Every statement is bounded by `timeoutMs` (statement_timeout, and
 * idle_in_transaction_session_timeout so a stalled transaction cannot hold its locks), and so is
 * the wait for a free connection; either answers the request 503 (src/db/errors.ts).
 */
async function openPostgres(url: string, options: CreateDbOptions, timeoutMs: number): Promise<Db> {
  const pg = await import('pg');
  const { Pool, types } = pg.default;
  // COUNT(*) and bigint columns come back as strings by default; every such value here fits.
  types.setTypeParser(20, (v: string) => Number(v));
  const pool = new Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    statement_timeout: timeoutMs,
    idle_in_transaction_session_timeout: timeoutMs,
    connectionTimeoutMillis: timeoutMs,
    ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
  });
  // A client losing its server must not crash the process. The pool listens on idle clients
  // ('error' on the pool); a checked-out client has no listener of the pool's, so an 'error' it
  // emits would be unhandled: every client gets one for its whole life. The query under way
  // rejects on its own (the request answers 503, src/db/errors.ts) and the pool drops the
  // broken client when it is released.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  if (options.pgSchema) {
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(options.pgSchema)) throw new Error('invalid schema name');
    const c = await pool.connect();
    try {
      await c.query(`CREATE SCHEMA IF NOT EXISTS "${options.pgSchema}"`);
    } finally {
      c.release();
    }
  }
  const memo = createDbMemo();
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool: discardingLostClients(pool, memo.statementNames) }) });
  const connectDedicated = async () => {
    const client = new pg.default.Client({
      connectionString: url,
      connectionTimeoutMillis: timeoutMs,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    // Like the pool's clients: a lost server must not crash the process (the owner sees the
    // failure on its next query, or through its own 'error' listener).
    client.on('error', () => {});
    await client.connect();
    return client;
  };
  return { kysely, dialect: 'postgres', close: () => kysely.destroy(), memo, connectDedicated };
}
