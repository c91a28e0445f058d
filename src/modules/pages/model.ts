/**
 * Pages and their block trees as Quire keeps them and as both APIs show them (docs/pages.md "The
 * model", page detail response; docs/api.md "Wire format" (D1); docs/pages.md "The model" (D25),
 * "Translations and localization" (D45)).
 *
 * Internally `data` of blocks and block translations are parsed objects and blocks are a flat
 * list (each with `parent_id` and a 0-based `position` among its siblings); on the wire `data` is
 * a JSON-encoded string and blocks are nested through `children` (src/http/wire/pages.ts). `version`
 * counts writes to the page or any of its blocks and feeds the page's ETag (D5).
 */
import type { ItemRecord } from '../publishing/item.js';

export type BlockData = Record<string, unknown>;

/**
 * SEO metadata of a page (docs/pages.md "SEO object"). Stored and returned with every key: a value not
 * given is null (`keywords`: an empty list).
 */
export interface Seo {
  title: string | null;
  description: string | null;
  keywords: string[];
  og_image: string | null;
  canonical: string | null;
}

export const SEO_KEYS = ['title', 'description', 'keywords', 'og_image', 'canonical'] as const;
export type SeoKey = (typeof SEO_KEYS)[number];

/** An SEO translation holds only the keys it overrides (docs/pages.md "Translations and localization" rule 1). */
export type SeoOverrides = { [K in keyof Seo]?: NonNullable<Seo[K]> };

export const EMPTY_SEO: Readonly<Seo> = Object.freeze({ title: null, description: null, keywords: [], og_image: null, canonical: null });

/** A page: the columns every item has (ItemRecord) plus its working copy's SEO. */
export interface Page extends ItemRecord {
  seo: Seo;
}

export interface SeoTranslation {
  /** Integer id (docs/api.md "Wire format": ids of translation records are integers). */
  id: number;
  page_id: string;
  locale: string;
  seo: SeoOverrides;
}

export interface Block {
  id: string;
  page_id: string;
  block_type_id: string;
  /** Slug of the block type (docs/pages.md "The model": block `type`). */
  type: string;
  parent_id: string | null;
  position: number;
  data: BlockData;
}

export interface BlockTranslation {
  id: number;
  block_id: string;
  locale: string;
  data: BlockData;
}

/** A page with everything that belongs to it; `blocks` is flat, ordered by parent then position. */
export interface PageContent {
  page: Page;
  blocks: Block[];
  seoTranslations: SeoTranslation[];
  blockTranslations: BlockTranslation[];
}
