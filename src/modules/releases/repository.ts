/**
 * SQL of releases and their items (migration 023; docs/releases.md). One Kysely code path for
 * SQLite and PostgreSQL; snapshots and failure reasons are JSON columns (text on SQLite, jsonb on
 * PostgreSQL) written as JSON text and read through fromJsonColumn.
 *
 * Concurrency: a writer of a release locks its row first (lockRelease), so that adding items,
 * publishing, scheduling and deleting one release serialize; the scheduler claims a due release
 * with an UPDATE whose condition matches once (claimDueRelease).
 */
import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import type { Db, ReleaseItemsTable, ReleasesTable } from '../../db/types.js';
import { selectForUpdate, takeWriteLock } from '../../db/lock.js';
import { updateRowsByKey } from '../../db/bulk.js';
import { fromJsonColumn } from '../../lib/json.js';
import { ITEM_COLUMNS, toItemRecord, type ItemRecord, type ItemRow as StoredItemRow } from '../publishing/item.js';
import type { ReleaseItemAction, ReleaseItemKind, ReleaseItemRecord, ReleaseRecord, ReleaseStatus } from './model.js';

type ReleaseRow = Selectable<ReleasesTable>;

const intOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

function toRelease(r: ReleaseRow): ReleaseRecord {
  return {
    id: r.id,
    workspace_id: r.workspace_id,
    title: r.title,
    description: r.description,
    status: r.status as ReleaseStatus,
    publish_at: r.publish_at,
    published_at: r.published_at,
    reverted_at: r.reverted_at,
    failure: r.failure === null ? null : fromJsonColumn<{ path: string; message: string }[]>(r.failure, []),
    created_at: r.created_at,
    updated_at: r.updated_at,
    created_by: intOrNull(r.created_by),
    updated_by: intOrNull(r.updated_by),
  };
}

type ItemRow = Selectable<ReleaseItemsTable>;

function toItem(r: ItemRow): ReleaseItemRecord {
  return {
    ...r,
    kind: r.kind as ReleaseItemKind,
    action: r.action as ReleaseItemAction,
    base_version: Number(r.base_version),
    snapshot: r.snapshot === null ? null : fromJsonColumn<unknown>(r.snapshot, {}),
    prior_published_version: intOrNull(r.prior_published_version),
    result_version: intOrNull(r.result_version),
    created_by: intOrNull(r.created_by),
    updated_by: intOrNull(r.updated_by),
  };
}

/** Inserts a new release. */
export async function insertRelease(db: Db, r: Omit<ReleaseRecord, 'failure'>): Promise<void> {
  await db.kysely.insertInto('releases').values(r).execute();
}

/** The release `id` of the workspace, or null. */
export async function findRelease(db: Db, workspaceId: string, id: string): Promise<ReleaseRecord | null> {
  const row = await db.kysely.selectFrom('releases').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
  return row ? toRelease(row as ReleaseRow) : null;
}

/** The revision of release `id`'s items (migration 025: bumped by every write of them); 0 when absent. */
export async function releaseItemsRevision(db: Db, id: string): Promise<number> {
  const row = await db.kysely.selectFrom('releases').select('items_revision').where('id', '=', id).executeTakeFirst();
  return row ? Number(row.items_revision) : 0;
}

/** The release `id` of the workspace, locked until the transaction ends; null when absent. */
export async function findReleaseForUpdate(db: Db, workspaceId: string, id: string): Promise<ReleaseRecord | null> {
  await takeWriteLock(db, 'releases');
  const row = await selectForUpdate(
    db,
    db.kysely.selectFrom('releases').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id),
  ).executeTakeFirst();
  return row ? toRelease(row as ReleaseRow) : null;
}

/** One page of the workspace's releases, newest first, with their number (optionally of one status). */
export async function listReleases(
  db: Db,
  workspaceId: string,
  q: { status?: ReleaseStatus; offset: number; limit: number },
): Promise<{ items: ReleaseRecord[]; total: number }> {
  let base = db.kysely.selectFrom('releases').where('workspace_id', '=', workspaceId);
  if (q.status) base = base.where('status', '=', q.status);
  const rows = await base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').offset(q.offset).limit(q.limit).execute();
  const [{ n }] = await base.select((eb) => eb.fn.countAll<number>().as('n')).execute();
  return { items: rows.map((r) => toRelease(r as ReleaseRow)), total: Number(n) };
}

