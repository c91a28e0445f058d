/** Where a block type is used (docs/api.md "Content types" (D35)): blocks across all pages, and each page once. */
import type { Db } from '../../db/types.js';

export interface BlockUsage {
  count: number;
  pages: { slug: string; status: string }[];
}

export async function blockUsage(db: Db, contentTypeId: string): Promise<BlockUsage> {
  const rows = await db.kysely
    .selectFrom('blocks as b')
    .innerJoin('pages as p', 'p.id', 'b.page_id')
    .select(['p.slug', 'p.status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('b.block_type_id', '=', contentTypeId)
    .groupBy(['p.id', 'p.slug', 'p.status'])
    .orderBy('p.slug')
    .execute();
  return { count: rows.reduce((sum, r) => sum + Number(r.n), 0), pages: rows.map((r) => ({ slug: r.slug, status: r.status })) };
}
