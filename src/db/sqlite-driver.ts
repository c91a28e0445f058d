/**
 * Kysely's driver for the embedded SQLite database, with a write gate. better-sqlite3 runs every
 * statement synchronously on the calling thread, so a statement that waits for the write lock
 * (busy_timeout) stops the whole process meanwhile: every request, health checks included. While
 * this process builds an index in the background (a worker thread holding the write lock,
 * src/modules/content-types/index-builds.ts), writes therefore wait here, asynchronously, at the
 * gate, and never reach the lock: reads, cached answers and `/healthz` carry on.
 *
 * Kysely's own SqliteDriver serializes every query of the single connection behind one mutex, so
 * a write waiting in it would hold up every read too. Here the mutex keeps transactions exclusive
 * (a query outside a transaction must not run inside another flow's open transaction and see its
 * uncommitted rows), and a write waits at the gate before it takes the mutex: a transaction at
 * `begin`, a statement outside a transaction when it is not a read.
 *
 * Statements are prepared once per SQL text (Kysely would prepare every query anew, which costs
 * more than running most of ours), and Kysely's deferred `begin` runs as `begin immediate`:
 * Quire's transactions write, and a deferred one that reads first cannot wait for another
 * connection's write lock (SQLite answers SQLITE_BUSY at once when its snapshot went stale), while
 * `begin immediate` takes the lock up front, so busy_timeout applies and writers queue.
 */
import { CompiledQuery, SqliteAdapter, SqliteIntrospector, type DatabaseConnection, type Dialect, type Driver, type Kysely, type QueryResult } from 'kysely';
import { SqliteLiteralLimitCompiler } from './sqlite-compiler.js';

type SqliteHandle = import('better-sqlite3').Database;
type SqliteStatement = ReturnType<SqliteHandle['prepare']>;

/** Statements kept per connection; the SQL of Quire's queries is a small, fixed set. */
const STATEMENT_CACHE_SIZE = 500;

/** An error read as "the database is busy" (src/db/errors.ts): the request answers 503, nothing written. */
export function busyError(message: string): Error {
  return Object.assign(new Error(message), { code: 'SQLITE_BUSY' });
}

/**
 * Writes of this process wait here while a background step holds the database's write lock.
 * `hold` closes it for the duration of `fn`; `pass` resolves once it is open, or fails as busy
 * after `timeoutMs` (the request answers 503, as when another process holds the lock).
 */
export class WriteGate {
  #closed: Promise<void> | null = null;

  constructor(private readonly timeoutMs: number) {}

  /** True while a background step holds the write lock. */
  get closed(): boolean {
    return this.#closed !== null;
  }

