/**
 * Wire types derived from the generated OpenAPI types (src/generated/openapi.ts): the JSON body of
 * an operation's success answer, its `data` and `meta`, its query and request body. Deriving by
 * path keeps the hand-written surface in step with the server each time the types are regenerated.
 */
import type { paths } from './generated/openapi.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The operation at `P` with method `M`. */
type Op<P extends keyof paths, M extends Method> = NonNullable<paths[P][M & keyof paths[P]]>;

/** The JSON body of the 200 or 201 answer of an operation. */
export type SuccessBody<P extends keyof paths, M extends Method> =
  Op<P, M> extends { responses: infer R }
    ? R extends { 200: { content: { 'application/json': infer B } } }
      ? B
      : R extends { 201: { content: { 'application/json': infer B } } }
        ? B
        : never
    : never;

/** `data` of the success envelope of an operation. */
export type WireData<P extends keyof paths, M extends Method> = SuccessBody<P, M> extends { data: infer D } ? D : never;

/** `meta` of the success envelope of an operation (list answers). */
export type WireMeta<P extends keyof paths, M extends Method> = SuccessBody<P, M> extends { meta: infer D } ? NonNullable<D> : never;

/** The query parameters of an operation. */
export type WireQuery<P extends keyof paths, M extends Method> = Op<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** The JSON request body of an operation. */
export type WireBody<P extends keyof paths, M extends Method> = Op<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** Pagination `meta` of list answers (docs/api.md "Pagination"): the entry list's, which every list shares. */
export type PageMeta = WireMeta<'/api/v1/public/entries', 'get'>;
