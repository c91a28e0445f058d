/**
 * Sync (docs/front-ends.md "Sync" (D83)): a client mirrors everything a delivery key may see and then keeps
 * its copy current with deltas.
 *
 * - `initial=true` lists every visible item: entries of the types the key may read (content in
 *   the default locale plus every translation), pages (SEO, block tree, translations), media; by
 *   kind, each in id order, up to 100 per response with `next_page_token`, the last response
 *   carrying `next_sync_token`. The event id the sync starts from is fixed on its first page, so
 *   whatever changes while the client pages arrives again in the next delta (at least once).
 * - `sync_token=T` reads the workspace's change events after the token's event id (migration 010,
 *   ids are in commit order per workspace, so none is skipped) and answers each changed item in
 *   its CURRENT state: visible → the full item; otherwise (deleted, unpublished, archived, out of
 *   the key's view) → `deleted_<kind>` with its id and last slug. Up to 100 items per response;
 *   more → `next_page_token`, else `next_sync_token`.
 * - A delta lists exactly what the key can see changed: a production key (and a release read)
 *   only reads live events (migration 026: a working copy saved, a draft created or deleted are
 *   not), and no key is told of the removal of an item created after its token (it never saw it).
 * - Tokens are bound to the workspace, the perspective (the key's visibility or the release) and
 *   the key's content type whitelist (token.ts).
 *
 * Item content is not resolved against other items (relation and media fields hold ids, rich
 * text its document), so an item changes only when its own events say so.
 */
import type { Context } from '../../context.js';
import { invalid } from '../../errors.js';
import { iso } from '../../lib/time.js';
import type { Actor } from '../auth/permissions.js';
import type { DeliveryEntry, DeliverySchema } from '../delivery/model.js';
import { deliveryEntryOf } from '../delivery/present.js';
import { objectColumn } from '../delivery/relations.js';
import { loadDeliverySchema } from '../delivery/schema-cache.js';
import { canReadEntriesOf } from '../delivery/visibility.js';
import { lastEventId, listEventsAfter, type EventRecord } from '../events/repository.js';
import { toDeliveryMedia, type DeliveryMedia } from '../media/model.js';
import { perspectiveBinding, perspectiveOf, releaseOf } from '../read/perspective.js';
import { releaseItemsRevision } from '../releases/repository.js';
import { findDeliveryBlockRows, listDeliveryBlockTranslations, listDeliverySeoTranslations } from '../pages/delivery-repository.js';
import type { Block, Page, PageContent } from '../pages/model.js';
import { toPage } from '../pages/repository.js';
import { pickSeo } from '../pages/seo.js';
import { effectiveStatus } from '../publishing/states.js';
import { syncEntryRows, syncEntryTranslations, syncMediaRows, syncPageRows, type RowSelection, type SyncQuery } from './repository.js';
import { noteAnyChange } from '../read/cache-tags.js';
import { decodeSyncToken, encodeSyncToken, whitelistBinding, type SyncPhase, type SyncPosition, type SyncScope } from './token.js';

/** Most items in one response (D83). */
export const SYNC_PAGE_SIZE = 100;
/** Events read per query while collecting a delta page. */
const EVENT_BATCH = 500;

export interface SyncInput {
  initial?: boolean;
  page_token?: string;
  sync_token?: string;
}

/** A visible entry: the delivery entry (default-locale `data`) with its content type slug and every translation. */
export interface SyncEntry {
  kind: 'entry';
  contentType: string;
  entry: DeliveryEntry;
  translations: { locale: string; data: Record<string, unknown> }[];
}

/** A visible page with its blocks (default-locale data, unresolved) and every translation. */
export interface SyncPage {
  kind: 'page';
  content: PageContent;
}

export interface SyncMedia {
  kind: 'media';
  media: DeliveryMedia;
}

/** An item the key can no longer see (or that is gone). */
export interface SyncDeleted {
  kind: 'deleted_entry' | 'deleted_page' | 'deleted_media';
  id: string;
  slug: string | null;
  contentType: string | null;
}

export type SyncItem = SyncEntry | SyncPage | SyncMedia | SyncDeleted;

export interface SyncMeta {
  page_size: number;
  next_page_token: string | null;
  next_sync_token: string | null;
}

interface SyncRun {
  ctx: Context;
  scope: SyncScope;
  query: SyncQuery;
  schema: DeliverySchema;
  /** Content type ids whose entries the key may read. */
  typeIds: string[];
  /** Only events production readers can see (migration 026): every perspective but the working copies'. */
  liveOnly: boolean;
}

/**
 * GET /sync. Exactly one of `initial=true`, `page_token`, `sync_token`; tokens are checked for
 * the key (400 VALIDATION_FAILED at the parameter: altered, another workspace, other visibility).
 */
