/** Wire schemas shared by several route files (TypeBox: validation, serialization and OpenAPI). */
import { Type } from '@sinclair/typebox';

export const Uuid = Type.String({ format: 'uuid' });
export const Timestamp = Type.String({ description: 'ISO 8601 UTC with milliseconds' });
export const NullableString = Type.Union([Type.String(), Type.Null()]);
export const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);
/**
 * A JSON-encoded object (D1): `data` of entries, blocks and translations is sent as a string the
 * client parses; `contentMediaType`/`contentSchema` tell OpenAPI readers what the string holds.
 */
export function JsonObjectString(description: string) {
  return Type.String({ description, contentMediaType: 'application/json', contentSchema: { type: 'object' } });
}
export const SlugParam = Type.String({ minLength: 1, maxLength: 200 });

/**
 * `release` of delivery reads (D111): read the workspace as this release will make it (preview
 * keys; production keys 403). The id is checked before the read (404 unknown, 409 published).
 */
export const ReleaseParam = Type.Optional(
  Type.String({ minLength: 1, maxLength: 64, description: 'a release id: read the workspace as that release will make it (preview keys only)' }),
);

/** `page` and `limit` of offset pagination; bounds are checked by offsetPage (PAGE_TOO_DEEP). */
export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
};

export const ImpactLocales = Type.Array(Type.Object({ locale: Type.String(), count: Type.Integer() }));
