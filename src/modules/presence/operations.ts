/**
 * Studio presence (docs/workflow.md "Who else is here" (D133)): which people have which entry or
 * page open, across instances. Each open Studio event stream has a row (repository.ts); the
 * Studio says which item it shows with PUT /events/{stream}/presence, and every join, leave and
 * expiry records a `presence` activity row `{item, people}` in the same transaction, which the
 * streams showing that item receive as a `presence` frame (src/modules/live/studio-hub.ts).
 *
 * The rows are the truth, not an instance's memory: a stream lives on one instance while its PUT
 * may reach another. Writes lock the workspace row first, so the people list a row carries is the
 * one after that change, and two changes of one workspace are heard in the order they committed.
 * Activity rows of a change carry `stream` (joined) or `left` (stream ids) besides the frame's
 * `{item, people}`: the instance holding a stream learns from them which item it shows now; the
 * hub strips them from the frame.
 */
import type { Config } from '../../config.js';
import { lockRows } from '../../db/lock.js';
import { withTransaction } from '../../db/transaction.js';
import type { Db } from '../../db/types.js';
import { AppError, notFound } from '../../errors.js';
import { iso, type Clock } from '../../lib/time.js';
import { canReadType, decideItem } from '../access/authorize.js';
import { recordActivity } from '../activity/record.js';
import type { Actor } from '../auth/permissions.js';
import type { Person } from '../notifications/model.js';
import {
  deletePresence,
  deleteRows,
  findPresence,
  insertPresence,
  peopleOn,
  updatePresenceItem,
  workspacesWith,
  type PresenceItem,
  type PresenceRows,
} from './repository.js';

export type { PresenceItem } from './repository.js';

/** Heartbeats a row outlives its last refresh: a stream whose instance stopped drops out after about this many. */
export const PRESENCE_HEARTBEATS = 3;

/** What presence needs of the context (the Studio's hub passes its own deps). */
export interface PresenceCtx {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'liveHeartbeatMs'>;
}
type Ctx = PresenceCtx;

/** When a row written or refreshed at `now` expires. */
export function presenceExpiry(ctx: Pick<Ctx, 'config'>, now: Date): string {
  return iso(new Date(now.getTime() + PRESENCE_HEARTBEATS * ctx.config.liveHeartbeatMs));
}

/** Whether two items are the same (null: none). */
function sameItem(a: PresenceItem | null, b: PresenceItem | null): boolean {
  return a === b || (a !== null && b !== null && a.kind === b.kind && a.id === b.id);
}

function itemOfRow(row: { item_kind: string | null; item_id: string | null }): PresenceItem | null {
  return row.item_kind !== null && row.item_id !== null ? { kind: row.item_kind as PresenceItem['kind'], id: row.item_id } : null;
}

/** Records the `presence` activity of `item` after a change (inside the change's transaction, the workspace locked). */
async function tellPresence(db: Db, at: string, workspaceId: string, item: PresenceItem, change: { stream?: string; left?: string[] }): Promise<Person[]> {
  const people = await peopleOn(db, workspaceId, item, at);
  await recordActivity(db, at, { workspaceId, type: 'presence', item: { kind: item.kind, id: item.id }, data: { item, people, ...change } });
  return people;
}

/** Stores the row of a stream that opened on `instance` for `actor` (showing no item yet). */
export async function openPresence(ctx: Ctx, actor: Actor, streamId: string, instance: string): Promise<void> {
  const now = ctx.clock();
  await insertPresence(ctx.db, {
    stream_id: streamId,
    workspace_id: actor.workspaceId,
    user_id: actor.userId,
    item_kind: null,
    item_id: null,
    since: iso(now),
    instance,
    expires_at: presenceExpiry(ctx, now),
  });
}

/** Throws 404 unless `item` is an entry or page of the actor's workspace the actor may read. */
async function checkItem(db: Db, actor: Actor, item: PresenceItem): Promise<void> {
  if (item.kind === 'entry') {
    const row = await db.kysely
      .selectFrom('entries')
      .innerJoin('content_types', 'content_types.id', 'entries.content_type_id')
      .select('content_types.slug')
      .where('entries.id', '=', item.id)
      .where('entries.workspace_id', '=', actor.workspaceId)
      .executeTakeFirst();
    // A type the person may not read is answered as absent, as everywhere (docs/access.md).
    if (!row || !canReadType(actor, row.slug)) throw notFound('Entry');
    return;
  }
  const row = await db.kysely.selectFrom('pages').select('id').where('id', '=', item.id).where('workspace_id', '=', actor.workspaceId).executeTakeFirst();
  if (!row) throw notFound('Page');
  const denial = decideItem(actor, { resource: 'pages', action: 'read' });
  if (denial) throw new AppError(denial.code, denial.message);
}

