/** SQL of previews: which content type an entry of a workspace belongs to. */
import type { Db } from '../../db/types.js';

export interface PreviewTarget {
  content_type_id: string;
  type_slug: string;
}

/** The content type (id and slug) of the entry with this id in the workspace; null when none. */
export async function findPreviewTarget(db: Db, workspaceId: string, entryId: string): Promise<PreviewTarget | null> {
  const row = await db.kysely
    .selectFrom('entries as e')
    .innerJoin('content_types as c', 'c.id', 'e.content_type_id')
    .select(['e.content_type_id', 'c.slug as type_slug'])
    .where('e.workspace_id', '=', workspaceId)
    .where('e.id', '=', entryId)
    .executeTakeFirst();
  return row ?? null;
}
