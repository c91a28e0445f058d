/**
 * Wire schemas of pages and blocks (docs/pages.md "The model"; docs/api.md "Pages (management)",
 * "GET /api/v1/public/pages"; docs/api.md
 * "Wire format" (D1), "GET /api/v1/public/pages" (D14), "Rules Quire decided" (D34); docs/pages.md
 * "The model" (D25)). `seo`, `seo_translations` and the blocks of write bodies are declared
 * loosely here: the pages module checks them and names the exact place of each problem
 * (`body.blocks.0.children.2.data.title`), including the depth and size limits of a tree.
 */
import { ItemWorkflowProperty, WorkflowListQuery } from './workflows.js';
import { Type } from '@sinclair/typebox';
import { TraceQuery } from './source-map.js';
import { STATUSES, type Status } from '../../modules/publishing/states.js';
import { MAX_BLOCKS } from '../../modules/pages/tree.js';
import { JsonObjectString, NullableString, NullableTimestamp, PageQuery, ReleaseParam, SlugParam, Timestamp, Uuid } from './common.js';

const Locale = Type.String({ minLength: 2, maxLength: 10, description: 'a locale of the workspace (2 to 10 characters)' });

export const SeoSchema = Type.Object(
  {
    title: NullableString,
    description: NullableString,
    keywords: Type.Array(Type.String()),
    og_image: Type.Union([Type.String({ description: 'absolute URL' }), Type.Null()]),
    canonical: Type.Union([Type.String({ description: 'absolute URL' }), Type.Null()]),
  },
  { title: 'Seo' },
);

/** A translation's SEO values: only the keys it overrides. */
export const SeoOverridesSchema = Type.Object(
  {
    title: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    keywords: Type.Optional(Type.Array(Type.String())),
    og_image: Type.Optional(Type.String()),
    canonical: Type.Optional(Type.String()),
  },
  { title: 'SeoOverrides' },
);

export const PageSchema = Type.Object(
  {
    id: Uuid,
    workspace_id: Uuid,
    slug: Type.String(),
    status: Type.String({ enum: [...STATUSES] }),
    position: Type.Integer({ description: 'navigation order, 0-based' }),
    seo: SeoSchema,
    publish_at: NullableTimestamp,
    published_at: NullableTimestamp,
    created_at: Timestamp,
    updated_at: Timestamp,
    created_by: Type.Union([Type.Integer(), Type.Null()]),
    updated_by: Type.Union([Type.Integer(), Type.Null()]),
    is_fallback: Type.Optional(Type.Boolean({ description: 'delivery with locale: true when the page has no translation in that locale' })),
    has_pending_changes: Type.Optional(Type.Boolean({ description: 'management only: the working copy differs from the published version' })),
    published_version: Type.Optional(Type.Union([Type.Integer(), Type.Null()], { description: 'management only: the history version production readers see' })),
    workflow: ItemWorkflowProperty,
  },
  { title: 'Page' },
);

/** A block and its children, recursively (docs/pages.md "The model"). */
export const BlockSchema = Type.Recursive(
  (This) =>
    Type.Object({
      id: Uuid,
      page_id: Uuid,
      block_type_id: Uuid,
      parent_id: Type.Optional(Uuid),
      type: Type.String({ description: 'block type slug' }),
      position: Type.Integer({ description: 'order among its siblings, 0-based' }),
      data: JsonObjectString('JSON-encoded object of the block’s field values (parse it: D1)'),
      children: Type.Array(This),
    }),
  { $id: 'Block', title: 'Block' },
);

export const SeoTranslationSchema = Type.Object(
  { id: Type.Integer(), locale: Type.String(), page_id: Uuid, seo: SeoOverridesSchema },
  { title: 'SeoTranslation' },
);

export const BlockTranslationSchema = Type.Object(
  { id: Type.Integer(), block_id: Uuid, locale: Type.String(), data: JsonObjectString('JSON-encoded object of localized field values (parse it: D1)') },
  { title: 'BlockTranslation' },
);

export const PageDetailSchema = Type.Object(
  {
    page: PageSchema,
    blocks: Type.Array(BlockSchema, { description: 'root blocks; children nested' }),
    seo_translations: Type.Array(SeoTranslationSchema),
    block_translations: Type.Array(BlockTranslationSchema),
  },
  { title: 'PageDetail' },
);

