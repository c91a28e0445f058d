/**
 * The versioned content of a page (docs/api.md "Working copies, publishing changes and history"
 * (D70), "History" (D72)): SEO, SEO translations and the whole
 * block tree with block translations. A version's snapshot is exactly this, stored as JSON; the
 * published version of a page is one such snapshot. Slug, navigation position and schedule are
 * attributes of the page, not content (D70).
 *
 * Blocks are kept flat (parent_id + position, as stored) with their block type's id and the slug
 * it had; a version reads back with the type's current slug when the type still exists.
 *
 * Pure functions shared by the write path, migration 005 and the version endpoints.
 */
import { isPlainObject, stableStringify } from '../../lib/json.js';
import type { Block, BlockTranslation, PageContent, Seo, SeoTranslation } from './model.js';
import { pickSeo, seoFromColumn } from './seo.js';

export interface PageSnapshot {
  seo: Seo;
  seo_translations: Omit<SeoTranslation, 'page_id'>[];
  blocks: Omit<Block, 'page_id'>[];
  block_translations: BlockTranslation[];
}

/** The snapshot of a page's working copy. */
export function pageSnapshotOf(content: Pick<PageContent, 'blocks' | 'seoTranslations' | 'blockTranslations'> & { page: { seo: Seo } }): PageSnapshot {
  return {
    seo: content.page.seo,
    seo_translations: content.seoTranslations.map((t) => ({ id: t.id, locale: t.locale, seo: t.seo })),
    blocks: content.blocks.map((b) => ({ id: b.id, block_type_id: b.block_type_id, type: b.type, parent_id: b.parent_id, position: b.position, data: b.data })),
    block_translations: content.blockTranslations.map((t) => ({ id: t.id, block_id: t.block_id, locale: t.locale, data: t.data })),
  };
}

/** Text equal for two snapshots exactly when their content is (no translation ids, no type slugs). */
export function pageContentKey(s: PageSnapshot): string {
  const blocks = [...s.blocks]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((b) => ({ id: b.id, t: b.block_type_id, p: b.parent_id, i: b.position, d: b.data }));
  const seoTr = Object.fromEntries(s.seo_translations.map((t) => [t.locale, t.seo]));
  const blockTr = Object.fromEntries(s.block_translations.map((t) => [`${t.block_id}:${t.locale}`, t.data]));
  return stableStringify({ seo: s.seo, seoTr, blocks, blockTr });
}

/** Reads a stored snapshot (a JSON column); malformed parts read as empty. */
export function pageSnapshotFromJson(value: unknown): PageSnapshot {
  const v = isPlainObject(value) ? value : {};
  const list = (x: unknown) => (Array.isArray(x) ? x.filter(isPlainObject) : []);
  const obj = (x: unknown) => (isPlainObject(x) ? x : {});
  return {
    seo: seoFromColumn(v.seo ?? {}),
    seo_translations: list(v.seo_translations).map((t) => ({ id: Number(t.id ?? 0), locale: String(t.locale ?? ''), seo: pickSeo(obj(t.seo)) })),
    blocks: list(v.blocks).map((b) => ({
      id: String(b.id),
      block_type_id: String(b.block_type_id),
      type: String(b.type ?? ''),
      parent_id: typeof b.parent_id === 'string' ? b.parent_id : null,
      position: Number(b.position ?? 0),
      data: obj(b.data),
    })),
    block_translations: list(v.block_translations).map((t) => ({
      id: Number(t.id ?? 0),
      block_id: String(t.block_id),
      locale: String(t.locale ?? ''),
      data: obj(t.data),
    })),
  };
}
