/**
 * The response envelope (docs/api.md "The envelope"): success payloads and its TypeBox schema builders.
 * Errors are shaped by the error handler (src/http/error-handler.ts), never here.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { SourceMapSchema } from './schemas/source-map.js';

export interface Envelope<T, M = unknown> {
  success: true;
  message: 'Success';
  data: T;
  meta: M | null;
}

/** A success envelope; `meta` is null unless the response is a list. */
export function ok<T, M = unknown>(data: T, meta: M | null = null): Envelope<T, M> {
  return { success: true, message: 'Success', data, meta };
}

/** Pagination meta of list responses (docs/api.md "Pagination"). */
export const PageMeta = Type.Object(
  {
    total_data: Type.Optional(Type.Integer()),
    total_is_exact: Type.Optional(
      Type.Boolean({ description: 'false when total_data is a lower bound (filtered delivery lists count at most 1,000 entries past the page)' }),
    ),
    current_page: Type.Optional(Type.Integer()),
    page_size: Type.Integer(),
    total_pages: Type.Optional(Type.Integer()),
    next_cursor: Type.Union([Type.String(), Type.Null()]),
    locale_requested: Type.Optional(Type.String()),
    source_map: Type.Optional(SourceMapSchema),
  },
  { title: 'PageMeta' },
);

/** Response schema of a success envelope around `data` (`meta` null unless a schema is given). */
export function EnvelopeOf(data: TSchema, meta?: TSchema) {
  return Type.Object({
    success: Type.Literal(true),
    message: Type.String(),
    data,
    meta: meta ? Type.Union([meta, Type.Null()]) : Type.Null(),
  });
}

/** Response schema of writes that return nothing (`data` null). */
export const EmptyEnvelope = EnvelopeOf(Type.Null());
