/**
 * SQL of the scheduled-publishing job (DECISIONS.md D21): one conditional UPDATE per table.
 * `WHERE status = 'scheduled' AND publish_at <= now` makes each row change exactly once even when
 * several instances run the job on one PostgreSQL: a concurrent UPDATE waits for the row lock,
 * re-checks the condition on the new row version, finds it published and skips it. The SET
 * clause reads the old row, so `published_at` takes the old `publish_at` before it is cleared.
 * `updated_at` and `version` are left alone: reads already showed the item as published (D21),
 * so nothing a client can see changes and no editor's ETag goes stale.
 */
import type { Db } from '../../db/types.js';

/** Publishes the due scheduled entries; returns how many this call changed. */
export async function publishDueEntries(db: Db, now: string): Promise<number> {
  const res = await db.kysely
    .updateTable('entries')
    .set((eb) => ({ status: 'published', published_at: eb.ref('publish_at'), publish_at: null }))
    .where('status', '=', 'scheduled')
    .where('publish_at', '<=', now)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** Publishes the due scheduled pages; returns how many this call changed. */
export async function publishDuePages(db: Db, now: string): Promise<number> {
  const res = await db.kysely
    .updateTable('pages')
    .set((eb) => ({ status: 'published', published_at: eb.ref('publish_at'), publish_at: null }))
    .where('status', '=', 'scheduled')
    .where('publish_at', '<=', now)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/**
 * The earliest `publish_at` after `now` among the workspace's scheduled entries and pages, or
 * null: until then, what the workspace serves can only change through a write (which bumps its
 * revision), so delivery caches may keep a response until this moment.
 */
export async function nextScheduledAt(db: Db, workspaceId: string, now: string): Promise<string | null> {
  const [entry, page] = await Promise.all([
    db.kysely
      .selectFrom('entries')
      .select((eb) => eb.fn.min('publish_at').as('at'))
      .where('workspace_id', '=', workspaceId)
      .where('status', '=', 'scheduled')
      .where('publish_at', '>', now)
      .executeTakeFirst(),
    db.kysely
      .selectFrom('pages')
      .select((eb) => eb.fn.min('publish_at').as('at'))
      .where('workspace_id', '=', workspaceId)
      .where('status', '=', 'scheduled')
      .where('publish_at', '>', now)
      .executeTakeFirst(),
  ]);
  const times = [entry?.at, page?.at].filter((t): t is string => typeof t === 'string');
  return times.length ? times.sort()[0] : null;
}