/** Updates columns of a release. */
export async function updateRelease(
  db: Db,
  id: string,
  patch: Partial<Pick<ReleaseRecord, 'title' | 'description' | 'status' | 'publish_at' | 'published_at' | 'reverted_at' | 'updated_at' | 'updated_by'>> & {
    failure?: { path: string; message: string }[] | null;
  },
): Promise<void> {
  const { failure, ...rest } = patch;
  const set: Record<string, unknown> = { ...rest };
  if (failure !== undefined) set.failure = failure === null ? null : JSON.stringify(failure);
  await db.kysely.updateTable('releases').set(set).where('id', '=', id).execute();
}

/** Deletes a release and its items (its variants go with them). */
export async function deleteRelease(db: Db, id: string): Promise<void> {
  await db.kysely.deleteFrom('release_items').where('release_id', '=', id).execute();
  await db.kysely.deleteFrom('releases').where('id', '=', id).execute();
}

/** The number of items of each of these releases. */
export async function countItems(db: Db, releaseIds: readonly string[]): Promise<Map<string, number>> {
  if (releaseIds.length === 0) return new Map();
  const rows = await db.kysely
    .selectFrom('release_items')
    .select(['release_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('release_id', 'in', releaseIds)
    .groupBy('release_id')
    .execute();
  return new Map(rows.map((r) => [r.release_id, Number(r.n)]));
}

/** Every item of a release, in the order they were added (then kind and id). */
export async function listItems(db: Db, releaseId: string): Promise<ReleaseItemRecord[]> {
  const rows = await db.kysely
    .selectFrom('release_items')
    .selectAll()
    .where('release_id', '=', releaseId)
    .orderBy('created_at')
    .orderBy('kind')
    .orderBy('item_id')
    .execute();
  return rows.map((r) => toItem(r as ItemRow));
}

/** One item of a release, or null. */
export async function findItem(db: Db, releaseId: string, kind: ReleaseItemKind, itemId: string): Promise<ReleaseItemRecord | null> {
  const row = await db.kysely
    .selectFrom('release_items')
    .selectAll()
    .where('release_id', '=', releaseId)
    .where('kind', '=', kind)
    .where('item_id', '=', itemId)
    .executeTakeFirst();
  return row ? toItem(row as ItemRow) : null;
}

/** Inserts an item, or replaces the one of the same entry or page in the release. */
export async function putItem(db: Db, item: ReleaseItemRecord): Promise<void> {
  await removeItem(db, item.release_id, item.kind, item.item_id);
  await db.kysely
    .insertInto('release_items')
    .values({ ...item, snapshot: item.snapshot === null ? null : JSON.stringify(item.snapshot) })
    .execute();
}

/** Replaces an item's variant. */
export async function updateItemSnapshot(
  db: Db,
  releaseId: string,
  kind: ReleaseItemKind,
  itemId: string,
  snapshot: unknown,
  at: string,
  userId: number,
): Promise<void> {
  await db.kysely
    .updateTable('release_items')
    .set({ snapshot: JSON.stringify(snapshot), updated_at: at, updated_by: userId })
    .where('release_id', '=', releaseId)
    .where('kind', '=', kind)
    .where('item_id', '=', itemId)
    .execute();
}

/** Items per UPDATE of recordOutcomes on PostgreSQL: 7 parameters each, far below its limit. */
const OUTCOMES_PER_STATEMENT = 300;

/**
 * Records, per item, what it was before the release and the version the release made of it:
 * updateRowsByKey (src/db/bulk.ts), one `UPDATE … FROM (VALUES …)` per OUTCOMES_PER_STATEMENT
 * items on PostgreSQL (a release holds up to 1,000).
 */
export async function recordOutcomes(
  db: Db,
  releaseId: string,
  outcomes: readonly {
    kind: ReleaseItemKind;
    itemId: string;
    priorStatus: string;
    priorPublishedAt: string | null;
    priorPublishedVersion: number | null;
    result: number;
  }[],
): Promise<void> {
  const rows = outcomes.map((o) => ({
    release_id: releaseId,
    kind: o.kind,
    item_id: o.itemId,
    prior_status: o.priorStatus,
    prior_published_at: o.priorPublishedAt,
    prior_published_version: o.priorPublishedVersion,
    result_version: o.result,
  }));
  await updateRowsByKey(db, 'release_items', ['release_id', 'kind', 'item_id'], rows, {
    types: { prior_published_version: 'integer', result_version: 'integer' },
    perStatement: OUTCOMES_PER_STATEMENT,
  });
}

/** Removes an item from a release; true when it was there. */
export async function removeItem(db: Db, releaseId: string, kind: ReleaseItemKind, itemId: string): Promise<boolean> {
  const res = await db.kysely
    .deleteFrom('release_items')
    .where('release_id', '=', releaseId)
    .where('kind', '=', kind)
    .where('item_id', '=', itemId)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** Ids of the scheduled releases whose time has come at `now`, oldest first. */
export async function dueReleaseIds(db: Db, now: string): Promise<{ id: string; workspace_id: string }[]> {
  return db.kysely
    .selectFrom('releases')
    .select(['id', 'workspace_id'])
    .where('status', '=', 'scheduled')
    .where('publish_at', '<=', now)
    .orderBy('publish_at')
    .orderBy('id')
    .execute();
}

/**
 * Claims a due scheduled release for publication inside the caller's transaction: the UPDATE
 * matches only while the release is still scheduled and due, so across instances exactly one
 * transaction claims it (PostgreSQL: a second UPDATE waits for the first and then matches
 * nothing; SQLite: one writer at a time). True when this transaction claimed it.
 */
export async function claimDueRelease(db: Db, id: string, now: string): Promise<boolean> {
  const res = await sql`update releases set status = 'published', published_at = publish_at, updated_at = ${now}
    where id = ${id} and status = 'scheduled' and publish_at <= ${now}`.execute(db.kysely);
  return Number(res.numAffectedRows ?? 0) > 0;
}

/**
 * Marks a due scheduled release `failed` with `reasons` (its scheduled publication was refused);
 * true when it was still scheduled (so exactly one instance records the failure).
 */
export async function markFailed(db: Db, id: string, reasons: readonly { path: string; message: string }[], now: string): Promise<boolean> {
  const res = await sql`update releases set status = 'failed', failure = ${JSON.stringify(reasons)}, updated_at = ${now}
    where id = ${id} and status = 'scheduled'`.execute(db.kysely);
  return Number(res.numAffectedRows ?? 0) > 0;
}

/** An entry's or page's row as a release reads it: the common columns, an entry's content type. */
export type ItemHead = ItemRecord & { content_type_id: string | null };

/**
 * The rows of these entries or pages of the workspace (absent ids left out), 500 per statement;
 * with `lock`, locked until the transaction ends (a publication changes them).
 */
export async function itemHeads(db: Db, kind: ReleaseItemKind, workspaceId: string, ids: readonly string[], lock = false): Promise<Map<string, ItemHead>> {
  const out = new Map<string, ItemHead>();
  const table = kind === 'entry' ? 'entries' : 'pages';
  if (lock) await takeWriteLock(db, table);
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const columns = [...ITEM_COLUMNS.map((c) => sql.ref(c).as(c)), (kind === 'entry' ? sql.ref('content_type_id') : sql<null>`null`).as('content_type_id')];
    const query = db.kysely
      .selectFrom(table as 'entries')
      .select(columns)
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', chunk);
    const rows = await (lock ? selectForUpdate(db, query) : query).execute();
    for (const r of rows as unknown as (StoredItemRow & { content_type_id: string | null })[])
      out.set(r.id, { ...toItemRecord(r), content_type_id: r.content_type_id });
  }
  return out;
}