  async hold<T>(fn: () => Promise<T>): Promise<T> {
    while (this.#closed) await this.#closed;
    let open!: () => void;
    this.#closed = new Promise((resolve) => (open = resolve));
    try {
      return await fn();
    } finally {
      this.#closed = null;
      open();
    }
  }

  async pass(): Promise<void> {
    if (!this.#closed) return;
    const deadline = Date.now() + this.timeoutMs;
    while (this.#closed) {
      const left = deadline - Date.now();
      if (left <= 0) throw busyError('database is locked: an index is being built; retry shortly');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.#closed, new Promise((resolve) => (timer = setTimeout(resolve, left)))]);
      clearTimeout(timer);
    }
  }
}

/** One waiter at a time, first come first served. */
class Mutex {
  #tail: Promise<void> = Promise.resolve();
  #held = false;

  get held(): boolean {
    return this.#held;
  }

  /** Resolves with the function that releases the mutex. */
  async lock(): Promise<() => void> {
    const previous = this.#tail;
    let release!: () => void;
    this.#tail = new Promise((resolve) => (release = resolve));
    await previous;
    this.#held = true;
    return () => {
      this.#held = false;
      release();
    };
  }
}

/** A prepared statement; a reader's rows are read as arrays and built into objects by `rows`. */
interface CachedStatement {
  stmt: SqliteStatement;
  /** A reader's column names (null for any other statement). */
  columns: string[] | null;
}

/**
 * better-sqlite3 with its prepared statements cached by SQL text.
 *
 * Readers run in raw mode (rows as arrays) and their objects are built here: better-sqlite3 builds
 * each row object property by property through V8's API, which cost 545–650 µs for 60 delivery
 * rows of 15 columns against 340–430 µs raw plus this loop (the GraphQL mega menu's relation read).
 */
export class StatementCache {
  readonly #cache = new Map<string, CachedStatement>();
  /** Statements run that may have changed the database (every non-reader one, `commit` included). */
  writes = 0;

  constructor(readonly database: SqliteHandle) {}

  prepare(sqlText: string): CachedStatement {
    let cached = this.#cache.get(sqlText);
    if (!cached) {
      const stmt = this.database.prepare(sqlText === 'begin' ? 'begin immediate' : sqlText);
      const columns = stmt.reader ? stmt.columns().map((c) => c.name) : null;
      if (columns) stmt.raw(true);
      cached = { stmt, columns };
      if (this.#cache.size >= STATEMENT_CACHE_SIZE) this.#cache.delete(this.#cache.keys().next().value as string);
      this.#cache.set(sqlText, cached);
    }
    return cached;
  }

  /** Every row a reader statement returns, as objects keyed by column name (a later duplicate name wins). */
  rows(cached: CachedStatement, parameters: readonly unknown[]): Record<string, unknown>[] {
    const columns = cached.columns;
    if (!columns) throw new Error('rows() runs reads only');
    return rowObjects(columns, cached.stmt.all(parameters) as unknown[][]);
  }

  close(): void {
    this.#cache.clear();
    this.database.close();
  }
}

/** Rows read raw (arrays in `columns` order) as objects keyed by column name; a later duplicate name wins, as in better-sqlite3. */
export function rowObjects(columns: readonly string[], raw: readonly (readonly unknown[])[]): Record<string, unknown>[] {
  const out = new Array<Record<string, unknown>>(raw.length);
  for (let r = 0; r < raw.length; r++) {
    const values = raw[r];
    const row: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) row[columns[i]] = values[i];
    out[r] = row;
  }
  return out;
}

function run(statements: StatementCache, query: CompiledQuery): QueryResult<unknown> {
  const cached = statements.prepare(query.sql);
  if (cached.columns) return { rows: statements.rows(cached, query.parameters) };
  statements.writes++;
  const { changes, lastInsertRowid } = cached.stmt.run(query.parameters);
  return {
    numAffectedRows: changes === undefined || changes === null ? undefined : BigInt(changes),
    insertId: lastInsertRowid === undefined || lastInsertRowid === null ? undefined : BigInt(lastInsertRowid),
    rows: [],
  };
}

/**
 * Longest a transaction runs statements without letting the event loop in, in ms. better-sqlite3
 * runs each statement synchronously and a transaction's statements follow each other in
 * microtasks, so a long transaction (a release of 1,000 items, a restore) would hold every other
 * request for its whole length. Past this slice the next statement waits for one turn of the event
 * loop (setImmediate): requests that need no query of this connection (cached answers, whose
 * revision check then reads through a reader thread: readWorkspaceRevision) and reads on reader
 * threads are served meanwhile. Other statements on this connection still wait for the
 * transaction to end (the mutex), so nobody reads its uncommitted rows.
 */
// 4 ms rather than 8: during a 1,000-item release publication (~300 ms) 8 delivery readers' p99
// fell from 49–55 ms to 39–47 ms, the publication staying at ~300 ms (npm run bench:releases).
export const TRANSACTION_SLICE_MS = 4;

/** One acquisition of the connection: inside a transaction once `begin` ran on it. */
class GatedConnection implements DatabaseConnection {
  /** Set while this acquisition holds a transaction (and the mutex). */
  release: (() => void) | null = null;
  /** When the transaction last let the event loop in (performance.now()). */
  sliceStart = 0;

  constructor(
    private readonly statements: StatementCache,
    private readonly mutex: Mutex,
    private readonly gate: WriteGate,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.release) {
      if (performance.now() - this.sliceStart > TRANSACTION_SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        this.sliceStart = performance.now();
      }
      return run(this.statements, query) as QueryResult<R>;
    }
    if (!this.statements.prepare(query.sql).columns) await this.gate.pass();
    // Outside a transaction a statement needs the connection only while it runs, which is
    // synchronous: it just waits for another flow's open transaction to end.
    if (!this.mutex.held) return run(this.statements, query) as QueryResult<R>;
    const release = await this.mutex.lock();
    try {
      return run(this.statements, query) as QueryResult<R>;
    } finally {
      release();
    }
  }

  // eslint-disable-next-line require-yield
  async *streamQuery(): AsyncIterableIterator<QueryResult<never>> {
    throw new Error('streaming is not used with SQLite');
  }
}

class GatedSqliteDriver implements Driver {
  readonly #mutex = new Mutex();

  constructor(
    private readonly statements: StatementCache,
    private readonly gate: WriteGate,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new GatedConnection(this.statements, this.#mutex, this.gate);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const conn = connection as GatedConnection;
    await this.gate.pass();
    conn.release = await this.#mutex.lock();
    conn.sliceStart = performance.now();
    try {
      run(this.statements, CompiledQuery.raw('begin'));
    } catch (err) {
      conn.release();
      conn.release = null;
      throw err;
    }
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
    this.#end(connection as GatedConnection);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await connection.executeQuery(CompiledQuery.raw('rollback'));
    } finally {
      this.#end(connection as GatedConnection);
    }
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint "${name}"`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to "${name}"`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release "${name}"`));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    // A commit that failed leaves the transaction to Kysely's rollback; anything else ends here.
    this.#end(connection as GatedConnection);
  }

  async destroy(): Promise<void> {
    this.statements.close();
  }

  #end(conn: GatedConnection): void {
    const release = conn.release;
    conn.release = null;
    release?.();
  }
}

/** The Kysely dialect of the main SQLite connection (see the module comment). */
export function gatedSqliteDialect(statements: StatementCache, gate: WriteGate): Dialect {
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new GatedSqliteDriver(statements, gate),
    createIntrospector: (db: Kysely<unknown>) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteLiteralLimitCompiler(),
  };
}
