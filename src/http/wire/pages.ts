/**
 * Pages on the wire (docs/pages.md "The model", page detail; docs/api.md "Wire format" (D1, D6),
 * "Working copies, publishing changes and history" (D70), "History" (D72); docs/pages.md
 * "Translations and localization" (D45)):
 * block `data` JSON-encoded, blocks nested through `children`, management records with their
 * working-copy state, delivered pages with `is_fallback` when a locale was asked for. The types
 * are those of the response schemas.
 */
import type { Static } from '@sinclair/typebox';
import type { Block, BlockTranslation, Page, PageContent, SeoTranslation } from '../../modules/pages/model.js';
import { nestBlocks } from '../../modules/pages/tree.js';
import type { BlockSchema, BlockTranslationSchema, PageDetailSchema, PageSchema, SeoTranslationSchema } from '../schemas/pages.js';
import { projectedStringify, stableStringify } from '../../lib/json.js';

export type WirePage = Static<typeof PageSchema>;
export type WireBlock = Static<typeof BlockSchema>;
export type WireSeoTranslation = Static<typeof SeoTranslationSchema>;
export type WireBlockTranslation = Static<typeof BlockTranslationSchema>;
export type WirePageDetail = Static<typeof PageDetailSchema>;

/** A page's columns common to both APIs. */
function toWirePage(page: Page): WirePage {
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

/** Root blocks with their `children` nested, each level ordered by position; `data` JSON-encoded. */
export function toWireBlocks(blocks: readonly Block[]): WireBlock[] {
  return nestBlocks(blocks, (b, children) => {
    const wire: WireBlock = {
      id: b.id,
      page_id: b.page_id,
      block_type_id: b.block_type_id,
      type: b.type,
      position: b.position,
      data: projectedStringify(b.data),
      children,
    };
    if (b.parent_id !== null) wire.parent_id = b.parent_id;
    return wire;
  });
}

function toWireSeoTranslation(t: SeoTranslation): WireSeoTranslation {
  return { id: t.id, locale: t.locale, page_id: t.page_id, seo: t.seo };
}

function toWireBlockTranslation(t: BlockTranslation): WireBlockTranslation {
  return { id: t.id, block_id: t.block_id, locale: t.locale, data: stableStringify(t.data) };
}

/** The management shape of a page: its working copy's SEO and state (D70, D72). */
export function toManagedWirePage(page: Page): WirePage {
  return { ...toWirePage(page), has_pending_changes: page.has_pending_changes, published_version: page.published_version };
}

/** A delivered page: no working-copy state; `is_fallback` only when a locale was requested (D40). */
export function toDeliveredWirePage(page: Page & { is_fallback?: boolean }): WirePage {
  const wire = toWirePage(page);
  if (page.is_fallback !== undefined) wire.is_fallback = page.is_fallback;
  return wire;
}

function toWireDetail(page: WirePage, content: Omit<PageContent, 'page'>): WirePageDetail {
  return {
    page,
    blocks: toWireBlocks(content.blocks),
    seo_translations: content.seoTranslations.map(toWireSeoTranslation),
    block_translations: content.blockTranslations.map(toWireBlockTranslation),
  };
}

/** The management page detail: the working copy with every translation (D6). */
export function toWirePageDetail(content: PageContent): WirePageDetail {
  return toWireDetail(toManagedWirePage(content.page), content);
}

/** The delivery page detail: block data already resolved by the delivery module (D41, D45). */
export function toDeliveredWirePageDetail(content: PageContent & { page: Page & { is_fallback?: boolean } }): WirePageDetail {
  return toWireDetail(toDeliveredWirePage(content.page), content);
}
