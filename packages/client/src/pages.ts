/**
 * Page shapes of the management API (docs/pages.md): the working copy as read (a block tree of
 * stored values, `data` parsed) and the bodies of the writes. A write accepts what a read
 * returns: a block read from `GET /pages/{slug}` may be sent back as it is, because the server
 * ignores the read-only block keys `page_id`, `block_type_id`, `position` and `parent_id` (the
 * tree's nesting and order say where a block goes). Block `data` is typed per block type when
 * typegen described the workspace.
 */
import type { TranslationsInput } from './manage.js';
import type { AnyData, Block, BlockTranslation, BlockTypeMap } from './types.js';
import type { WireData } from './wire.js';

/** Stored field values of block type `K` (ids for relations and media). */
type BlockFields<K> = K extends keyof BlockTypeMap ? (BlockTypeMap[K] extends { fields: infer D } ? D : AnyData) : AnyData;

/**
 * A block of a management page tree: stored values, `data` parsed, discriminated by `type` when
 * block types were generated. `parent_id` is set on child blocks.
 */
export type ManagedBlock = keyof BlockTypeMap extends never
  ? Block
  : {
      [K in keyof BlockTypeMap & string]: Omit<Block, 'type' | 'data' | 'children'> & { type: K; data: BlockFields<K>; children: ManagedBlock[] };
    }[keyof BlockTypeMap & string];

/** The keys of a block as read that a write ignores: a read block can be sent back unchanged. */
export interface ReadOnlyBlockKeys {
  page_id?: string;
  block_type_id?: string;
  position?: number;
  parent_id?: string | null;
}

/** One block of a written tree whose type is `K`. */
type BlockInputOf<K extends string> = ReadOnlyBlockKeys & {
  /** Keep this block (an id of this page) or name a new one (any other uuid); omit for a new id. */
  id?: string;
  type: K;
  /** Default-locale values, an object or its JSON text. */
  data: Partial<BlockFields<K>> | string;
  /** Localizable values per locale; absent on a kept block keeps its translations, `{}` removes them. */
  translations?: TranslationsInput<BlockFields<K>>;
  children?: PageBlockInput[];
};

/** A block of a page write (POST, PUT): `{type, data}` with optional `id`, `translations`, `children`. */
export type PageBlockInput = keyof BlockTypeMap extends never
  ? BlockInputOf<string>
  : { [K in keyof BlockTypeMap & string]: BlockInputOf<K> }[keyof BlockTypeMap & string];

/** A page's SEO as read (every key, null for no value). */
export type Seo = WireData<'/api/v1/manage/pages/{slug}', 'get'>['page']['seo'];

/** SEO values in a write: any of the keys, null for no value (a read page's `seo` fits). */
export type SeoInput = { [K in keyof Seo]?: Seo[K] | null };

/**
 * SEO overrides of the other locales: `{de: {title: 'Startseite'}}` or `[{locale: 'de', seo: {...}}]`;
 * the items of a read (`id`, `page_id` besides, ignored by the server) fit too.
 */
export type SeoTranslationsInput = Record<string, SeoInput | { seo: SeoInput }> | { id?: number; page_id?: string; locale: string; seo: SeoInput }[];

/** Body of POST /pages: a slug, and optionally SEO, its translations and a block tree. */
export interface PageCreate {
  slug: string;
  seo?: SeoInput;
  seo_translations?: SeoTranslationsInput;
  blocks?: PageBlockInput[];
}

/** Body of PUT /pages/{slug}: the SEO and the whole block tree (blocks not sent are deleted), optionally a new slug. */
export interface PageReplace {
  slug?: string;
  seo: SeoInput;
  /** Absent keeps the current SEO translations. */
  seo_translations?: SeoTranslationsInput;
  blocks: PageBlockInput[];
}

/**
 * Body of PATCH /pages/{slug}: the page's own attributes without its block tree. Only the keys
 * sent change; the blocks stay as they are (a body with `blocks` is refused: use PUT).
 */
export interface PagePatch {
  slug?: string;
  seo?: SeoInput;
  seo_translations?: SeoTranslationsInput;
  blocks?: never;
}

/** A page record as the management API lists it. */
export type ManagedPageRecord = WireData<'/api/v1/manage/pages/{slug}', 'get'>['page'];

/** A page as the management API answers it: its record and block tree (stored values, data parsed), with its ETag. */
export type ManagedPage = Omit<WireData<'/api/v1/manage/pages/{slug}', 'get'>, 'blocks' | 'block_translations'> & {
  blocks: ManagedBlock[];
  block_translations: BlockTranslation[];
  etag: string | null;
};