export async function sync(ctx: Context, actor: Actor, input: SyncInput): Promise<{ items: SyncItem[]; meta: SyncMeta }> {
  const given = [input.initial === true, input.page_token !== undefined, input.sync_token !== undefined].filter(Boolean).length;
  if (given !== 1) throw invalid('query', 'pass exactly one of initial=true, page_token or sync_token');
  const schema = await loadDeliverySchema(ctx, actor);
  // A delta may list any change of the workspace.
  noteAnyChange(ctx, actor.workspaceId);
  const perspective = perspectiveOf(actor);
  // Tokens carry the wire's word for the perspective (the key's visibility, or the release).
  const release = releaseOf(perspective);
  const scope: SyncScope = {
    workspaceId: actor.workspaceId,
    perspective: perspectiveBinding(perspective),
    whitelist: whitelistBinding(actor.contentTypes),
    ...(release === null ? {} : { releaseRevision: await releaseItemsRevision(ctx.db, release) }),
  };
  const run: SyncRun = {
    ctx,
    scope,
    // Working copies are the preview key's; every other perspective reads published content.
    liveOnly: perspective !== 'working',
    query: { workspaceId: actor.workspaceId, perspective, now: iso(ctx.clock()) },
    schema,
    typeIds: schema.types.filter((t) => canReadEntriesOf(actor, t)).map((t) => t.id),
  };
  let position: SyncPosition;
  if (input.initial) {
    // Read before any item: a change after this id is sent again by the next delta.
    position = { kind: 'initial', cutoff: await lastEventId(ctx.db, actor.workspaceId), phase: 'entry', after: null };
  } else if (input.page_token !== undefined) {
    position = decodeSyncToken(ctx.secret, scope, input.page_token, 'page_token', false);
  } else {
    position = decodeSyncToken(ctx.secret, scope, input.sync_token!, 'sync_token', true);
  }
  return position.kind === 'initial' ? initialPage(run, position) : deltaPage(run, position.cutoff, position.horizon ?? position.cutoff);
}

const NEXT_PHASE: Record<SyncPhase, SyncPhase | null> = { entry: 'page', page: 'media', media: null };

async function initialPage(run: SyncRun, start: Extract<SyncPosition, { kind: 'initial' }>): Promise<{ items: SyncItem[]; meta: SyncMeta }> {
  const items: SyncItem[] = [];
  let phase: SyncPhase | null = start.phase;
  let after = start.after;
  while (phase !== null) {
    // One row more than room tells whether this phase has more.
    const room = SYNC_PAGE_SIZE - items.length;
    const found = await readItems(run, phase, { after, limit: room + 1 });
    items.push(...found.slice(0, room));
    if (found.length > room) {
      after = idOf(items[items.length - 1]);
      return finish(run, items, { kind: 'initial', cutoff: start.cutoff, phase, after }, false);
    }
    phase = NEXT_PHASE[phase];
    after = null;
    if (items.length === SYNC_PAGE_SIZE && phase !== null) {
      return finish(run, items, { kind: 'initial', cutoff: start.cutoff, phase, after: null }, false);
    }
  }
  // Read after every row of the sync: an item any of its pages showed was created by then.
  return finish(run, items, { kind: 'delta', cutoff: start.cutoff, horizon: await lastEventId(run.ctx.db, run.scope.workspaceId) }, true);
}

/**
 * The items changed after event `cutoff`, up to SYNC_PAGE_SIZE distinct ones. Events are
 * consumed in id order; the page ends before the event that would add a 101st item, and the
 * next token starts after the last event consumed. An item created after `horizon` (the last
 * event whose items the client may hold: `cutoff`, or later after an initial sync) was never in
 * the client's copy, so if it is gone (or out of view) again it is left out rather than reported
 * removed.
 */
async function deltaPage(run: SyncRun, cutoff: number, horizon: number): Promise<{ items: SyncItem[]; meta: SyncMeta }> {
  const changed = new Map<string, EventRecord>();
  const born = new Set<string>();
  let last = cutoff;
  let more = true;
  collect: while (more) {
    const events = await listEventsAfter(run.ctx.db, run.scope.workspaceId, last, EVENT_BATCH);
    more = events.length === EVENT_BATCH;
    for (const e of events) {
      const key = `${e.itemKind}:${e.itemId}`;
      if (syncable(run, e) && !changed.has(key)) {
        if (changed.size === SYNC_PAGE_SIZE) {
          more = true;
          break collect;
        }
        changed.set(key, e);
      } else if (changed.has(key) && (e.live || !run.liveOnly)) {
        changed.set(key, e);
      }
      if (e.type.endsWith('.created') && e.id > horizon) born.add(key);
      last = e.id;
    }
  }
  const items = await currentStates(run, [...changed.values()], born);
  return finish(run, items, { kind: 'delta', cutoff: last, horizon }, !more);
}

