/**
 * SQL of the change-event log (migration 010; docs/api.md "Change events" (D82); docs/front-ends.md
 * "Sync" (D83)): insert one event, read a
 * workspace's events after an id, and read what an event says about entries and pages (their
 * workspace, slug, content type slug, status and history version) when a write changed several
 * rows at once (the scheduler, reorders).
 */
import { notifyOnCommit } from '../../db/notify.js';
import type { Db } from '../../db/types.js';
import type { OutboxEvent } from '../webhooks/outbox.js';

/**
 * An event row as stored, camelCased, ids as numbers on both dialects: the shape the webhook
 * outbox receives, with `live`: whether production readers may see the change (migration 026,
 * D83; events recorded before it count as live).
 */
export type EventRecord = OutboxEvent & { live: boolean };

/** The columns of an event row. */
function eventColumns(e: Omit<EventRecord, 'id'>) {
  return {
    workspace_id: e.workspaceId,
    type: e.type,
    item_kind: e.itemKind,
    item_id: e.itemId,
    slug: e.slug,
    content_type: e.contentType,
    status: e.status,
    version: e.version,
    created_at: e.createdAt,
    live: e.live ? 1 : 0,
  };
}

/** Inserts one event and returns its id (PostgreSQL's bigint comes back as text). */
export async function insertEvent(db: Db, e: Omit<EventRecord, 'id'>): Promise<number> {
  const row = await db.kysely.insertInto('events').values(eventColumns(e)).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * Inserts events in one statement per 500 and returns their ids in the order given. Ids are
 * taken in row order on both databases (a sequence or SQLite's rowid), so the returned ids
 * sorted ascending belong to the rows in that order, whatever order RETURNING lists them in.
 */
export async function insertEvents(db: Db, events: readonly Omit<EventRecord, 'id'>[]): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < events.length; i += 500) {
    const rows = await db.kysely
      .insertInto('events')
      .values(events.slice(i, i + 500).map(eventColumns))
      .returning('id')
      .execute();
    ids.push(...rows.map((r) => Number(r.id)).sort((a, b) => a - b));
  }
  return ids;
}

/**
 * The PostgreSQL channel on which a committed write's events are announced (payload: the
 * workspace id); the live stream's readers LISTEN on it (src/modules/live/transports.ts).
 */
export const EVENTS_CHANNEL = 'quire_events';

/**
 * PostgreSQL: announces new events of `workspaceId` on EVENTS_CHANNEL inside the write's
 * transaction `trx`; PostgreSQL delivers the notification when (and only if) it commits, once
 * per transaction and workspace. SQLite: nothing (one process; record.ts wakes its readers).
 */
export async function notifyEvents(trx: Db, workspaceId: string): Promise<void> {
  await notifyOnCommit(trx, EVENTS_CHANNEL, workspaceId);
}

/** The creation time of the workspace's first event with id > `afterId`, null when there is none. */
export async function firstEventTimeAfter(db: Db, workspaceId: string, afterId: number): Promise<string | null> {
  const row = await db.kysely
    .selectFrom('events')
    .select('created_at')
    .where('workspace_id', '=', workspaceId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.created_at ?? null;
}

/** Up to `limit` events of the workspace with id > `afterId`, oldest first. */
export async function listEventsAfter(db: Db, workspaceId: string, afterId: number, limit: number): Promise<EventRecord[]> {
  const rows = await db.kysely
    .selectFrom('events')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    workspaceId: r.workspace_id,
    type: r.type,
    itemKind: r.item_kind,
    itemId: r.item_id,
    slug: r.slug,
    contentType: r.content_type,
    status: r.status,
    version: r.version === null ? null : Number(r.version),
    createdAt: r.created_at,
    live: r.live === null || Number(r.live) === 1,
  }));
}

/** The workspace's newest event id, 0 without events. */
export async function lastEventId(db: Db, workspaceId: string): Promise<number> {
  const row = await db.kysely
    .selectFrom('events')
    .select((eb) => eb.fn.max('id').as('last'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  return row?.last === null || row?.last === undefined ? 0 : Number(row.last);
}

/** What an event records of an entry or page row, and its `publish_at` (whether a scheduled row is due). */
export interface ItemSubject {
  id: string;
  workspaceId: string;
  slug: string;
  contentType: string | null;
  status: string;
  version: number;
  publishAt: string | null;
}

/** The subjects of the entries (with their content type slug) or pages with these ids; absent ids are left out. */
export async function itemSubjects(db: Db, kind: 'entry' | 'page', ids: readonly string[]): Promise<ItemSubject[]> {
  if (ids.length === 0) return [];
  if (kind === 'entry') {
    const rows = await db.kysely
      .selectFrom('entries')
      .innerJoin('content_types', 'content_types.id', 'entries.content_type_id')
      .select([
        'entries.id',
        'entries.workspace_id',
        'entries.slug',
        'entries.status',
        'entries.latest_version',
        'entries.publish_at',
        'content_types.slug as ct_slug',
      ])
      .where('entries.id', 'in', ids)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      workspaceId: r.workspace_id,
      slug: r.slug,
      contentType: r.ct_slug,
      status: r.status,
      version: Number(r.latest_version),
      publishAt: r.publish_at,
    }));
  }
  const rows = await db.kysely
    .selectFrom('pages')
    .select(['id', 'workspace_id', 'slug', 'status', 'latest_version', 'publish_at'])
    .where('id', 'in', ids)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    workspaceId: r.workspace_id,
    slug: r.slug,
    contentType: null,
    status: r.status,
    version: Number(r.latest_version),
    publishAt: r.publish_at,
  }));
}
