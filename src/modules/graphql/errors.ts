/**
 * Errors of GraphQL answers (docs/graphql.md "Errors", D100, D103): every error carries
 * `extensions.code`. What an operation throws becomes a GraphQL error here: a bad argument value
 * (400 VALIDATION_FAILED or PAGE_TOO_DEEP of the REST rules: locale, cursor, filter, order, page
 * size) → `BAD_USER_INPUT` with the details in `extensions.errors`; a type outside the key's
 * whitelist → `FORBIDDEN`; any other client error keeps its REST code; a request GraphQL could not
 * run for a reason of its own without a code (no query, variables that are not JSON or not of
 * their type) → `BAD_REQUEST`; anything else is logged and answered as `INTERNAL_SERVER_ERROR`
 * with a fixed message (no stack, no SQL).
 */
import { GraphQLError } from 'graphql';
import type { Logger } from 'pino';
import { AppError } from '../../errors.js';

/**
 * The codes only GraphQL answers carry (docs/graphql.md "Errors" lists each with its status); a
 * GraphQL answer's other codes are the REST registry's (ERROR_CODES in src/errors.ts:
 * UNAUTHORIZED, FORBIDDEN, METHOD_NOT_ALLOWED, RATE_LIMITED, VALIDATION_FAILED…).
 */
export const GRAPHQL_ERROR_CODES = [
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_REQUEST',
  'QUERY_TOO_COMPLEX',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_MISMATCH',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'BAD_USER_INPUT',
  'INTERNAL_SERVER_ERROR',
] as const;

/** The message shown for an unexpected error. */
export const INTERNAL_MESSAGE = 'Unexpected error.';

/** A REST parameter path (`query.locale`, `query.filter[title]`) as the argument it came from (`locale`, …). */
function argumentPath(path: string): string {
  return path.startsWith('query.') ? path.slice('query.'.length) : path;
}

/** A GraphQL error with `extensions.code` for anything a resolver threw (see above). */
export function toGraphqlError(err: unknown, log: Logger): GraphQLError {
  if (err instanceof GraphQLError) {
    if (err.originalError && !(err.originalError instanceof GraphQLError)) {
      const inner = toGraphqlError(err.originalError, log);
      return new GraphQLError(inner.message, { nodes: err.nodes, source: err.source, positions: err.positions, path: err.path, extensions: inner.extensions });
    }
    if (typeof err.extensions.code === 'string') return err;
    // Yoga's own request errors (no query, variables that are not JSON) and graphql-js's request
    // errors (a variable of the wrong type) carry no code: they are the request's fault.
    const http = err.extensions.http as { status?: number } | undefined;
    const request = err.path === undefined || (http?.status !== undefined && http.status >= 400 && http.status < 500);
    return new GraphQLError(err.message, {
      nodes: err.nodes,
      source: err.source,
      positions: err.positions,
      path: err.path,
      originalError: err.originalError,
      extensions: { ...err.extensions, code: request ? 'BAD_REQUEST' : 'INTERNAL_SERVER_ERROR' },
    });
  }
  if (err instanceof AppError && err.status < 500) {
    if (err.code === 'VALIDATION_FAILED' || err.code === 'PAGE_TOO_DEEP') {
      const errors = (err.errors ?? []).map((e) => ({ path: argumentPath(e.path), message: e.message }));
      const message = errors.length > 0 ? errors.map((e) => `${e.path}: ${e.message}`).join('; ') : err.message;
      return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', errors } });
    }
    return new GraphQLError(err.message, { extensions: { code: err.code } });
  }
  log.error({ err }, 'GraphQL resolver failed');
  return new GraphQLError(INTERNAL_MESSAGE, { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
}

/** A `BAD_USER_INPUT` error about argument `path`. */
export function badInput(path: string, message: string): GraphQLError {
  return new GraphQLError(`${path}: ${message}`, { extensions: { code: 'BAD_USER_INPUT', errors: [{ path, message }] } });
}
