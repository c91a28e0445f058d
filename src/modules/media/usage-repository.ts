/**
 * SQL behind "where is this asset used" (GET /media/{id}/usage, src/modules/media/usage.ts).
 *
 * A media, media list or rich-text value holds the asset's id as JSON text, so the candidates are
 * the rows whose JSON, read as text, contains the id (`cast(data as text) like '%<id>%'`, the same
 * expression on SQLite text and PostgreSQL jsonb): entries' working copies and published
 * versions with their translations, and pages' blocks, working and published, with their
 * translations. The caller checks each candidate against its type's fields (a text field quoting
 * the id is no use). No index serves `%id%`: each call reads the workspace's rows once, which a
 * delete warning can afford.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db } from '../../db/types.js';

/** An entry naming the id somewhere, with every JSON document of it that does. */
export interface EntryCandidate {
  id: string;
  slug: string;
  content_type_id: string;
  content_type_slug: string;
  display_field: string | null;
  /** The working copy's default-locale data (for the title). */
  data: unknown;
  /** Data documents (working, published, translations) whose text holds the id. */
  docs: unknown[];
}

/** A page naming the id in a block, with those blocks' data and types. */
export interface PageCandidate {
  id: string;
  slug: string;
  seo: unknown;
  blocks: { block_type_id: string; data: unknown }[];
}

/** `cast(<column> as text) like '%<id>%'`; `id` is a uuid (no LIKE wildcards in it). */
function holds(column: Expression<unknown>, id: string): Expression<SqlBool> {
  return sql<SqlBool>`cast(${column} as text) like ${`%${id}%`}`;
}

/** Entries of the workspace whose working copy, published version or a translation holds `id`. */
export async function entryCandidates(db: Db, workspaceId: string, id: string): Promise<EntryCandidate[]> {
  const k = db.kysely;
  const rows = await k
    .selectFrom('entries as e')
    .innerJoin('content_types as ct', 'ct.id', 'e.content_type_id')
    .select(['e.id', 'e.slug', 'e.content_type_id', 'ct.slug as content_type_slug', 'ct.display_field', 'e.data', 'e.published_data'])
    .where('e.workspace_id', '=', workspaceId)
    .where((eb) =>
      eb.or([
        holds(eb.ref('e.data'), id),
        holds(eb.ref('e.published_data'), id),
        eb.exists(
          eb
            .selectFrom('entry_translations as t')
            .select('t.entry_id')
            .whereRef('t.entry_id', '=', 'e.id')
            .where((inner) => holds(inner.ref('t.data'), id)),
        ),
        eb.exists(
          eb
            .selectFrom('published_entry_translations as pt')
            .select('pt.entry_id')
            .whereRef('pt.entry_id', '=', 'e.id')
            .where((inner) => holds(inner.ref('pt.data'), id)),
        ),
      ]),
    )
    .orderBy('ct.slug')
    .orderBy('e.slug')
    .execute();
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const translations = await k
    .selectFrom('entry_translations as t')
    .select(['t.entry_id', 't.data'])
    .where('t.entry_id', 'in', ids)
    .where((eb) => holds(eb.ref('t.data'), id))
    .unionAll(
      k
        .selectFrom('published_entry_translations as pt')
        .select(['pt.entry_id', 'pt.data'])
        .where('pt.entry_id', 'in', ids)
        .where((eb) => holds(eb.ref('pt.data'), id)),
    )
    .execute();
  return rows.map((r) => ({
    id: r.id,
    slug: r.slug,
    content_type_id: r.content_type_id,
    content_type_slug: r.content_type_slug,
    display_field: r.display_field,
    data: r.data,
    docs: [r.data, r.published_data, ...translations.filter((t) => t.entry_id === r.id).map((t) => t.data)],
  }));
}

/** Pages of the workspace with a block (working or published, or a translation of one) holding `id`. */
export async function pageCandidates(db: Db, workspaceId: string, id: string): Promise<PageCandidate[]> {
  const k = db.kysely;
  const blocks = await k
    .selectFrom('blocks as b')
    .select(['b.page_id', 'b.block_type_id', 'b.data'])
    .where((eb) => holds(eb.ref('b.data'), id))
    .unionAll(
      k
        .selectFrom('published_blocks as pb')
        .select(['pb.page_id', 'pb.block_type_id', 'pb.data'])
        .where((eb) => holds(eb.ref('pb.data'), id)),
    )
    .unionAll(
      k
        .selectFrom('block_translations as bt')
        .innerJoin('blocks as b2', (j) => j.onRef('b2.page_id', '=', 'bt.page_id').onRef('b2.id', '=', 'bt.block_id'))
        .select(['bt.page_id', 'b2.block_type_id', 'bt.data'])
        .where((eb) => holds(eb.ref('bt.data'), id)),
    )
    .unionAll(
      k
        .selectFrom('published_block_translations as pbt')
        .innerJoin('published_blocks as pb2', (j) => j.onRef('pb2.page_id', '=', 'pbt.page_id').onRef('pb2.id', '=', 'pbt.block_id'))
        .select(['pbt.page_id', 'pb2.block_type_id', 'pbt.data'])
        .where((eb) => holds(eb.ref('pbt.data'), id)),
    )
    .execute();
  if (blocks.length === 0) return [];
  const pages = await k
    .selectFrom('pages')
    .select(['id', 'slug', 'seo'])
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', [...new Set(blocks.map((b) => b.page_id))])
    .orderBy('slug')
    .execute();
  return pages.map((p) => ({
    ...p,
    blocks: blocks.filter((b) => b.page_id === p.id).map((b) => ({ block_type_id: b.block_type_id, data: b.data })),
  }));
}
