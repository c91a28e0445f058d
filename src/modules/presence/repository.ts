/**
 * SQL of Studio presence (migration 034; docs/workflow.md "Who else is here" (D133)): a row per
 * open Studio event stream, the item it shows, and the instance keeping it alive.
 */
import type { ExpressionBuilder } from 'kysely';
import type { Database, Db, PresenceTable } from '../../db/types.js';
import type { Person } from '../notifications/model.js';

/** A presence row's item key. */
export interface PresenceItem {
  kind: 'entry' | 'page';
  id: string;
}

/** Inserts the row of a stream that opened (showing no item yet). */
export async function insertPresence(db: Db, row: PresenceTable): Promise<void> {
  await db.kysely.insertInto('presence').values(row).execute();
}

/** The live row of `streamId` in `workspaceId` held by `userId` (not expired at `now`), or undefined. */
export async function findPresence(db: Db, streamId: string, workspaceId: string, userId: number, now: string): Promise<PresenceTable | undefined> {
  return db.kysely
    .selectFrom('presence')
    .selectAll()
    .where('stream_id', '=', streamId)
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Points `streamId`'s row at `item` (or none) from `since`, and keeps it alive until `expiresAt`. */
export async function updatePresenceItem(db: Db, streamId: string, item: PresenceItem | null, since: string, expiresAt: string): Promise<void> {
  await db.kysely
    .updateTable('presence')
    .set({ item_kind: item?.kind ?? null, item_id: item?.id ?? null, since, expires_at: expiresAt })
    .where('stream_id', '=', streamId)
    .execute();
}

/** Deletes `streamId`'s row; returns it as it was, or undefined when it was gone already. */
export async function deletePresence(db: Db, streamId: string): Promise<Pick<PresenceTable, 'item_kind' | 'item_id'> | undefined> {
  return db.kysely.deleteFrom('presence').where('stream_id', '=', streamId).returning(['item_kind', 'item_id']).executeTakeFirst();
}

/** Pushes the expiry of every row `instance` holds to `expiresAt`; returns how many rows it holds. */
export async function refreshInstancePresence(db: Db, instance: string, expiresAt: string): Promise<number> {
  const res = await db.kysely.updateTable('presence').set({ expires_at: expiresAt }).where('instance', '=', instance).executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** The stream ids `instance` holds rows of. */
export async function instanceStreams(db: Db, instance: string): Promise<Set<string>> {
  const rows = await db.kysely.selectFrom('presence').select('stream_id').where('instance', '=', instance).execute();
  return new Set(rows.map((r) => r.stream_id));
}

/** Which rows a bulk removal takes: those expired at `expiredAt`, or those `instance` holds. */
export type PresenceRows = { expiredAt: string } | { instance: string };

/** The condition of `rows`. */
const matching = (rows: PresenceRows) => (eb: ExpressionBuilder<Database, 'presence'>) =>
  'expiredAt' in rows ? eb('expires_at', '<=', rows.expiredAt) : eb('instance', '=', rows.instance);

/** The workspaces holding such rows (a bulk removal's cheap first look). */
export async function workspacesWith(db: Db, rows: PresenceRows): Promise<string[]> {
  const found = await db.kysely.selectFrom('presence').select('workspace_id').distinct().where(matching(rows)).execute();
  return found.map((r) => r.workspace_id);
}

/** Deletes such rows of `workspaceId`; returns the rows this call deleted (not those another deleted first). */
export async function deleteRows(db: Db, workspaceId: string, rows: PresenceRows): Promise<Pick<PresenceTable, 'stream_id' | 'item_kind' | 'item_id'>[]> {
  return db.kysely
    .deleteFrom('presence')
    .where('workspace_id', '=', workspaceId)
    .where(matching(rows))
    .returning(['stream_id', 'item_kind', 'item_id'])
    .execute();
}

/** The people with a live row on `item` at `now`, each once, in the order they came. */
export async function peopleOn(db: Db, workspaceId: string, item: PresenceItem, now: string): Promise<Person[]> {
  const rows = await db.kysely
    .selectFrom('presence')
    .innerJoin('users', 'users.id', 'presence.user_id')
    .select(['users.id', 'users.email', 'users.name', 'presence.since'])
    .where('presence.workspace_id', '=', workspaceId)
    .where('presence.item_kind', '=', item.kind)
    .where('presence.item_id', '=', item.id)
    .where('presence.expires_at', '>', now)
    .orderBy('presence.since')
    .orderBy('users.id')
    .execute();
  const seen = new Map<number, Person>();
  for (const r of rows) if (!seen.has(Number(r.id))) seen.set(Number(r.id), { id: Number(r.id), email: r.email, name: r.name });
  return [...seen.values()];
}

/** A person by user id, or undefined. */
export async function findPerson(db: Db, userId: number): Promise<Person | undefined> {
  const row = await db.kysely.selectFrom('users').select(['id', 'email', 'name']).where('id', '=', userId).executeTakeFirst();
  return row ? { id: Number(row.id), email: row.email, name: row.name } : undefined;
}
