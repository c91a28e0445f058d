/**
 * Relation and media resolution for a page of delivered entries (docs/api.md "Delivery keys" (D13),
 * "The `fields` parameter" (D41)).
 *
 * References are collected across ALL entries of the page first, then resolved with one query
 * for the related entries (every relation field together, their translations joined) and one for
 * the media: the number of queries does not depend on the number of entries.
 *
 * - relation → `{id, slug, type, ...fields}` of the related entry, resolved for the same locale
 *   with the same per-field fallback; `fields=author.name` keeps `id`, `slug`, `type`, `name`.
 *   References inside a related entry are not followed (one level deep): they stay ids.
 * - A related entry the key may not see (status per environment, content type outside the
 *   whitelist, another workspace, deleted) resolves to null; in a relation_list it is dropped.
 * - media → `{id, url, mime_type, width, height, alt_text, focal_x, focal_y}`, `url` computed
 *   from this server's configuration (D51); a deleted or missing asset resolves to null, and is
 *   dropped from a media_list.
 * - `<rich>_html`: the entries and assets its document links are loaded by the same two queries
 *   and rendered by richTextLinks (src/modules/richtext/render.ts); the `_html` of a related
 *   entry (`fields=author.bio_html`) renders its links from what the page loaded anyway.
 */
import type { Context } from '../../context.js';
import { fromJsonColumn, isPlainObject } from '../../lib/json.js';
import type { Actor } from '../auth/permissions.js';
import { richTextTargets, richTextToHtml, richTextToText, type RichTextLinks } from '../richtext/render.js';
import { subKeyFor, type Projection, type SubKey } from './fields-selection.js';
import { localizedValue, type RequestedLocale } from './localization.js';
import type { DeliverySchema, DeliveryType } from './model.js';
import type { Perspective } from '../read/perspective.js';
import { findMediaByIds } from '../media/repository.js';
import { toDeliveryMedia, type DeliveryMedia } from '../media/model.js';
import { findRelatedRows } from './query/repository.js';
import { canReadEntriesOf } from './visibility.js';
import type { Field } from '../content-types/model.js';
import { entryOrigin, jsonPath, traceAsset, traceField, type Trace } from '../read/source-map.js';
import { noteEntries, noteMedia } from '../read/cache-tags.js';

/** Parsed data of an entry: default-locale values and the requested locale's translation. */
export interface LocalizedData {
  data: Record<string, unknown>;
  translation: Record<string, unknown> | null;
}

interface RelatedEntry extends LocalizedData {
  id: string;
  slug: string;
  type: DeliveryType;
}

/** What a page's references resolved to. */
export interface ResolvedReferences {
  entries: ReadonlyMap<string, RelatedEntry>;
  media: ReadonlyMap<string, DeliveryMedia>;
}

/** Parses a JSON column holding an object; anything else reads as empty. */
export function objectColumn(value: unknown): Record<string, unknown> {
  const parsed = fromJsonColumn<unknown>(value, {});
  return isPlainObject(parsed) ? parsed : {};
}

function addIds(value: unknown, list: boolean, into: Set<string>): void {
  if (list) {
    if (Array.isArray(value)) for (const v of value) if (typeof v === 'string') into.add(v);
  } else if (typeof value === 'string') into.add(value);
}

/** Items sharing one projection (entries of one type, or the blocks of one block type). */
export interface ProjectedItems {
  projection: Projection;
  items: LocalizedData[];
}

/**
 * Loads every entry and media asset the projected fields of `items` refer to: at most one query
 * for entries and one for media, run concurrently.
 */
export async function resolveReferences(
  ctx: Context,
  schema: DeliverySchema,
  actor: Actor,
  perspective: Perspective,
  now: string,
  locale: RequestedLocale,
  projection: Projection,
  items: LocalizedData[],
): Promise<ResolvedReferences> {
  return resolveReferenceGroups(ctx, schema, actor, perspective, now, locale, [{ projection, items }]);
}

/**
 * resolveReferences for items of several projections at once (the blocks of a page, one group per
 * block type): ids are collected across every group, then at most one query loads the entries and
 * one the media, whatever the number of groups and items.
 */
