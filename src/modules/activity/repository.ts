/**
 * SQL of the Studio's activity log (migration 031; docs/workflow.md "Who else is here" (D133)):
 * what the Studio's event stream reads after the last id it saw, and the prune of old rows.
 */
import type { Db } from '../../db/types.js';

/** An activity row as the event stream reads it; `data` parsed, ids as numbers on both dialects. */
export interface ActivityRecord {
  id: number;
  type: string;
  itemKind: string | null;
  itemId: string | null;
  contentType: string | null;
  userId: number | null;
  data: Record<string, unknown>;
}

/** Up to `limit` activity rows of the workspace with id > `afterId`, oldest first. */
export async function listActivityAfter(db: Db, workspaceId: string, afterId: number, limit: number): Promise<ActivityRecord[]> {
  const rows = await db.kysely
    .selectFrom('activity')
    .select(['id', 'type', 'item_kind', 'item_id', 'content_type', 'user_id', 'data'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => {
    let data: Record<string, unknown> = {};
    try {
      data = JSON.parse(r.data) as Record<string, unknown>;
    } catch {
      // A row this code did not write: its frame carries nothing rather than breaking the read.
    }
    return {
      id: Number(r.id),
      type: r.type,
      itemKind: r.item_kind,
      itemId: r.item_id,
      contentType: r.content_type,
      userId: r.user_id === null ? null : Number(r.user_id),
      data,
    };
  });
}

/** The workspace's newest activity id, 0 without rows. */
export async function lastActivityId(db: Db, workspaceId: string): Promise<number> {
  const row = await db.kysely
    .selectFrom('activity')
    .select((eb) => eb.fn.max('id').as('last'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  return row?.last === null || row?.last === undefined ? 0 : Number(row.last);
}

/** Deletes the rows created before `before` (ISO time); returns how many. */
export async function deleteActivityBefore(db: Db, before: string): Promise<number> {
  const res = await db.kysely.deleteFrom('activity').where('created_at', '<', before).executeTakeFirst();
  return Number(res.numDeletedRows);
}