/**
 * PUT /events/{stream}/presence: says that the Studio of `streamId` shows `item` now (null:
 * none), and returns the people on that item (the person included; [] for none). Only the
 * stream's own person may: 404 NOT_FOUND for a stream that is unknown, ended, expired or
 * someone else's; 404 for an item that does not exist or that the person may not read.
 * Rule: docs/workflow.md "Who else is here".
 */
export async function setPresence(ctx: Ctx, actor: Actor, streamId: string, item: PresenceItem | null): Promise<{ people: Person[] }> {
  return withTransaction(ctx.db, async (db) => {
    await lockRows(db, 'workspaces', { id: actor.workspaceId });
    const now = ctx.clock();
    const at = iso(now);
    const row = await findPresence(db, streamId, actor.workspaceId, actor.userId, at);
    if (!row) throw notFound('Event stream');
    if (item) await checkItem(db, actor, item);
    const before = itemOfRow(row);
    if (sameItem(before, item)) {
      await updatePresenceItem(db, streamId, item, row.since, presenceExpiry(ctx, now));
      return { people: item ? await peopleOn(db, actor.workspaceId, item, at) : [] };
    }
    await updatePresenceItem(db, streamId, item, at, presenceExpiry(ctx, now));
    if (before) await tellPresence(db, at, actor.workspaceId, before, { left: [streamId] });
    return { people: item ? await tellPresence(db, at, actor.workspaceId, item, { stream: streamId }) : [] };
  });
}

/** Deletes the row of a stream that closed, telling the people on its item. */
export async function closePresence(ctx: Ctx, workspaceId: string, streamId: string): Promise<void> {
  await withTransaction(ctx.db, async (db) => {
    await lockRows(db, 'workspaces', { id: workspaceId });
    const row = await deletePresence(db, streamId);
    const item = row ? itemOfRow(row) : null;
    if (item) await tellPresence(db, iso(ctx.clock()), workspaceId, item, { left: [streamId] });
  });
}

/**
 * Deletes the rows `rows` names (expired ones, or an instance's), telling the people on their
 * items: one transaction per workspace, each row deleted and its leave recorded by exactly one
 * transaction, whichever instance runs it. Returns how many rows it deleted.
 */
async function removeRows(ctx: Ctx, rows: (now: string) => PresenceRows): Promise<number> {
  const workspaces = await workspacesWith(ctx.db, rows(iso(ctx.clock())));
  let removed = 0;
  for (const workspaceId of workspaces) {
    removed += await withTransaction(ctx.db, async (db) => {
      await lockRows(db, 'workspaces', { id: workspaceId });
      const at = iso(ctx.clock());
      const deleted = await deleteRows(db, workspaceId, rows(at));
      const left = new Map<string, { item: PresenceItem; streams: string[] }>();
      for (const row of deleted) {
        const item = itemOfRow(row);
        if (!item) continue;
        const key = `${item.kind}:${item.id}`;
        const entry = left.get(key) ?? { item, streams: [] };
        entry.streams.push(row.stream_id);
        left.set(key, entry);
      }
      for (const { item, streams } of left.values()) await tellPresence(db, at, workspaceId, item, { left: streams });
      return deleted.length;
    });
  }
  return removed;
}

/**
 * Deletes the rows that expired (their instance stopped refreshing them), telling the people on
 * their items; any instance may run it at any time. Returns how many rows it deleted.
 */
export function sweepPresence(ctx: Ctx): Promise<number> {
  return removeRows(ctx, (now) => ({ expiredAt: now }));
}

/** Deletes every row `instance` holds (it shuts down), telling the people on their items. */
export function releaseInstancePresence(ctx: Ctx, instance: string): Promise<number> {
  return removeRows(ctx, () => ({ instance }));
}
