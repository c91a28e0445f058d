/**
 * SQL of the scheduled-publishing job (docs/api.md "States and scheduling" (D21)) besides the
 * publication itself, which is
 * publishDue in repository.ts (shared with the write path's catch-up).
 */
import type { Db } from '../../db/types.js';

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
