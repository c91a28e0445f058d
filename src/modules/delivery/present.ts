/**
 * Turns entry rows into delivery entries (docs/api.md "Entries", "Wire format" (D1, D6),
 * "States and scheduling" (D21), "Localization" (D40), "The `fields` parameter" (D41)):
 * the effective status (a due scheduled entry reads as published at its publish_at), `data`
 * resolved for the locale, projected by `fields`, relations and media resolved, then JSON-encoded
 * once; `is_fallback` when a locale was requested.
 */
import type { Context } from '../../context.js';
import type { Actor } from '../auth/permissions.js';
import { effectiveStatus } from '../publishing/states.js';
import { richTextToHtml, richTextToText } from '../richtext/render.js';
import type { Projection } from './fields-selection.js';
import { isFallback, localizedValue, type RequestedLocale } from './localization.js';
import type { DeliveryEntry, DeliverySchema, EntryRow } from './model.js';
import type { Perspective } from '../read/perspective.js';
import { mediaObject, objectColumn, relatedObject, resolveReferences, richTextLinks, type LocalizedData, type ResolvedReferences } from './relations.js';
import { projectedStringify } from '../../lib/json.js';
import { entryOrigin, jsonPath, traceField, type OriginItem, type Trace } from '../read/source-map.js';
import { noteEntries } from '../read/cache-tags.js';

/**
 * Where one item's delivered values go and come from when the answer is traced (D140,
 * src/modules/read/source-map.ts): the trace, the JSONPath of its `data` (as the object it
 * encodes), the item, and the locale the request resolved.
 */
export interface ItemTrace {
  trace: Trace;
  at: string;
  origin: OriginItem;
  locale: RequestedLocale;
}

/**
 * The delivered `data` of one item for `projection`: locale-resolved values, rich-text renderings,
 * relations and media resolved from `refs`. Shared with page blocks (src/modules/pages/delivery.ts).
 * With `t`, every string is traced (source map, stega) where it lands.
 */
export function projectData(projection: Projection, item: LocalizedData, refs: ResolvedReferences, t: ItemTrace | null = null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pf of projection.fields) {
    const value = localizedValue(pf.field, item.data, item.translation);
    if (value === undefined) continue;
    const at = t === null ? '' : jsonPath(t.at, pf.key);
    const sub = t === null ? null : { trace: t.trace, at, locale: t.locale };
    switch (pf.kind) {
      case 'value':
        out[pf.key] = t === null ? value : traceField(t.trace, at, t.origin, pf.field, item.translation, t.locale, value);
        break;
      case 'html':
      case 'text': {
        const rendered = pf.kind === 'html' ? richTextToHtml(value, richTextLinks(refs)) : richTextToText(value);
        out[pf.key] = t === null ? rendered : traceField(t.trace, at, t.origin, pf.field, item.translation, t.locale, rendered, pf.kind);
        break;
      }
      case 'relation':
        out[pf.key] = relatedObject(refs, value, pf.sub, sub);
        break;
      case 'relation_list':
        out[pf.key] = Array.isArray(value)
          ? visibleIds(value, refs.entries).map((id, i) => relatedObject(refs, id, pf.sub, sub && { ...sub, at: jsonPath(at, i) }))
          : [];
        break;
      case 'media':
        out[pf.key] = mediaObject(refs, value, sub);
        break;
      case 'media_list':
        out[pf.key] = Array.isArray(value) ? visibleIds(value, refs.media).map((id, i) => mediaObject(refs, id, sub && { ...sub, at: jsonPath(at, i) })) : [];
        break;
    }
  }
  return out;
}

/** The ids of a list field that resolved (the others are dropped from the list, so traced positions follow the delivered list). */
function visibleIds(value: unknown[], resolved: ReadonlyMap<string, unknown>): string[] {
  return value.filter((id): id is string => typeof id === 'string' && resolved.has(id));
}

/** The delivery entry of `row` (its effective status already applied) with `data` as delivered (JSON-encoded here). */
export function deliveryEntryOf(row: EntryRow, data: Record<string, unknown>): DeliveryEntry {
  return {
    id: row.id,
    content_type_id: row.content_type_id,
    workspace_id: row.workspace_id,
    slug: row.slug,
    status: row.status,
    data: projectedStringify(data),
    position: row.position,
    publish_at: row.publish_at,
    published_at: row.published_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
    created_by: row.created_by,
    updated_by: row.updated_by,
  };
}

/**
 * The delivery entries for `rows` (all of content type `type`, in order). Queries: at most one
 * for related entries and one for media, for the whole page.
 */
export async function presentEntries(
  ctx: Context,
  schema: DeliverySchema,
  actor: Actor,
  perspective: Perspective,
  now: string,
  locale: RequestedLocale,
  projection: Projection,
  rows: EntryRow[],
  tracing: { trace: Trace; at(index: number): string } | null = null,
): Promise<{ entry: DeliveryEntry; isFallback: boolean }[]> {
  const items: LocalizedData[] = rows.map((r) => ({
    data: objectColumn(r.data),
    translation: r.tr_data === null || r.tr_data === undefined ? null : objectColumn(r.tr_data),
  }));
  const refs = await resolveReferences(ctx, schema, actor, perspective, now, locale, projection, items);
  noteEntries(
    ctx,
    schema.workspace.id,
    rows.map((r) => ({ id: r.id, typeSlug: schema.byId.get(r.content_type_id)?.slug ?? null })),
  );
  return rows.map((raw, i) => {
    const row = effectiveStatus(raw, now);
    const fallback = isFallback(locale, items[i].translation !== null);
    const t: ItemTrace | null = tracing && {
      trace: tracing.trace,
      at: tracing.at(i),
      origin: entryOrigin(tracing.trace, { id: row.id, type: schema.byId.get(row.content_type_id)?.slug ?? '', slug: row.slug }),
      locale,
    };
    const entry = deliveryEntryOf(row, projectData(projection, items[i], refs, t));
    if (locale.requested !== null) entry.is_fallback = fallback;
    return { entry, isFallback: fallback };
  });
}
