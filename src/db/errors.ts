/**
 * Which database errors mean "the database is out of reach", as opposed to a bad query: the
 * connection was lost (a failover, a restart, an administrator terminating the backend) or the
 * server is starting or shutting down. Such an error fails the one request that met it with 503
 * SERVICE_UNAVAILABLE and `Retry-After` (src/http/error-handler.ts); nothing was committed, so a
 * client may retry, and the pool replaces the connection.
 */

/** PostgreSQL SQLSTATEs of a lost or refused connection: class 08 and the 57P0x shutdowns. */
const PG_UNAVAILABLE = /^(08\d{3}|57P0[1-4])$/;

/** Node.js socket errors of a lost or unreachable server. */
const SOCKET_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * PostgreSQL SQLSTATEs of a server that is there but cannot take the statement now: statement
 * timeout (57014, DB_STATEMENT_TIMEOUT_MS), too many connections (53300), out of memory (53200).
 */
const PG_BUSY = new Set(['57014', '53300', '53200']);
/** Storage exhausted: PostgreSQL disk_full (53100), SQLite's SQLITE_FULL, a full filesystem. */
const STORAGE_FULL = new Set(['53100', 'SQLITE_FULL', 'ENOSPC', 'EDQUOT']);
/** SQLite's write lock held past busy_timeout by another process (the CLI, another instance). */
const SQLITE_BUSY = /^SQLITE_(BUSY|LOCKED)(_|$)/;

/** True when `err` says the database connection is lost or the server cannot be reached. */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (PG_UNAVAILABLE.test(code) || SOCKET_CODES.has(code))) return true;
  // node-postgres reports a socket closed under a query with this message and no code.
  return /^Connection terminated( unexpectedly)?$/.test(err.message) || err.message === 'Client has encountered a connection error and is not queryable';
}

/**
 * What a storage error means for the client, or null for any other error:
 * - `unavailable`: the database is out of reach (above): 503 with Retry-After;
 * - `busy`: it is there but cannot take this statement now (a statement timeout, no free
 *   connection within the wait, SQLite's write lock held elsewhere): 503 with Retry-After;
 * - `full`: the database or the media folder has no space left: 507 INSUFFICIENT_STORAGE.
 * In every case the transaction rolled back, so nothing of the request was written.
 */
export function storageFault(err: unknown): 'unavailable' | 'busy' | 'full' | null {
  if (!(err instanceof Error)) return null;
  if (isDatabaseUnavailable(err)) return 'unavailable';
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (STORAGE_FULL.has(code)) return 'full';
    if (PG_BUSY.has(code) || SQLITE_BUSY.test(code)) return 'busy';
  }
  // node-postgres's pool, when no connection frees up within connectionTimeoutMillis.
  if (/^timeout exceeded when trying to connect$/i.test(err.message)) return 'busy';
  return null;
}

/**
 * True when `err` is a unique violation of an index backing an `is_unique` field (entries_uq_*):
 * PostgreSQL 23505 naming the index as its constraint, SQLite's "UNIQUE constraint failed: index
 * '<name>'" for expression indexes. The write rolled back; the client gets 409 UNIQUE_VIOLATION.
 */
export function isUniqueFieldViolation(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const e = err as { code?: unknown; constraint?: unknown };
  if (e.code === '23505') return typeof e.constraint === 'string' && e.constraint.startsWith('entries_uq_');
  return typeof e.code === 'string' && e.code.startsWith('SQLITE_CONSTRAINT') && /UNIQUE constraint failed: index 'entries_uq_/.test(err.message);
}
