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

/** True when `err` says the database connection is lost or the server cannot be reached. */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (PG_UNAVAILABLE.test(code) || SOCKET_CODES.has(code))) return true;
  // node-postgres reports a socket closed under a query with this message and no code.
  return /^Connection terminated( unexpectedly)?$/.test(err.message) || err.message === 'Client has encountered a connection error and is not queryable';
}
