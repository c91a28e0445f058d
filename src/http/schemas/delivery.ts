/**
 * Wire schemas of the delivery API (docs/api.md "Delivery API", "Wire format" (D1, D6),
 * "Localization" (D40), "The `fields` parameter" (D41), "Delivery API" (D42), "Sorting" (D43),
 * "Pagination" (D44), "Preview tokens" (D46); docs/pages.md "Translations and localization" (D45))
 * and of
 * preview tokens. Query strings are closed (unknown parameters answer 400) except for
 * `filter[...]` keys on the entry list (D43). Response schemas let fast-json-stringify serialize.
 */
import { Type } from '@sinclair/typebox';
import { JsonObjectString, NullableString, NullableTimestamp, ReleaseParam, Timestamp, Uuid } from './common.js';
import { EntrySchema, EntryTranslationSchema } from './entries.js';
import { PageDetailSchema } from './pages.js';
import { TraceQuery } from './source-map.js';

const Locale = Type.String({ minLength: 2, maxLength: 10, description: 'a locale of the workspace (2 to 10 characters)' });
const Fields = Type.String({ maxLength: 4000, description: 'comma-separated field names; <rich>_html, <rich>_text, <relation>.<field>' });
const TypeSlug = Type.String({ minLength: 1, maxLength: 200, description: 'content type slug' });

/** GET /entries query: `filter[<field>]` / `filter[<field>][<op>]` keys are matched by pattern. */
export const ListEntriesQuery = Type.Object(
  {
    type: TypeSlug,
    locale: Type.Optional(Locale),
    fields: Type.Optional(Fields),
    page: Type.Optional(Type.Integer({ minimum: 1, description: 'at most 1000 (400 PAGE_TOO_DEEP above); ignored with cursor' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    sort: Type.Optional(Type.String({ maxLength: 100, description: '<field>:asc or <field>:desc' })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'meta.next_cursor of the previous page' })),
    release: ReleaseParam,
    ...TraceQuery,
  },
  { additionalProperties: false, patternProperties: { '^filter\\[': Type.String({ maxLength: 4000 }) } },
);

export const EntryDetailQuery = Type.Object(
  { type: Type.Optional(TypeSlug), locale: Type.Optional(Locale), fields: Type.Optional(Fields), release: ReleaseParam, ...TraceQuery },
  { additionalProperties: false },
);

export const EntrySlugParams = Type.Object({ entrySlug: Type.String({ minLength: 1, maxLength: 200 }) });

/** A delivered entry: locale-resolved `data` as a JSON string, no translations (D1, D6). */
export const DeliveryEntrySchema = Type.Object(
  {
    id: Uuid,
    content_type_id: Uuid,
    workspace_id: Uuid,
    slug: Type.String(),
    status: Type.String(),
    data: JsonObjectString('JSON-encoded object of the locale-resolved field values, relations resolved (parse it: D1)'),
    position: Type.Integer(),
    publish_at: NullableTimestamp,
    published_at: NullableTimestamp,
    created_at: Timestamp,
    updated_at: Timestamp,
    created_by: Type.Union([Type.Integer(), Type.Null()]),
    updated_by: Type.Union([Type.Integer(), Type.Null()]),
    is_fallback: Type.Optional(Type.Boolean()),
  },
  { title: 'DeliveryEntry' },
);

export const EntryDetailSchema = Type.Object(
  { entry: DeliveryEntrySchema, is_fallback: Type.Boolean(), locale_requested: Type.String() },
  { title: 'DeliveryEntryDetail' },
);

export const DeliverySchemaDocument = Type.Object(
  {
    content_types: Type.Array(
      Type.Object({
        id: Uuid,
        slug: Type.String(),
        name: Type.String(),
        is_block: Type.Boolean(),
        orderable: Type.Boolean({ description: 'entries in a manual order: sort=position applies' }),
        display_field: NullableString,
        fields: Type.Array(
          Type.Object({
            name: Type.String(),
            type: Type.String(),
            localizable: Type.Boolean(),
            required: Type.Boolean(),
            unique: Type.Boolean(),
            filterable: Type.Boolean({ description: 'filter[name] applies on delivery lists' }),
            sortable: Type.Boolean({ description: 'sort=name:asc|desc applies on delivery lists' }),
            options: Type.Array(Type.String()),
          }),
        ),
      }),
    ),
    workspace: Type.Object({ name: Type.String(), slug: Type.String(), default_locale: Type.String(), locales: Type.Array(Type.String()) }),
  },
  { title: 'DeliverySchema' },
);

export const PreviewQuery = Type.Object({ token: Type.String({ minLength: 1, maxLength: 4096 }), ...TraceQuery }, { additionalProperties: false });

/** The entry a preview token names, in the management shape (D6), and its translations. */
export const EntryPreviewSchema = Type.Object({ entry: EntrySchema, translations: Type.Array(EntryTranslationSchema) }, { title: 'Preview' });

/**
 * GET /preview's `data`: the entry (docs/api.md "GET /api/v1/public/preview") or, for a page token,
 * the page's working copy in the
 * management shape (page, block tree, SEO and block translations).
 */
export const PreviewSchema = Type.Union([EntryPreviewSchema, PageDetailSchema], { title: 'PreviewItem' });

/** `{entry_id}` names an entry (docs/api.md "Preview tokens"); `{page_id}` a page (the Studio's live preview of pages). Exactly one. */
export const PreviewTokenBody = Type.Union([
  Type.Object({ entry_id: Uuid }, { additionalProperties: false, title: 'EntryPreviewTokenRequest' }),
  Type.Object({ page_id: Uuid }, { additionalProperties: false, title: 'PagePreviewTokenRequest' }),
]);

export const PreviewTokenSchema = Type.Object({ token: Type.String(), expires_at: Timestamp }, { title: 'PreviewToken' });
