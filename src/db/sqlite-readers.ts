/**
 * Reads that may take long, off the main thread (SQLite only). better-sqlite3 runs a statement
 * synchronously on the calling thread, so one slow query (a delivery list whose filter reads a
 * large part of a big type) would hold up every request of the process meanwhile, cached answers
 * and `/healthz` included. Delivery lists and their counts run instead on worker threads, each
 * with its own read-only connection to the same file: in WAL mode a reader sees every committed
 * write and never waits for the writer, so the main thread keeps serving while they run.
 *
 * Each worker runs one statement at a time; statements wait in one queue for the next free
 * worker. A statement still running after `timeoutMs` fails as busy (the request answers 503, as
 * a PostgreSQL statement timeout does) and its worker is replaced: SQLite cannot be interrupted
 * from another thread here, so the old thread ends when its statement does.
 *
 * Only databases in a file have readers: an in-memory database belongs to its one connection.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import {
  SqliteAdapter,
  SqliteIntrospector,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';
import { SqliteLiteralLimitCompiler } from './sqlite-compiler.js';
import { busyError, rowObjects } from './sqlite-driver.js';

/**
 * The worker: opens the file read-only and answers `{id, sql, params}` with `{columns, rows}` (rows
 * as arrays, built into objects by the main thread: a message of arrays clones no property names
 * per row) or an error.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('cache_size = -' + workerData.cacheKib);
const statements = new Map();
parentPort.postMessage({ ready: true });
parentPort.on('message', ({ id, sql, params }) => {
  try {
    let cached = statements.get(sql);
    if (!cached) {
      const stmt = db.prepare(sql);
      if (!stmt.reader) throw new Error('only reads run on a reader');
      cached = { stmt: stmt.raw(true), columns: stmt.columns().map((c) => c.name) };
      if (statements.size >= 200) statements.delete(statements.keys().next().value);
      statements.set(sql, cached);
    }
    parentPort.postMessage({ id, columns: cached.columns, rows: cached.stmt.all(params) });
  } catch (err) {
    parentPort.postMessage({ id, error: { message: err.message, code: err.code } });
  }
});
`;

interface Job {
  id: number;
  sql: string;
  params: readonly unknown[];
  resolve(rows: unknown[]): void;
  reject(err: Error): void;
}

interface Reader {
  worker: Worker;
  /** False until the worker has opened its connection. */
  ready: boolean;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

export interface ReaderPoolOptions {
  /** The database file (opened read-only by each worker). */
  file: string;
  /** Resolved path of the better-sqlite3 module the main thread uses. */
  module: string;
  size: number;
  /** Longest a statement may run before it fails as busy. */
  timeoutMs: number;
  /** Page cache of each worker's connection, in KiB. */
  cacheKib: number;
}

/** Worker threads reading the database file; started on first use, ended by close(). */
export class ReaderPool {
  readonly #readers: Reader[] = [];
  readonly #queue: Job[] = [];
  #nextId = 1;
  #closed = false;

  constructor(private readonly options: ReaderPoolOptions) {}

  /** Rows of one read statement (`sql` with `params`), run on a worker. */
  all(sql: string, params: readonly unknown[]): Promise<unknown[]> {
    if (this.#closed) return Promise.reject(new Error('the database is closed'));
    return new Promise((resolve, reject) => {
      this.#queue.push({ id: this.#nextId++, sql, params, resolve, reject });
      this.#dispatch();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) job.reject(new Error('the database is closed'));
    await Promise.all(this.#readers.splice(0).map((r) => this.#retire(r, new Error('the database is closed'))));
  }

  #dispatch(): void {
    while (this.#queue.length > 0) {
      const reader = this.#readers.find((r) => r.ready && r.job === null);
      if (!reader) {
        // Statements wait for a worker that has opened its connection, so the time a worker
        // takes to start counts against none of them.
        if (this.#readers.length < this.options.size && this.#readers.every((r) => r.ready)) this.#spawn();
        return;
      }
      const job = this.#queue.shift()!;
      reader.job = job;
      reader.worker.ref();
      reader.timer = setTimeout(() => {
        void this.#retire(reader, busyError(`a read ran past ${this.options.timeoutMs} ms and was abandoned`));
        this.#dispatch();
      }, this.options.timeoutMs);
      reader.worker.postMessage({ id: job.id, sql: job.sql, params: job.params });
    }
  }

  #spawn(): Reader {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { file: this.options.file, module: this.options.module, cacheKib: this.options.cacheKib },
    });
    const reader: Reader = { worker, ready: false, job: null, timer: null };
    worker.unref();
    worker.on('message', (msg: { ready?: true; id: number; columns?: string[]; rows?: unknown[][]; error?: { message: string; code?: string } }) => {
      if (msg.ready) {
        reader.ready = true;
        this.#dispatch();
        return;
      }
      const job = reader.job;
      if (!job || job.id !== msg.id) return;
      this.#settle(reader);
      if (msg.error) job.reject(Object.assign(new Error(msg.error.message), msg.error.code ? { code: msg.error.code } : {}));
      else job.resolve(rowObjects(msg.columns ?? [], msg.rows ?? []));
      this.#dispatch();
    });
    // A worker that dies fails its statement, and the next statement gets a new worker. One
    // that cannot open the database (the file is gone) fails every waiting statement instead of
    // being started again and again for them.
    worker.on('error', (err) => {
      const starting = !reader.ready;
      void this.#retire(reader, err);
      if (starting) for (const job of this.#queue.splice(0)) job.reject(err);
      this.#dispatch();
    });
    worker.on('exit', () => {
      if (this.#readers.includes(reader)) {
        void this.#retire(reader, new Error('a database reader stopped'));
        this.#dispatch();
      }
    });
    this.#readers.push(reader);
    return reader;
  }

  #settle(reader: Reader): void {
    if (reader.timer) clearTimeout(reader.timer);
    reader.timer = null;
    reader.job = null;
    reader.worker.unref();
  }

  async #retire(reader: Reader, err: Error): Promise<void> {
    const job = reader.job;
    this.#settle(reader);
    const at = this.#readers.indexOf(reader);
    if (at >= 0) this.#readers.splice(at, 1);
    job?.reject(err);
    await reader.worker.terminate().catch(() => {});
  }
}

class ReaderConnection implements DatabaseConnection {
  constructor(private readonly pool: ReaderPool) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return { rows: (await this.pool.all(query.sql, query.parameters)) as R[] };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery(): AsyncIterableIterator<QueryResult<never>> {
    throw new Error('streaming is not used with SQLite');
  }
}

class ReaderDriver implements Driver {
  constructor(private readonly pool: ReaderPool) {}
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return new ReaderConnection(this.pool);
  }
  async beginTransaction(): Promise<void> {
    throw new Error('readers do not run transactions');
  }
  async commitTransaction(): Promise<void> {}
  async rollbackTransaction(): Promise<void> {}
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {
    await this.pool.close();
  }
}

/** The Kysely dialect reading through `pool`. */
export function readerDialect(pool: ReaderPool): Dialect {
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new ReaderDriver(pool),
    createIntrospector: (db: Kysely<unknown>) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteLiteralLimitCompiler(),
  };
}

/** Resolved path of a package as the main thread loads it, for a worker to load the same build. */
export function resolveModule(name: string): string {
  return createRequire(import.meta.url).resolve(name);
}
