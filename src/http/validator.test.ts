/**
 * The route schema compilers (src/http/validator.ts) compile on a route's first request, not at
 * start, and then check and serialize exactly as compiled eagerly: Ajv's answers and `errors`,
 * fast-json-stringify's output.
 */
import type { FastifySchemaCompiler } from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazySerializerFactory, validatorCompiler } from './validator.js';

type RouteSchema = Parameters<FastifySchemaCompiler<unknown>>[0];
const route = (schema: object, httpPart: string): RouteSchema => ({ schema, httpPart, method: 'POST', url: '/x' });

describe('route schema compilers', () => {
  it('validate like Ajv: bodies strictly, query strings coerced, the last failures in errors', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'], additionalProperties: false };
    const body = validatorCompiler(route(schema, 'body')) as ((data: unknown) => boolean) & { errors?: unknown[] | null };
    expect(body({ n: 1 })).toBe(true);
    expect(body.errors).toBeNull();
    expect(body({ n: '1' })).toBe(false);
    expect(body.errors?.[0]).toMatchObject({ instancePath: '/n', keyword: 'type' });
    expect(body({ n: 2 })).toBe(true);
    expect(body.errors).toBeNull();
    const query = validatorCompiler(route(schema, 'querystring')) as (data: unknown) => boolean;
    const input = { n: '3' };
    expect(query(input)).toBe(true);
    expect(input).toEqual({ n: 3 });
  });

  it('compile nothing until the first call', () => {
    // An uncompilable schema passes route registration; its first request is where it fails.
    const validate = validatorCompiler(route({ type: 'no-such-type' }, 'body')) as (data: unknown) => boolean;
    expect(() => validate({})).toThrow(/type/);
    const serialize = lazySerializerFactory(undefined, {})({ schema: { type: 'no-such-type' }, method: 'GET', url: '/x', httpStatus: '200' });
    expect(() => serialize({})).toThrow();
  });

  it('serialize as fast-json-stringify does: declared properties only', () => {
    const schema = { type: 'object', properties: { id: { type: 'string' }, n: { type: 'integer' } } };
    const serialize = lazySerializerFactory(undefined, {})({ schema, method: 'GET', url: '/x', httpStatus: '200' });
    expect(serialize({ id: 'a', n: 2, secret: 'x' })).toBe('{"id":"a","n":2}');
    expect(serialize({ id: 'b', n: 3 })).toBe('{"id":"b","n":3}');
  });
});