/**
 * Events that concern sync items the key may see: entries of readable types, pages, media; for
 * a reader of published content only the live ones (a working copy saved, a draft created or
 * deleted change nothing it reads).
 */
function syncable(run: SyncRun, e: EventRecord): boolean {
  if (run.liveOnly && !e.live) return false;
  if (e.itemKind === 'page' || e.itemKind === 'media') return true;
  if (e.itemKind !== 'entry') return false;
  const type = e.contentType === null ? undefined : run.schema.bySlug.get(e.contentType);
  // A type deleted since still had its entries deleted first: their removal is sent.
  return type === undefined || run.typeIds.includes(type.id);
}

/**
 * Each changed item as it is now: visible → the item, else `deleted_<kind>` unless it was created
 * after the token (`born`: the client never saw it). In event order.
 */
async function currentStates(run: SyncRun, events: EventRecord[], born: ReadonlySet<string>): Promise<SyncItem[]> {
  const byKind = (kind: string) => events.filter((e) => e.itemKind === kind).map((e) => e.itemId);
  const found = new Map<string, SyncItem>();
  for (const phase of ['entry', 'page', 'media'] as const) {
    const ids = byKind(phase);
    if (ids.length === 0) continue;
    for (const item of await readItems(run, phase, { ids })) found.set(`${phase}:${idOf(item)}`, item);
  }
  return events.flatMap((e): SyncItem[] => {
    const key = `${e.itemKind}:${e.itemId}`;
    const item = found.get(key);
    if (item) return [item];
    if (born.has(key)) return [];
    return [{ kind: `deleted_${e.itemKind as SyncPhase}`, id: e.itemId, slug: e.slug, contentType: e.contentType }];
  });
}

function idOf(item: SyncItem): string {
  switch (item.kind) {
    case 'entry':
      return item.entry.id;
    case 'page':
      return item.content.page.id;
    case 'media':
      return item.media.id;
    default:
      return item.id;
  }
}

async function readItems(run: SyncRun, phase: SyncPhase, selection: RowSelection): Promise<SyncItem[]> {
  const { ctx, query } = run;
  if (phase === 'media')
    return (await syncMediaRows(ctx.db, query.workspaceId, selection)).map((m) => ({ kind: 'media', media: toDeliveryMedia(ctx.config, m) }));
  if (phase === 'page') return Promise.all((await syncPageRows(ctx.db, query, selection)).map((row) => pageItem(run, toPage(row))));
  const rows = await syncEntryRows(ctx.db, query, run.typeIds, selection);
  const translations = await syncEntryTranslations(
    ctx.db,
    query.perspective,
    query.now,
    rows.map((r) => r.id),
  );
  return rows.map((raw) => {
    const row = effectiveStatus(raw, query.now);
    const entry = deliveryEntryOf(row, objectColumn(row.data));
    return {
      kind: 'entry',
      contentType: run.schema.byId.get(row.content_type_id)?.slug ?? '',
      entry,
      translations: translations.filter((t) => t.entry_id === row.id).map((t) => ({ locale: t.locale, data: objectColumn(t.data) })),
    };
  });
}

/** A page with its stored blocks and translations as the key reads them (block data unresolved). */
async function pageItem(run: SyncRun, stored: Page): Promise<SyncPage> {
  const { ctx, query, schema } = run;
  const page = effectiveStatus(stored, query.now);
  const [blockRows, seo, blockTr] = await Promise.all([
    findDeliveryBlockRows(ctx.db, page.id, null, query.perspective, query.now),
    listDeliverySeoTranslations(ctx.db, page.id, query.perspective, query.now),
    listDeliveryBlockTranslations(ctx.db, page.id, query.perspective, query.now),
  ]);
  const blocks: Block[] = [];
  for (const r of blockRows) {
    const type = schema.byId.get(r.block_type_id);
    if (!type) continue;
    blocks.push({
      id: r.id,
      page_id: r.page_id,
      block_type_id: r.block_type_id,
      type: type.slug,
      parent_id: r.parent_id,
      position: Number(r.position),
      data: objectColumn(r.data),
    });
  }
  return {
    kind: 'page',
    content: {
      page,
      blocks,
      seoTranslations: seo.map((t) => ({ id: t.id, locale: t.locale, page_id: t.page_id, seo: pickSeo(objectColumn(t.seo)) })),
      blockTranslations: blockTr.map((t) => ({ id: t.id, block_id: t.block_id, locale: t.locale, data: objectColumn(t.data) })),
    },
  };
}

function finish(run: SyncRun, items: SyncItem[], next: SyncPosition, done: boolean): { items: SyncItem[]; meta: SyncMeta } {
  const token = encodeSyncToken(run.ctx.secret, run.scope, next);
  return { items, meta: { page_size: items.length, next_page_token: done ? null : token, next_sync_token: done ? token : null } };
}
