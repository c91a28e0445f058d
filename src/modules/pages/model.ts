/**
 * Pages and their block trees as Quire keeps them and as both APIs show them (api.md "Page",
 * "Block", page detail response; DECISIONS.md D1, D25, D45).
 *
 * Internally `data` of blocks and block translations are parsed objects and blocks are a flat
 * list (each with `parent_id` and a 0-based `position` among its siblings); on the wire `data` is
 * a JSON-encoded string and blocks are nested through `children` (see toWireBlocks). `version`
 * counts writes to the page or any of its blocks and feeds the page's ETag (D5).
 */
import type { Status } from '../publishing/states.js';
import { nestBlocks } from './tree.js';

export type BlockData = Record<string, unknown>;

/**
 * SEO metadata of a page (api.md "SEO object"). Stored and returned with every key: a value not
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

/** An SEO translation holds only the keys it overrides (api.md Localization rule 4). */
export type SeoOverrides = Partial<Seo>;

export const EMPTY_SEO: Readonly<Seo> = Object.freeze({ title: null, description: null, keywords: [], og_image: null, canonical: null });

export interface Page {
  id: string;
  workspace_id: string;
  slug: string;
  status: Status;
  /** Navigation order among the workspace's pages, 0-based. */
  position: number;
  seo: Seo;
  publish_at: string | null;
  published_at: string | null;
  version: number;
  created_at: string;
  updated_at: string;
  created_by: number | null;
  updated_by: number | null;
  /** Who made the published version; production readers see it as `updated_by` (D70). */
  published_by: number | null;
  /** The history version production readers see; null when not published (D72). */
  published_version: number | null;
  /** The newest history version (its snapshot is the working copy). */
  latest_version: number;
  /** The working copy differs from the published version (D70). */
  has_pending_changes: boolean;
}

export interface SeoTranslation {
  /** Integer id (api.md: ids of translation records are integers). */
  id: number;
  page_id: string;
  locale: string;
  seo: SeoOverrides;
}

export interface Block {
  id: string;
  page_id: string;
  block_type_id: string;
  /** Slug of the block type (api.md Block `type`). */
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

/** The wire shape of a page (api.md "Page"); blocks are not part of it. */
export interface WirePage {
  id: string;
  workspace_id: string;
  slug: string;
  status: string;
  position: number;
  seo: Seo;
  publish_at: string | null;
  published_at: string | null;
  created_at: string;
  updated_at: string;
  created_by: number | null;
  updated_by: number | null;
  /**
   * Delivery with `locale` only: true when the locale is not the default one and the page has no
   * translation in it (neither SEO nor any block), i.e. everything is default-locale content.
   */
  is_fallback?: boolean;
  /** Management only (D70). */
  has_pending_changes?: boolean;
  /** Management only (D72). */
  published_version?: number | null;
}

/** The wire shape of a block (api.md "Block"): `parent_id` only on child blocks, `data` JSON-encoded. */
export interface WireBlock {
  id: string;
  page_id: string;
  block_type_id: string;
  parent_id?: string;
  type: string;
  position: number;
  data: string;
  children: WireBlock[];
}

export interface WireSeoTranslation {
  id: number;
  locale: string;
  page_id: string;
  seo: SeoOverrides;
}

export interface WireBlockTranslation {
  id: number;
  block_id: string;
  locale: string;
  data: string;
}

/** The page detail object of api.md: the page, its root blocks (nested) and both translation lists. */
export interface WirePageDetail {
  page: WirePage;
  blocks: WireBlock[];
  seo_translations: WireSeoTranslation[];
  block_translations: WireBlockTranslation[];
}

export function toWirePage(page: Page): WirePage {
  return {
    id: page.id,
    workspace_id: page.workspace_id,
    slug: page.slug,
    status: page.status,
    position: page.position,
    seo: page.seo,
    publish_at: page.publish_at,
    published_at: page.published_at,
    created_at: page.created_at,
    updated_at: page.updated_at,
    created_by: page.created_by,
    updated_by: page.updated_by,
  };
}

/**
 * Nests flat blocks into root blocks with `children`, each level ordered by position.
 * `dataOf` gives the JSON-encoded `data` of a block (stored data for management, the resolved
 * data for delivery).
 */
export function toWireBlocks(blocks: readonly Block[], dataOf: (block: Block) => string = (b) => JSON.stringify(b.data)): WireBlock[] {
  return nestBlocks(blocks, (b, children) => {
    const wire: WireBlock = { id: b.id, page_id: b.page_id, block_type_id: b.block_type_id, type: b.type, position: b.position, data: dataOf(b), children };
    if (b.parent_id !== null) wire.parent_id = b.parent_id;
    return wire;
  });
}

export function toWireSeoTranslation(t: SeoTranslation): WireSeoTranslation {
  return { id: t.id, locale: t.locale, page_id: t.page_id, seo: t.seo };
}

export function toWireBlockTranslation(t: BlockTranslation): WireBlockTranslation {
  return { id: t.id, block_id: t.block_id, locale: t.locale, data: JSON.stringify(t.data) };
}

/** The management shape of a page: the wire page plus its working-copy state (D70, D72). */
export function toManagedWirePage(page: Page): WirePage {
  return { ...toWirePage(page), has_pending_changes: page.has_pending_changes, published_version: page.published_version };
}

/** The management page detail: stored values, every translation (D6). */
export function toWirePageDetail(content: PageContent): WirePageDetail {
  return {
    page: toManagedWirePage(content.page),
    blocks: toWireBlocks(content.blocks),
    seo_translations: content.seoTranslations.map(toWireSeoTranslation),
    block_translations: content.blockTranslations.map(toWireBlockTranslation),
  };
}
