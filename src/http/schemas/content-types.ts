/** Wire schemas of content types and fields (docs/api.md "Content types", "Fields"). */
import { Type } from '@sinclair/typebox';
import { FIELD_TYPES, MAX_FIELDS_PER_TYPE } from '../../modules/content-types/model.js';
import { ImpactLocales, NullableString, Timestamp, Uuid } from './common.js';

export const FieldIndexBuildSchema = Type.Object(
  {
    state: Type.String({
      enum: ['building', 'failed'],
      description: 'building: the index is being built and the flags below turn on once it is ready; failed: see error, the flags stayed as they were',
    }),
    filterable: Type.Boolean({ description: 'filterable turns on when the index is ready' }),
    sortable: Type.Boolean({ description: 'sortable turns on when the index is ready' }),
    is_unique: Type.Boolean({ description: 'is_unique turns on when the index is ready' }),
    indexes_built: Type.Integer({ minimum: 0 }),
    indexes_total: Type.Integer({ minimum: 0 }),
    error: NullableString,
    started_at: Timestamp,
    updated_at: Timestamp,
  },
  {
    title: 'FieldIndexBuild',
    description: 'An index built in the background for flags of a field on a big table (docs/scaling.md "Index builds")',
  },
);

export const FieldSchema = Type.Object(
  {
    id: Uuid,
    content_type_id: Uuid,
    name: Type.String(),
    label: Type.String(),
    field_type: Type.String({ enum: [...FIELD_TYPES] }),
    required: Type.Boolean(),
    is_unique: Type.Boolean(),
    localizable: Type.Boolean(),
    filterable: Type.Boolean(),
    sortable: Type.Boolean(),
    sort_order: Type.Integer(),
    options: NullableString,
    validation: NullableString,
    created_at: Timestamp,
    updated_at: Timestamp,
    index_build: Type.Union([FieldIndexBuildSchema, Type.Null()], {
      description: 'the index build of a flag turned on over a big table, while it runs or after it failed',
    }),
  },
  { title: 'Field' },
);

export const ContentTypeSchema = Type.Object(
  {
    id: Uuid,
    workspace_id: Uuid,
    name: Type.String(),
    slug: Type.String(),
    description: NullableString,
    icon: NullableString,
    display_field: NullableString,
    is_block: Type.Boolean(),
    orderable: Type.Boolean(),
    fields: Type.Array(FieldSchema),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'ContentType' },
);

export const FieldInputSchema = Type.Object(
  {
    name: Type.String({ maxLength: 64 }),
    label: Type.Optional(Type.String({ maxLength: 200 })),
    field_type: Type.String(),
    required: Type.Optional(Type.Boolean()),
    is_unique: Type.Optional(Type.Boolean()),
    localizable: Type.Optional(Type.Boolean()),
    filterable: Type.Optional(Type.Boolean()),
    sortable: Type.Optional(Type.Boolean()),
    sort_order: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000 })),
    options: Type.Optional(Type.Union([Type.String({ description: 'JSON-encoded array of strings' }), Type.Array(Type.String()), Type.Null()])),
    validation: Type.Optional(Type.Union([Type.String({ description: 'JSON-encoded object' }), Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
  },
  { additionalProperties: false },
);

export const CreateContentTypeBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    slug: Type.Optional(Type.String({ maxLength: 120 })),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
    icon: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
    display_field: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()])),
    is_block: Type.Optional(Type.Boolean()),
    orderable: Type.Optional(Type.Boolean()),
    fields: Type.Optional(Type.Array(FieldInputSchema, { maxItems: MAX_FIELDS_PER_TYPE })),
  },
  { additionalProperties: false },
);

export const UpdateContentTypeBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
    icon: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
    display_field: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()])),
    orderable: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const UpdateFieldBody = Type.Object(
  {
    label: Type.Optional(Type.String({ maxLength: 200 })),
    filterable: Type.Optional(Type.Boolean()),
    sortable: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const ReorderBody = Type.Object({ order: Type.Array(Type.String(), { maxItems: 10000 }) }, { additionalProperties: false });

/** GET …/fields/{fieldId}/deletion-impact (D35). */
export const DeletionImpactSchema = Type.Object(
  { affected_entries: Type.Integer(), field_name: Type.String(), field_type: Type.String() },
  { title: 'FieldDeletionImpact' },
);

/** GET …/fields/{fieldId}/localization-impact (D35): per locale, the translations holding a value. */
export const LocalizationImpactSchema = Type.Object(
  {
    affected_entries: Type.Integer(),
    field_name: Type.String(),
    localizable: Type.Boolean(),
    locales: ImpactLocales,
  },
  { title: 'FieldLocalizationImpact' },
);