export async function resolveReferenceGroups(
  ctx: Context,
  schema: DeliverySchema,
  actor: Actor,
  perspective: Perspective,
  now: string,
  locale: RequestedLocale,
  groups: readonly ProjectedItems[],
): Promise<ResolvedReferences> {
  const entryIds = new Set<string>();
  const mediaIds = new Set<string>();
  for (const { projection, items } of groups) {
    for (const pf of projection.fields) {
      if (pf.kind === 'relation' || pf.kind === 'relation_list') {
        for (const item of items) addIds(localizedValue(pf.field, item.data, item.translation), pf.kind === 'relation_list', entryIds);
      } else if (pf.kind === 'media' || pf.kind === 'media_list') {
        for (const item of items) addIds(localizedValue(pf.field, item.data, item.translation), pf.kind === 'media_list', mediaIds);
      } else if (pf.kind === 'html') {
        for (const item of items) richTextTargets(localizedValue(pf.field, item.data, item.translation), { entries: entryIds, media: mediaIds });
      }
    }
  }
  const [related, media] = await Promise.all([
    findRelatedRows(ctx.db, { workspaceId: schema.workspace.id, ids: [...entryIds], perspective, now, locale: locale.isDefault ? null : locale.locale }),
    findMediaByIds(ctx.db, schema.workspace.id, [...mediaIds]),
  ]);
  const entries = new Map<string, RelatedEntry>();
  for (const row of related) {
    const type = schema.byId.get(row.content_type_id);
    // D13: a related entry of a type outside the key's whitelist resolves to null.
    if (!type || !canReadEntriesOf(actor, type)) continue;
    entries.set(row.id, {
      id: row.id,
      slug: row.slug,
      type,
      data: objectColumn(row.data),
      translation: row.tr_data === null ? null : objectColumn(row.tr_data),
    });
  }
  const mediaById = new Map<string, DeliveryMedia>();
  for (const record of media.values()) mediaById.set(record.id, toDeliveryMedia(ctx.config, record));
  // Every reference is a dependency, resolved or not: its publication changes this answer.
  noteEntries(
    ctx,
    schema.workspace.id,
    [...entryIds].map((id) => ({ id, typeSlug: entries.get(id)?.type.slug ?? null })),
  );
  noteMedia(ctx, schema.workspace.id, mediaIds);
  return { entries, media: mediaById };
}

/**
 * The rich-text link targets of `refs` (D13 visibility already applied): an entry as its id, type
 * slug, slug and display-field value for the same locale; an asset as its delivery media object.
 */
export function richTextLinks(refs: ResolvedReferences): RichTextLinks {
  return {
    entry(id) {
      const rel = refs.entries.get(id);
      if (!rel) return undefined;
      const field = rel.type.display_field ? rel.type.fieldsByName.get(rel.type.display_field) : undefined;
      const value = field ? localizedValue(field, rel.data, rel.translation) : undefined;
      const display = typeof value === 'string' || typeof value === 'number' ? String(value) : null;
      return { id: rel.id, type: rel.type.slug, slug: rel.slug, display: display || null };
    },
    asset: (id) => refs.media.get(id),
  };
}

/** A value of a localized entry for one key: the field itself or a rendering of a rich_text field. */
export function renderKey(sk: SubKey, type: DeliveryType, item: LocalizedData, refs?: ResolvedReferences): unknown {
  const field = type.fieldsByName.get(sk.source);
  if (!field) return undefined;
  const value = localizedValue(field, item.data, item.translation);
  if (value === undefined || sk.kind === 'value') return value;
  return sk.kind === 'html' ? richTextToHtml(value, refs && richTextLinks(refs)) : richTextToText(value);
}

/** Where a resolved relation or asset goes in a traced answer (D140): the trace, its JSONPath, the request's locale. */
export interface RefTrace {
  trace: Trace;
  at: string;
  locale: RequestedLocale;
}

/**
 * The object a relation resolves to: `{id, slug, type}` plus every field of the related entry
 * (`sub` null) or the selected ones; null when the entry is not visible. With `t`, its field values
 * are traced as the related entry's.
 */
export function relatedObject(refs: ResolvedReferences, id: unknown, sub: string[] | null, t: RefTrace | null = null): Record<string, unknown> | null {
  if (typeof id !== 'string') return null;
  const rel = refs.entries.get(id);
  if (!rel) return null;
  const out: Record<string, unknown> = { id: rel.id, slug: rel.slug, type: rel.type.slug };
  const origin = t && entryOrigin(t.trace, { id: rel.id, type: rel.type.slug, slug: rel.slug });
  const traced = (key: string, field: Field, v: unknown, render: 'html' | 'text' | null) =>
    t === null ? v : traceField(t.trace, jsonPath(t.at, key), origin!, field, rel.translation, t.locale, v, render);
  if (sub === null) {
    for (const f of rel.type.fields) {
      const v = localizedValue(f, rel.data, rel.translation);
      if (v !== undefined) out[f.name] = traced(f.name, f, v, null);
    }
    return out;
  }
  for (const name of sub) {
    const sk = subKeyFor(rel.type, name);
    if (!sk) continue;
    const v = renderKey(sk, rel.type, rel, refs);
    if (v !== undefined) out[name] = traced(name, rel.type.fieldsByName.get(sk.source)!, v, sk.kind === 'value' ? null : sk.kind);
  }
  return out;
}

/** The delivery media object for an id, or null when missing or deleted; with `t`, its text fields traced. */
export function mediaObject(refs: ResolvedReferences, id: unknown, t: RefTrace | null = null): DeliveryMedia | null {
  const media = typeof id === 'string' ? (refs.media.get(id) ?? null) : null;
  return media === null || t === null ? media : traceAsset(t.trace, t.at, media);
}
