/**
 * The client's public shapes: wire records with their JSON-encoded `data` strings parsed into
 * objects (the server sends `data` of entries, entry translations, blocks and block translations
 * as JSON strings, docs/api.md "Wire format"), and the type maps `quire typegen` fills in.
 */
import type { PageMeta, WireData } from './wire.js';

/**
 * Content types of your workspace, filled in by the file `quire typegen` writes (it augments
 * this interface): `post: { fields: PostFields; delivered: Post }`. Empty by default, which
 * types every entry's `data` as a plain record.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ContentTypeMap {}

/** Block types of your workspace (content types with is_block), filled in like ContentTypeMap. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface BlockTypeMap {}

/** Field values of an item whose type the client does not know. */
export type AnyData = Record<string, unknown>;

/** A content type slug: the generated ones are suggested, any string is accepted. */
export type TypeSlug = (keyof ContentTypeMap & string) | (string & {});

/** `data` of a delivered entry of type T (relations and media resolved). */
export type DeliveredData<T extends string> = T extends keyof ContentTypeMap ? (ContentTypeMap[T] extends { delivered: infer D } ? D : AnyData) : AnyData;

/** `data` of an entry of type T as stored and written (relations and media as ids). */
export type FieldsData<T extends string> = T extends keyof ContentTypeMap ? (ContentTypeMap[T] extends { fields: infer D } ? D : AnyData) : AnyData;

/** A media asset as the delivery API resolves it (media fields, GET /media/{id}). */
export type DeliveryMedia = WireData<'/api/v1/public/media/{id}', 'get'>;

/** A related entry as delivery resolves it (one level deep): its id, slug and type, then its fields. */
export type Related<T extends string> = { id: string; slug: string; type: T } & FieldsData<T>;

/** A Contentful-style rich-text document (`nodeType: "document"`). */
export interface RichTextDocument {
  nodeType: 'document';
  data: Record<string, unknown>;
  content: RichTextNode[];
}
export interface RichTextNode {
  nodeType: string;
  data?: Record<string, unknown>;
  content?: RichTextNode[];
  value?: string;
  marks?: { type: string }[];
}

type DeliveryEntryWire = WireData<'/api/v1/public/entries', 'get'>[number];
type ManagedEntryWire = WireData<'/api/v1/manage/content-types/{slug}/entries/{entry_slug}', 'get'>;
type EntryTranslationWire = ManagedEntryWire['translations'][number];

/** A delivered entry: `data` parsed (locale-resolved, relations and media resolved). */
export type DeliveryEntry<D = AnyData> = Omit<DeliveryEntryWire, 'data'> & { data: D };

/** One entry from GET /entries/{slug}: the entry, whether it fell back, the locale resolved. */
export type DeliveryEntryDetail<D = AnyData> = DeliveryEntry<D> & { is_fallback: boolean; locale_requested: string };

/** A translation record of an entry: `data` parsed. */
export type EntryTranslation<D = AnyData> = Omit<EntryTranslationWire, 'data'> & { data: Partial<D> };

/** An entry as the management API answers it: `data` and translations parsed, with its ETag. */
export type ManagedEntry<D = AnyData> = Omit<ManagedEntryWire, 'data' | 'translations'> & {
  data: D;
  translations: EntryTranslation<D>[];
  /** The `ETag` of the answer: pass as `ifMatch` to write only if nobody changed it since. */
  etag: string | null;
};

/** One page of a list, with its pagination meta and the cursor of the next page (null on the last). */
export interface ListPage<T> {
  items: T[];
  meta: PageMeta;
  nextCursor: string | null;
}

type PageDetailWire = WireData<'/api/v1/public/pages/{slug}', 'get'>;
type BlockWire = PageDetailWire['blocks'][number];
type BlockTranslationWire = PageDetailWire['block_translations'][number];

/** A page record (no blocks), as lists return it. */
export type Page = PageDetailWire['page'];

/** A block of a page tree, `data` parsed; `children` nest the same shape. */
export type Block<D = AnyData> = Omit<BlockWire, 'data' | 'children'> & { data: D; children: Block[] };

/**
 * A block whose `type` tells its `data` (a discriminated union over the generated block types);
 * a plain Block when no types were generated.
 */
export type TypedBlock = keyof BlockTypeMap extends never
  ? Block
  : {
      [K in keyof BlockTypeMap & string]: Omit<Block, 'type' | 'data' | 'children'> & {
        type: K;
        data: BlockTypeMap[K] extends { delivered: infer D } ? D : AnyData;
        children: TypedBlock[];
      };
    }[keyof BlockTypeMap & string];

/** A block translation record, `data` parsed. */
export type BlockTranslation = Omit<BlockTranslationWire, 'data'> & { data: AnyData };

/** A delivered page with its block tree (GET /pages/{slug}). */
export type PageTree = Omit<PageDetailWire, 'blocks' | 'block_translations'> & { blocks: TypedBlock[]; block_translations: BlockTranslation[] };

/** The delivery schema: the content types the key may read and the workspace's locales. */
export type DeliverySchema = WireData<'/api/v1/public/schema', 'get'>;
export type DeliveryContentType = DeliverySchema['content_types'][number];
