/**
 * Which change events production readers can see (docs/front-ends.md "Sync" (D83); issue 28 item
 * 3). `events.live` is 1 when the change may alter what a production delivery key reads (a
 * publication, an unpublication or archive of a live item, the deletion of a live item, a slug
 * or position change of one) and 0 when it touches only what preview readers see (a draft
 * created, a working copy saved, a draft deleted). A production (or release) sync delta reads only
 * live events, so it no longer lists items whose working copy alone changed, nor the deletion of
 * drafts it never saw. Events recorded before this migration keep `live` null and count as live:
 * what they changed is not known, and listing an item again is harmless where missing one is not.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../types.js';

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('events').addColumn('live', 'integer').execute();
}
