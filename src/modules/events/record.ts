/**
 * Recording change events (docs/api.md "Change events" (D82): events are recorded in the same
 * transaction as the change; docs/front-ends.md "Sync" (D83)). Every write that changes an entry, page, media asset or content type calls
 * recordEvent inside its own transaction, so a committed write always has its event and a
 * rolled-back one never does. The event is then handed to the webhook outbox
 * (src/modules/webhooks/outbox.ts) in the same transaction.
 *
 * Commit order: on PostgreSQL, ids come from a sequence when taken, not when committed; two
 * writers of one workspace could commit ids 8 and 7 in that order, and a sync reader that saw 8
 * would never see 7. recordEvent therefore locks the workspace row (held until commit) before
 * taking an id: per workspace, ids are assigned in commit order. SQLite has one writer at a time.
 */
import { lockRowsForCommitOrder } from '../../db/lock.js';
import type { Db } from '../../db/types.js';
import { iso } from '../../lib/time.js';
import { deliveryRow, enqueueDeliveries, eventPayload } from '../webhooks/outbox.js';
import { matchesEvent } from '../webhooks/events.js';
import { enabledWebhooks, insertDeliveries } from '../webhooks/repository.js';
import { afterCommit, inTransaction } from '../../db/transaction.js';
import { insertEvent, insertEvents, itemSubjects, notifyEvents, type ItemSubject } from './repository.js';

/** Kinds of items events are about. */
export type EventItemKind = 'entry' | 'page' | 'media' | 'content_type' | 'release';

/** What happened to an entry or page (D82; `stage_changed`: a review workflow move, docs/workflow.md). */
export type ItemAction = 'created' | 'updated' | 'deleted' | 'published' | 'unpublished' | 'archived' | 'scheduled' | 'restored' | 'stage_changed';

/** D82 event types: `entry.<action>`, `page.<action>`, `media.created|updated|deleted`, `content_type.created|updated|deleted`. */
export type EventType = `${'entry' | 'page'}.${ItemAction}` | `${'media' | 'content_type'}.${'created' | 'updated' | 'deleted'}` | `release.${ReleaseAction}`;

/** What happened to a release (D112): scheduled, published (now or at its time), failed (a scheduled publication). */
export type ReleaseAction = 'scheduled' | 'published' | 'failed';

/** One event to record. */
export interface EventInput {
  workspaceId: string;
  type: EventType;
  itemKind: EventItemKind;
  itemId: string;
  slug?: string | null;
  /** An entry's content type slug (a content type event: its own slug). */
  contentType?: string | null;
  status?: string | null;
  /** The item's history version after the write (D72). */
  version?: number | null;
  /**
   * Whether production readers may see the change (D83: a production sync delta lists only these).
   * By default: for an entry or page, whether it is published after the write; any other change is.
   */
  live?: boolean;
  /** `<kind>.stage_changed`: the stage the item entered (webhook payloads carry it as `data.stage`). */
  stage?: { id: string; name: string };
}

/** The stored form of an event input at `createdAt` (absent facts as null). */
function eventOf(input: EventInput, createdAt: string) {
  return {
    workspaceId: input.workspaceId,
    type: input.type,
    itemKind: input.itemKind,
    itemId: input.itemId,
    slug: input.slug ?? null,
    contentType: input.contentType ?? null,
    status: input.status ?? null,
    version: input.version ?? null,
    createdAt,
    live: input.live ?? (input.itemKind === 'entry' || input.itemKind === 'page' ? input.status === 'published' : true),
    ...(input.stage ? { stage: input.stage } : {}),
  };
}

/**
 * Records one event inside the write's transaction `trx` (call inside withTransaction) at `at`,
 * then enqueues its webhook deliveries. Returns the event id. On PostgreSQL the workspace row
 * stays locked until the transaction ends (commit-order ids, see above).
 */
export async function recordEvent(trx: Db, at: Date | string, input: EventInput): Promise<number> {
  await lockRowsForCommitOrder(trx, 'workspaces', { id: input.workspaceId });
  const event = eventOf(input, typeof at === 'string' ? at : iso(at));
  const id = await insertEvent(trx, event);
  await enqueueDeliveries(trx, { id, ...event });
  await announce(trx, [input.workspaceId]);
  return id;
}

/**
 * Records `inputs` in this order as recordEvent would one by one, in a few statements (bulk
 * writers: the Contentful importer): the workspace rows are locked first (PostgreSQL, in id
 * order), the events inserted, and the deliveries of every matching enabled webhook enqueued.
 */
export async function recordEvents(trx: Db, at: Date | string, inputs: readonly EventInput[]): Promise<void> {
  if (inputs.length === 0) return;
  const workspaces = [...new Set(inputs.map((e) => e.workspaceId))].sort();
  for (const id of workspaces) await lockRowsForCommitOrder(trx, 'workspaces', { id });
  const createdAt = typeof at === 'string' ? at : iso(at);
  const events = inputs.map((input) => eventOf(input, createdAt));
  const ids = await insertEvents(trx, events);
  const hooks = new Map<string, Awaited<ReturnType<typeof enabledWebhooks>>>();
  for (const id of workspaces) hooks.set(id, await enabledWebhooks(trx, id));
  const deliveries = events.flatMap((e, i) =>
    hooks
      .get(e.workspaceId)!
      .filter((w) => matchesEvent(JSON.parse(w.events) as string[], JSON.parse(w.content_types) as string[], e.type, e.contentType))
      .map((w) => deliveryRow(w.id, e.workspaceId, ids[i], e.type, eventPayload(e), e.createdAt)),
  );
  for (let i = 0; i < deliveries.length; i += 200) await insertDeliveries(trx, deliveries.slice(i, i + 200));
  await announce(trx, workspaces);
}

