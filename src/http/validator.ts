/**
 * Ajv setup. Bodies are validated strictly (no coercion, unknown keys rejected: DECISIONS.md
 * "unknown or mistyped body key" is a 400); query strings, params and headers are coerced from
 * text, since that is all a URL can carry.
 */
import type { FastifySchemaCompiler } from 'fastify';
import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv-formats ships CommonJS with a default export; under NodeNext it arrives wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

const base: Options = { allErrors: false, strict: false, useDefaults: true, removeAdditional: false };
const bodyAjv = addFormats(new Ajv({ ...base, coerceTypes: false }));
const queryAjv = addFormats(new Ajv({ ...base, coerceTypes: 'array' }));

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : queryAjv;
  return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
};
