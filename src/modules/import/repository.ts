/** SQL the importers need beyond the entries and media repositories. */
import type { Db } from '../../db/types.js';

/** Id and slug of every entry of the given content types, grouped by content type id. */
export async function entrySlugsByType(db: Db, contentTypeIds: readonly string[]): Promise<Map<string, { id: string; slug: string }[]>> {
  const out = new Map<string, { id: string; slug: string }[]>(contentTypeIds.map((id) => [id, []]));
  if (contentTypeIds.length === 0) return out;
  const rows = await db.kysely
    .selectFrom('entries')
    .select(['id', 'slug', 'content_type_id'])
    .where('content_type_id', 'in', [...contentTypeIds])
    .execute();
  for (const r of rows) out.get(r.content_type_id)?.push({ id: r.id, slug: r.slug });
  return out;
}

/** Id and slug of every page of the workspace (page slugs are unique per workspace). */
export async function pageSlugsOf(db: Db, workspaceId: string): Promise<{ id: string; slug: string }[]> {
  return db.kysely.selectFrom('pages').select(['id', 'slug']).where('workspace_id', '=', workspaceId).execute();
}