/** The workspaces each open transaction (its handle) has announced, so a write of many items announces each once. */
const announced = new WeakMap<Db, Set<string>>();

/**
 * Announces new events (or Studio activity rows, src/modules/activity/record.ts) of these
 * workspaces to live readers (docs/front-ends.md "Live updates", D142), once per transaction and workspace: on PostgreSQL a notification delivered at commit to
 * every instance; in this process the database handle's eventWatchers, called after the commit.
 * A rolled-back write announces nothing.
 */
export async function announce(trx: Db, workspaceIds: readonly string[]): Promise<void> {
  // Outside a transaction every call announces (its write has committed already).
  let done = inTransaction(trx) ? announced.get(trx) : new Set<string>();
  if (!done) {
    done = new Set();
    announced.set(trx, done);
  }
  const fresh = workspaceIds.filter((id) => !done.has(id));
  if (fresh.length === 0) return;
  for (const id of fresh) {
    done.add(id);
    await notifyEvents(trx, id);
  }
  afterCommit(trx, () => {
    for (const watch of trx.memo.eventWatchers) for (const id of fresh) watch(id);
  });
}

/**
 * Whether production readers may see a change of an entry or page (D83), given the item's row
 * after the write: `true`/`false` as the writer knows it, or a rule of the row. The default,
 * `visibleToProduction`, fits writes after which the item is live exactly when production saw the
 * change: a publication, a deletion (the row as it was), a position change. Writers whose change
 * production sees although the item is no longer live (unpublish, archive) or does not see
 * although it is (a working copy saved) say so.
 */
export type LiveRule = boolean | ((subject: ItemSubject) => boolean);

/** Whether production readers see this entry or page at `at`: published, or scheduled and due (D21). */
export function visibleToProduction(subject: Pick<ItemSubject, 'status' | 'publishAt'>, at: Date | string): boolean {
  if (subject.status === 'published') return true;
  const now = typeof at === 'string' ? at : iso(at);
  return subject.status === 'scheduled' && subject.publishAt !== null && subject.publishAt <= now;
}

/**
 * Records `<kind>.<action>` for each of these entries or pages as their rows now are (slug,
 * status, history version; an entry's content type slug), live by `live` (see LiveRule). Ids
 * without a row are skipped, so a deletion must be recorded before the row goes.
 */
export async function recordItemEvents(
  trx: Db,
  at: Date | string,
  kind: 'entry' | 'page',
  ids: readonly string[],
  action: ItemAction,
  live: LiveRule = (s) => visibleToProduction(s, at),
): Promise<void> {
  const subjects = await itemSubjects(trx, kind, ids);
  // Workspace order: a multi-workspace batch (the scheduler) takes its workspace locks in one order.
  subjects.sort((a, b) => (a.workspaceId < b.workspaceId ? -1 : a.workspaceId > b.workspaceId ? 1 : 0));
  for (const s of subjects) await recordEvent(trx, at, subjectEvent(kind, s, action, live));
}

/**
 * recordItemEvents for many items in a few statements (recordEvents): a release's publication
 * records its items' events together, in the same transaction.
 */
export async function recordItemEventsAtOnce(
  trx: Db,
  at: Date | string,
  kind: 'entry' | 'page',
  ids: readonly string[],
  action: ItemAction,
  live: LiveRule = (s) => visibleToProduction(s, at),
): Promise<void> {
  if (ids.length === 0) return;
  const subjects = await itemSubjects(trx, kind, ids);
  await recordEvents(
    trx,
    at,
    subjects.map((s) => subjectEvent(kind, s, action, live)),
  );
}

function subjectEvent(kind: 'entry' | 'page', s: ItemSubject, action: ItemAction, live: LiveRule): EventInput {
  return {
    live: typeof live === 'boolean' ? live : live(s),
    workspaceId: s.workspaceId,
    type: `${kind}.${action}`,
    itemKind: kind,
    itemId: s.id,
    slug: s.slug,
    contentType: s.contentType,
    status: s.status,
    version: s.version,
  };
}

/** Records `media.<action>` for asset `id` of `workspaceId` (media have no slug, status or version). */
export function recordMediaEvent(trx: Db, at: Date | string, workspaceId: string, id: string, action: 'created' | 'updated' | 'deleted'): Promise<number> {
  return recordEvent(trx, at, { workspaceId, type: `media.${action}`, itemKind: 'media', itemId: id });
}

/** Records `content_type.<action>` for content type `ct` (its slug as both slug and content type; field changes are `updated`). */
export function recordContentTypeEvent(
  trx: Db,
  at: Date | string,
  ct: { id: string; workspace_id: string; slug: string },
  action: 'created' | 'updated' | 'deleted',
): Promise<number> {
  return recordEvent(trx, at, {
    workspaceId: ct.workspace_id,
    type: `content_type.${action}`,
    itemKind: 'content_type',
    itemId: ct.id,
    slug: ct.slug,
    contentType: ct.slug,
  });
}

/**
 * Records `release.<action>` for release `release` (its title as the event's slug, its status
 * after the change), in the transaction of the change.
 */
export function recordReleaseEvent(
  trx: Db,
  at: Date | string,
  release: { id: string; workspace_id: string; title: string; status: string },
  action: ReleaseAction,
): Promise<number> {
  return recordEvent(trx, at, {
    workspaceId: release.workspace_id,
    type: `release.${action}`,
    itemKind: 'release',
    itemId: release.id,
    slug: release.title,
    status: release.status,
  });
}
