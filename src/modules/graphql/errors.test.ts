/** GraphQL errors of what resolvers throw (docs/graphql.md "Errors"): codes, details, masking. */
import { GraphQLError } from 'graphql';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { AppError, invalid } from '../../errors.js';
import { readFileSync } from 'node:fs';
import { GRAPHQL_ERROR_CODES, INTERNAL_MESSAGE, toGraphqlError } from './errors.js';

function recordingLog() {
  const lines: string[] = [];
  const log = pino({ level: 'error' }, { write: (line: string) => lines.push(line) });
  return { log, lines };
}

describe('toGraphqlError', () => {
  it('turns a REST 400 into BAD_USER_INPUT with the argument paths, and keeps other client codes', () => {
    const { log } = recordingLog();
    const bad = toGraphqlError(invalid('query.locale', "'fr' is not a locale"), log);
    expect(bad.message).toBe("locale: 'fr' is not a locale");
    expect(bad.extensions).toEqual({ code: 'BAD_USER_INPUT', errors: [{ path: 'locale', message: "'fr' is not a locale" }] });
    expect(toGraphqlError(new AppError('PAGE_TOO_DEEP', 'too deep'), log).extensions.code).toBe('BAD_USER_INPUT');
    expect(toGraphqlError(new AppError('FORBIDDEN', 'outside the whitelist'), log).extensions).toEqual({ code: 'FORBIDDEN' });
  });

  it('masks anything unexpected (no message, stack or SQL) and logs it', () => {
    const { log, lines } = recordingLog();
    const err = toGraphqlError(new Error('select * from "entries" failed: relation does not exist'), log);
    expect(err.message).toBe(INTERNAL_MESSAGE);
    expect(err.extensions).toEqual({ code: 'INTERNAL_SERVER_ERROR' });
    expect(JSON.stringify(err.toJSON())).not.toMatch(/select|entries|stack/);
    expect(lines.join('')).toContain('relation does not exist');
    // A 5xx AppError is as unexpected; a GraphQLError wrapping one is unwrapped and masked too.
    expect(toGraphqlError(new AppError('INTERNAL_ERROR', 'boom'), log).message).toBe(INTERNAL_MESSAGE);
    const wrapped = toGraphqlError(new GraphQLError('x', { originalError: new Error('secret'), path: ['post'] }), log);
    expect(wrapped.message).toBe(INTERNAL_MESSAGE);
    expect(wrapped.path).toEqual(['post']);
  });
});

describe('GRAPHQL_ERROR_CODES', () => {
  it('lists codes docs/graphql.md "Errors" documents, each once', () => {
    const doc = readFileSync(new URL('../../../docs/graphql.md', import.meta.url), 'utf8');
    const errors = doc.slice(doc.indexOf('## Errors'), doc.indexOf('\n## ', doc.indexOf('## Errors') + 3));
    for (const code of GRAPHQL_ERROR_CODES) expect(errors, code).toContain(`\`${code}\``);
    expect(new Set(GRAPHQL_ERROR_CODES).size).toBe(GRAPHQL_ERROR_CODES.length);
  });
});