const SeoInput = Type.Unknown({ description: 'SEO object: title, description, keywords (array of strings), og_image and canonical (absolute URLs)' });
const SeoTranslationsInput = Type.Unknown({ description: 'Localized SEO values: {"de": {"title": ...}} keyed by locale, or [{"locale": "de", "seo": {...}}]' });
const BlocksInput = Type.Array(Type.Unknown(), {
  maxItems: MAX_BLOCKS,
  description: 'Root blocks: {type, data} items, or a full tree of {id?, type, data, translations?, children?} (at most 10 levels, 1,000 blocks)',
});

export const PageCreateBody = Type.Object(
  {
    slug: Type.String({ minLength: 1, maxLength: 200 }),
    seo: Type.Optional(SeoInput),
    seo_translations: Type.Optional(SeoTranslationsInput),
    blocks: Type.Optional(BlocksInput),
  },
  { additionalProperties: false },
);

export const PageReplaceBody = Type.Object(
  {
    slug: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    seo: SeoInput,
    seo_translations: Type.Optional(SeoTranslationsInput),
    blocks: BlocksInput,
  },
  { additionalProperties: false },
);

/** PATCH /pages/{slug}: the slug, SEO keys and SEO translations, without the block tree (docs/pages.md). */
export const PagePatchBody = Type.Object(
  {
    slug: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    seo: Type.Optional(
      Type.Unknown({ description: 'SEO keys to change (title, description, keywords, og_image, canonical); keys not sent keep their value, null clears one' }),
    ),
    seo_translations: Type.Optional(
      Type.Unknown({ description: 'as on PUT: when sent, every SEO translation of the page ({"de": {...}} or [{locale, seo}])' }),
    ),
  },
  { additionalProperties: false },
);

export const PageListQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(Type.Unsafe<Status>(Type.String({ enum: [...STATUSES] }))),
    sort: Type.Optional(Type.String({ maxLength: 100, description: 'position, created_at, updated_at, published_at or slug, then :asc or :desc' })),
    ...WorkflowListQuery,
  },
  { additionalProperties: false },
);

export const PageParams = Type.Object({ slug: SlugParam });
export const PageVersionParams = Type.Object({ slug: SlugParam, version: Type.String({ maxLength: 12, description: 'version number, from 1' }) });

export const PageReorderBody = Type.Object(
  { order: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 20000, description: 'every page id of the workspace, in navigation order' }) },
  { additionalProperties: false },
);

export const BlockReorderBody = Type.Object(
  {
    order: Type.Array(Type.String({ maxLength: 64 }), { maxItems: MAX_BLOCKS, description: 'every child id of parent_id (or every root block id), in order' }),
    parent_id: Type.Optional(
      Type.Union([Type.String({ maxLength: 64 }), Type.Null()], {
        description: 'the parent block; null for the root blocks; absent: the one parent the listed blocks share (the roots when order is empty)',
      }),
    ),
  },
  { additionalProperties: false },
);

/** GET /pages (delivery). */
export const DeliveryPageListQuery = Type.Object(
  {
    workspace_id: Type.Optional(Type.String({ maxLength: 64, description: "the key's workspace (optional: D14)" })),
    locale: Type.Optional(Locale),
    page: Type.Optional(Type.Integer({ minimum: 1, description: 'at most 1000 (400 PAGE_TOO_DEEP above); ignored with cursor' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    sort: Type.Optional(
      Type.String({ maxLength: 100, description: 'position (default, asc), created_at, updated_at, published_at or slug, then :asc or :desc' }),
    ),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'meta.next_cursor of the previous page' })),
    release: ReleaseParam,
    ...TraceQuery,
  },
  { additionalProperties: false },
);

/** GET /pages/{slug} (delivery). */
export const DeliveryPageQuery = Type.Object(
  {
    workspace_id: Type.Optional(Type.String({ maxLength: 64, description: "the key's workspace (optional: D14)" })),
    locale: Type.Optional(Locale),
    release: ReleaseParam,
    ...TraceQuery,
  },
  { additionalProperties: false },
);
