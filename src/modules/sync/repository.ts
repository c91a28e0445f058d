/**
 * SQL of sync (docs/front-ends.md "Sync" (D83)): the items a delivery key may see, by kind, in id
 * order after a
 * given id (initial sync pages) or by id (deltas). What each perspective reads is the read
 * model's (src/modules/read/resolver.ts): production keys read published versions
 * (`published_data`, published translations and SEO; a due scheduled item counts as published,
 * D21, D70) and see the publication's time and author as `updated_at`/`updated_by`; preview keys
 * read working copies of drafts, scheduled and published items; a release perspective (D111) the
 * published copies with the release's items laid over them. Media are the workspace's assets
 * that are not deleted.
 */
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../../db/types.js';
import type { EntryRow } from '../delivery/model.js';
import { COMMON_COLUMNS } from '../delivery/query/repository.js';
import { PAGE_COLUMNS } from '../pages/delivery-repository.js';
import type { MediaRecord } from '../media/repository.js';
import type { PageRow } from '../pages/repository.js';
import type { Perspective } from '../read/perspective.js';
import { contentColumns, readerOf, readSource, selectEntries, selectPages, visibleCondition, type ReadDatabase } from '../read/resolver.js';

/** Which rows of a kind to read: after `after` in id order (up to `limit`), or those with `ids`. */
export type RowSelection = { after: string | null; limit: number } | { ids: readonly string[] };

export interface SyncQuery {
  workspaceId: string;
  perspective: Perspective;
  /** ISO time of the request (D21). */
  now: string;
}

function select<T extends keyof ReadDatabase, O>(
  qb: SelectQueryBuilder<ReadDatabase, T, O>,
  column: string,
  selection: RowSelection,
): SelectQueryBuilder<ReadDatabase, T, O> {
  const ref = sql.ref(column);
  if ('ids' in selection) return qb.where(sql<boolean>`${ref} in (${sql.join(selection.ids.length ? selection.ids : [''])})`);
  return (selection.after === null ? qb : qb.where(sql<boolean>`${ref} > ${selection.after}`)).orderBy(sql`${ref}`).limit(selection.limit);
}

/** Visible entries of the content types `typeIds` (the key's readable types). */
export async function syncEntryRows(db: Db, q: SyncQuery, typeIds: readonly string[], selection: RowSelection): Promise<EntryRow[]> {
  if (typeIds.length === 0) return [];
  const qb = selectEntries(db, q.perspective, q.now)
    .select(COMMON_COLUMNS)
    .select(contentColumns(q.perspective, 'entries'))
    .select(sql<unknown>`null`.as('tr_data'))
    .where('entries.workspace_id', '=', q.workspaceId)
    .where('entries.content_type_id', 'in', [...typeIds])
    .where(visibleCondition(q.perspective, q.now, 'entries'));
  const rows = await select(qb, 'entries.id', selection).execute();
  return rows.map((r) => ({ ...r, position: Number(r.position), created_by: r.created_by === null ? null : Number(r.created_by) })) as EntryRow[];
}

/** Every translation of these entries as `perspective` sees them at `now`, by entry then locale. */
export async function syncEntryTranslations(
  db: Db,
  perspective: Perspective,
  now: string,
  entryIds: readonly string[],
): Promise<{ entry_id: string; locale: string; data: unknown }[]> {
  if (entryIds.length === 0) return [];
  return readerOf(db, perspective, now)
    .selectFrom(readSource(perspective).entryTranslations)
    .select(['entry_id', 'locale', 'data'])
    .where('entry_id', 'in', [...entryIds])
    .orderBy('entry_id')
    .orderBy('locale')
    .execute();
}

/** Visible pages of the workspace, as page rows whose `seo` is the one the key reads. */
export async function syncPageRows(db: Db, q: SyncQuery, selection: RowSelection): Promise<PageRow[]> {
  const qb = selectPages(db, q.perspective, q.now)
    .select(PAGE_COLUMNS)
    .select(contentColumns(q.perspective, 'pages'))
    .where('pages.workspace_id', '=', q.workspaceId)
    .where(visibleCondition(q.perspective, q.now, 'pages'));
  return (await select(qb, 'pages.id', selection).execute()) as PageRow[];
}

/** The workspace's media assets that are not deleted. */
export async function syncMediaRows(db: Db, workspaceId: string, selection: RowSelection): Promise<MediaRecord[]> {
  const qb = db.kysely.selectFrom('media').selectAll().where('workspace_id', '=', workspaceId).where('deleted_at', 'is', null);
  return (await select(qb, 'media.id', selection).execute()) as MediaRecord[];
}
