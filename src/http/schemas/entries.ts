/**
 * Wire schemas of entries (docs/api.md "Entries", "Wire format" (D1, D2), "States
 * and scheduling" (D23), "Rules Quire decided" (D34)).
 * `data` and `translations` of write bodies are declared loosely here (their D2 forms are
 * checked by the entries module, which names the exact field in each error).
 */
import { ItemWorkflowProperty, WorkflowListQuery } from './workflows.js';
import { Type } from '@sinclair/typebox';
import { VERSION_ACTIONS } from '../../modules/publishing/repository.js';
import { STATUSES, VERBS, type Status } from '../../modules/publishing/states.js';
import { JsonObjectString, NullableTimestamp, PageQuery, SlugParam, Timestamp, Uuid } from './common.js';

export const EntryTranslationSchema = Type.Object(
  {
    id: Type.Integer(),
    entry_id: Uuid,
    locale: Type.String(),
    data: JsonObjectString('JSON-encoded object of the localized field values (parse it)'),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'EntryTranslation' },
);

export const EntrySchema = Type.Object(
  {
    id: Uuid,
    content_type_id: Uuid,
    workspace_id: Uuid,
    slug: Type.String(),
    status: Type.String({ enum: [...STATUSES] }),
    data: JsonObjectString('JSON-encoded object of the default-locale field values (parse it: D1)'),
    translations: Type.Array(EntryTranslationSchema),
    position: Type.Integer(),
    publish_at: NullableTimestamp,
    published_at: NullableTimestamp,
    created_at: Timestamp,
    updated_at: Timestamp,
    created_by: Type.Union([Type.Integer(), Type.Null()]),
    updated_by: Type.Union([Type.Integer(), Type.Null()]),
    has_pending_changes: Type.Boolean({ description: 'the working copy differs from the published version (publish to make it live)' }),
    published_version: Type.Union([Type.Integer(), Type.Null()], { description: 'the history version production readers see; null when not published' }),
    workflow: ItemWorkflowProperty,
  },
  { title: 'Entry' },
);

/** One version of an entry's or page's history (D72), without its snapshot. */
export const VersionSchema = Type.Object(
  {
    version: Type.Integer({ minimum: 1 }),
    action: Type.String({ enum: [...VERSION_ACTIONS] }),
    status: Type.String({ enum: [...STATUSES] }),
    created_at: Timestamp,
    created_by: Type.Union([Type.Integer(), Type.Null()]),
  },
  { title: 'Version' },
);

export const VersionListQuery = Type.Object(
  {
    ...PageQuery,
    cursor: Type.Optional(Type.String({ maxLength: 4096, description: 'meta.next_cursor of the previous page (keyset pagination; page is then ignored)' })),
  },
  { additionalProperties: false },
);

const DataInput = Type.Unknown({
  description: 'Field values: an object, or the same object JSON-encoded as a string',
});
const TranslationsInput = Type.Unknown({
  description: 'Localized values: {"de": {"data": {...}}} keyed by locale, or [{"locale": "de", "data": {...}}]',
});

export const EntryWriteBody = Type.Object(
  {
    slug: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    data: DataInput,
    translations: Type.Optional(TranslationsInput),
  },
  { additionalProperties: false },
);

export const ScheduleBody = Type.Object({ publish_at: Type.String({ description: 'ISO 8601 time in the future' }) }, { additionalProperties: false });

export const BulkActionBody = Type.Object(
  {
    action: Type.String({ enum: [...VERBS] }),
    ids: Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 100 }),
    publish_at: Type.Optional(Type.String({ description: 'required with action schedule' })),
  },
  { additionalProperties: false },
);

export const BulkDeleteBody = Type.Object({ ids: Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 100 }) }, { additionalProperties: false });

export const EntryReorderBody = Type.Object({ order: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 20000 }) }, { additionalProperties: false });

const BulkItem = Type.Object({ id: Type.String(), reason: Type.Union([Type.String(), Type.Null()]) });
export const BulkResultSchema = Type.Object({ succeeded: Type.Array(BulkItem), failed: Type.Array(BulkItem) }, { title: 'BulkResult' });

export const EntryListQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(Type.Unsafe<Status>(Type.String({ enum: [...STATUSES] }))),
    sort: Type.Optional(Type.String({ maxLength: 100, description: '<field>:asc|desc' })),
    search: Type.Optional(
      Type.String({
        maxLength: 1000,
        description: "case-insensitive substring of the display field's default-locale value or of the slug (at most 200 characters)",
      }),
    ),
    cursor: Type.Optional(Type.String({ maxLength: 4096, description: 'meta.next_cursor of the previous page (keyset pagination; page is then ignored)' })),
    ...WorkflowListQuery,
  },
  { additionalProperties: false },
);

export const TypeParams = Type.Object({ slug: SlugParam });
export const EntryParams = Type.Object({ slug: SlugParam, entry_slug: SlugParam });
export const EntryVersionParams = Type.Object({
  slug: SlugParam,
  entry_slug: SlugParam,
  version: Type.String({ maxLength: 12, description: 'version number, from 1' }),
});
