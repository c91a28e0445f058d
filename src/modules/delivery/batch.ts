/**
 * Batched reads of delivered entries and media by id (docs/graphql.md "Relations", D102): what
 * GraphQL's per-request loaders call once per level of a query, whatever the number of items on
 * that level. Visibility is REST's: the read model's perspective decides which entries and which
 * copy are read (findEntryRowsByIds: visibleCondition), the key's whitelist which types
 * (canReadEntriesOf, D13); an entry outside either is absent from the answer, as a related entry
 * resolves to null in REST (relations.ts). Media: the workspace's live assets only.
 */
import type { Context } from '../../context.js';
import { isUuid } from '../../lib/ids.js';
import type { Actor } from '../auth/permissions.js';
import { toDeliveryMedia, type DeliveryMedia } from '../media/model.js';
import { findMediaByIds } from '../media/repository.js';
import { effectiveStatus } from '../publishing/states.js';
import { perspectiveOf } from '../read/perspective.js';
import type { RequestedLocale } from './localization.js';
import type { DeliverySchema, DeliveryType, EntryRow } from './model.js';
import { findEntryRowsByIds } from './query/repository.js';
import { canReadEntriesOf } from './visibility.js';
import { noteEntries, noteMedia } from '../read/cache-tags.js';

/** A visible entry with its type; `row.status` is its effective status at `now` (D21). */
export interface VisibleEntry {
  row: EntryRow;
  type: DeliveryType;
}

/** The entries among `ids` the key may see at `now`, with their translations in `locale`: one query. */
export async function readEntriesByIds(
  ctx: Context,
  actor: Actor,
  schema: DeliverySchema,
  locale: RequestedLocale,
  now: string,
  ids: readonly string[],
): Promise<Map<string, VisibleEntry>> {
  const out = new Map<string, VisibleEntry>();
  // A stored reference that is no id (data written before validation existed) matches nothing.
  const wanted = [...new Set(ids)].filter(isUuid);
  const rows = await findEntryRowsByIds(ctx.db, {
    workspaceId: schema.workspace.id,
    ids: wanted,
    perspective: perspectiveOf(actor),
    now,
    locale: locale.isDefault ? null : locale.locale,
  });
  for (const row of rows) {
    const type = schema.byId.get(row.content_type_id);
    if (!type || !canReadEntriesOf(actor, type)) continue;
    out.set(row.id, { row: effectiveStatus(row, now), type });
  }
  // Every id asked for is a dependency, found or not: its publication changes the answer.
  noteEntries(
    ctx,
    schema.workspace.id,
    wanted.map((id) => ({ id, typeSlug: out.get(id)?.type.slug ?? null })),
  );
  return out;
}

/** The workspace's live assets among `ids` as delivery objects (D41, D51): one query. */
export async function readMediaByIds(ctx: Context, workspaceId: string, ids: readonly string[]): Promise<Map<string, DeliveryMedia>> {
  const wanted = [...new Set(ids)].filter(isUuid);
  noteMedia(ctx, workspaceId, wanted);
  const records = await findMediaByIds(ctx.db, workspaceId, wanted);
  const out = new Map<string, DeliveryMedia>();
  for (const record of records.values()) out.set(record.id, toDeliveryMedia(ctx.config, record));
  return out;
}
