/**
 * Route schema compilers. Ajv setup: bodies are validated strictly (no coercion, unknown keys
 * rejected: docs/api.md "Wire format": an unknown or mistyped body key is a 400); query strings, params and
 * headers are coerced from text, since that is all a URL can carry. Responses with a schema are
 * serialized by fast-json-stringify, as Fastify does by default.
 *
 * Both compile a route's schema on the route's first request rather than at start: a process
 * serving delivery answers uses a handful of the API's routes, and compiling every validator and
 * serializer of both APIs at start held about 6 MiB of JavaScript heap (measured on a ready
 * server, docs/scaling.md "Memory"). The compiled function is kept, so only a route's first
 * request pays (about a millisecond for the largest schemas), and what a request is checked and
 * serialized against is unchanged.
 */
import type { FastifySchemaCompiler } from 'fastify';
import { Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';

// ajv-formats ships CommonJS with a default export; under NodeNext it arrives wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

const base: Options = { allErrors: false, strict: false, useDefaults: true, removeAdditional: false };
const bodyAjv = addFormats(new Ajv({ ...base, coerceTypes: false }));
const queryAjv = addFormats(new Ajv({ ...base, coerceTypes: 'array' }));

/**
 * Validates a request part against its schema, compiled on first use. Like an Ajv function it
 * returns true or false and leaves the failures of its last call in `errors` (Fastify reads them).
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : queryAjv;
  let compiled: ValidateFunction | undefined;
  const validate = Object.assign(
    (data: unknown): boolean => {
      compiled ??= ajv.compile(schema as object);
      const valid = compiled(data);
      validate.errors = compiled.errors;
      return valid;
    },
    { errors: null as ValidateFunction['errors'] },
  );
  return validate;
};

type SerializerFactory = ReturnType<typeof SerializerSelector>;

/**
 * Fastify's default serializer factory (@fastify/fast-json-stringify-compiler) with each route's
 * serializer compiled on its first response; for `schemaController.compilersFactory`.
 */
export const lazySerializerFactory: SerializerFactory = (externalSchemas, options) => {
  const compile = SerializerSelector()(externalSchemas, options);
  return (route) => {
    let serialize: ((doc: unknown) => string) | undefined;
    return (doc: unknown) => (serialize ??= compile(route))(doc);
  };
};
