/**
 * Wire schemas of sync (docs/front-ends.md "Sync" (D83)). Each item is
 * the delivery
 * wire shape of its kind with `sys: {type, id, ...}` added: an entry is a delivery entry (`data`
 * JSON-encoded, default locale) plus `translations` (every locale's values, JSON-encoded); a
 * page is a delivered page's fields plus its block tree and translations as GET /pages/{slug}
 * gives them without a locale, block `data` unresolved; a media item is delivery media; a
 * deleted item is `sys` only. Schemas used once carry an `$id`; the item shapes, repeated
 * inside the union, carry a `title` (a repeated `$id` fails serializer compilation).
 */
import { Type, type Static } from '@sinclair/typebox';
import { NullableString, ReleaseParam, Uuid } from './common.js';
import { DeliveryEntrySchema } from './delivery.js';
import { DeliveryMediaSchema } from './media.js';
import { BlockSchema, BlockTranslationSchema, PageSchema, SeoTranslationSchema } from './pages.js';

const Token = Type.String({ minLength: 1, maxLength: 2048 });

export const SyncQuery = Type.Object(
  {
    initial: Type.Optional(Type.Boolean({ description: 'true: start a sync with every visible item' })),
    page_token: Type.Optional({ ...Token, description: 'meta.next_page_token of the previous response' }),
    sync_token: Type.Optional({ ...Token, description: 'meta.next_sync_token of an earlier sync: what changed since' }),
    release: ReleaseParam,
  },
  { additionalProperties: false, $id: 'SyncQuery' },
);

const SYNC_TYPES = ['entry', 'page', 'media', 'deleted_entry', 'deleted_page', 'deleted_media'] as const;

export const SyncSysSchema = Type.Object(
  {
    type: Type.String({ enum: [...SYNC_TYPES] }),
    id: Uuid,
    content_type: Type.Optional(Type.String({ description: 'entries and deleted entries: the content type slug' })),
    slug: Type.Optional(NullableString),
  },
  { title: 'SyncSys' },
);

export const SyncEntrySchema = Type.Object(
  {
    sys: SyncSysSchema,
    ...DeliveryEntrySchema.properties,
    translations: Type.Array(
      Type.Object({ locale: Type.String(), data: Type.String({ description: 'JSON-encoded object of the localized values in this locale (parse it)' }) }),
    ),
  },
  { title: 'SyncEntry' },
);

export const SyncPageSchema = Type.Object(
  {
    sys: SyncSysSchema,
    ...PageSchema.properties,
    blocks: Type.Array(BlockSchema, { description: 'root blocks; children nested; data unresolved (ids)' }),
    seo_translations: Type.Array(SeoTranslationSchema),
    block_translations: Type.Array(BlockTranslationSchema),
  },
  { title: 'SyncPage' },
);

export const SyncMediaSchema = Type.Object({ sys: SyncSysSchema, ...DeliveryMediaSchema.properties }, { title: 'SyncMedia' });

export const SyncDeletedSchema = Type.Object({ sys: SyncSysSchema }, { title: 'SyncDeleted' });

/** One sync item; the order matters for serialization (the first schema an item fits is used). */
export const SyncItemSchema = Type.Union([SyncEntrySchema, SyncPageSchema, SyncMediaSchema, SyncDeletedSchema], { $id: 'SyncItem' });

export const SyncMetaSchema = Type.Object(
  {
    page_size: Type.Integer(),
    next_page_token: Type.Union([Type.String(), Type.Null()], { description: 'more items: pass it back as page_token' }),
    next_sync_token: Type.Union([Type.String(), Type.Null()], { description: 'last page: keep it and pass it as sync_token later' }),
  },
  { $id: 'SyncMeta' },
);

export type WireSyncItem = Static<typeof SyncItemSchema>;
