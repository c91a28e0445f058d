/**
 * Where a media asset is used (GET /media/{id}/usage), so the Studio can warn before a delete:
 * the entries and pages whose content names the asset in a `media` field, a `media_list` field
 * or a rich-text field (an embedded asset or an asset hyperlink), in the working copy or the
 * published version, in any locale. Values elsewhere that merely quote the id (a text field)
 * do not count. Deleting stays allowed: references to a deleted asset resolve to nothing (D41).
 */
import type { Context } from '../../context.js';
import { notFound } from '../../errors.js';
import { isUuid } from '../../lib/ids.js';
import { fromJsonColumn, isPlainObject } from '../../lib/json.js';
import { entryDisplayValue, pageSeoTitle } from '../content-types/display.js';
import { fieldsByContentType } from '../content-types/repository.js';
import type { Field } from '../content-types/model.js';
import type { Actor } from '../auth/permissions.js';
import { checkWorkspaceHeader } from './operations.js';
import { findMediaById } from './repository.js';
import { entryCandidates, pageCandidates } from './usage-repository.js';

export interface MediaUsage {
  entries: { id: string; content_type: string; slug: string; title?: string }[];
  pages: { id: string; slug: string; title: string }[];
}

/** True when a rich-text node (Contentful document) links or embeds asset `id`, at any depth. */
export function richTextNamesAsset(node: unknown, id: string): boolean {
  if (!isPlainObject(node)) return false;
  const target = isPlainObject(node.data) && isPlainObject(node.data.target) ? node.data.target : null;
  const sys = target && isPlainObject(target.sys) ? target.sys : null;
  if (sys && sys.linkType === 'Asset' && typeof sys.id === 'string' && sys.id.toLowerCase() === id) return true;
  return Array.isArray(node.content) && node.content.some((child) => richTextNamesAsset(child, id));
}

/** True when `doc` (one data object of an entry or block) names asset `id` in one of `fields`. */
export function dataNamesAsset(doc: unknown, fields: readonly Field[], id: string): boolean {
  const data = fromJsonColumn<unknown>(doc, null);
  if (!isPlainObject(data)) return false;
  return fields.some((f) => {
    const value = data[f.name];
    switch (f.field_type) {
      case 'media':
        return typeof value === 'string' && value.toLowerCase() === id;
      case 'media_list':
        return Array.isArray(value) && value.some((v) => typeof v === 'string' && v.toLowerCase() === id);
      case 'rich_text':
        return richTextNamesAsset(value, id);
      default:
        return false;
    }
  });
}

/**
 * GET /media/{id}/usage: entries (by content type slug, then slug) and pages (by slug) using the
 * asset. 404 for an unknown, deleted or other workspace's asset.
 */
export async function mediaUsage(ctx: Context, actor: Actor, workspaceHeader: string | undefined, id: string): Promise<MediaUsage> {
  checkWorkspaceHeader(actor, workspaceHeader);
  const media = isUuid(id) ? await findMediaById(ctx.db, actor.workspaceId, id) : null;
  if (!media) throw notFound(`media '${id}'`);
  const [entries, pages] = await Promise.all([entryCandidates(ctx.db, actor.workspaceId, media.id), pageCandidates(ctx.db, actor.workspaceId, media.id)]);
  const typeIds = new Set([...entries.map((e) => e.content_type_id), ...pages.flatMap((p) => p.blocks.map((b) => b.block_type_id))]);
  const fields = await fieldsByContentType(ctx.db, [...typeIds]);
  const fieldsOf = (typeId: string) => fields.get(typeId) ?? [];
  return {
    entries: entries
      .filter((e) => e.docs.some((doc) => dataNamesAsset(doc, fieldsOf(e.content_type_id), media.id)))
      .map((e) => {
        const title = entryDisplayValue(e.data, e.display_field);
        return { id: e.id, content_type: e.content_type_slug, slug: e.slug, ...(title ? { title } : {}) };
      }),
    pages: pages
      .filter((p) => p.blocks.some((b) => dataNamesAsset(b.data, fieldsOf(b.block_type_id), media.id)))
      .map((p) => ({ id: p.id, slug: p.slug, title: pageSeoTitle(p.seo) ?? p.slug })),
  };
}
