/**
 * SQL shared by entries and pages (docs/api.md "States and scheduling" (D21), "Working copies,
 * publishing changes and history" (D70, D71), "History" (D72)): the publication columns of an
 * item row, its history (entry_versions / page_versions) and the catch-up of due scheduled
 * items. Both item tables have the same publication columns and both history tables the same
 * columns, so one code path serves either, named by an ItemTables value.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import { updateRowsByKey, type BulkColumnType } from '../../db/bulk.js';
import { lockRows } from '../../db/lock.js';
import type { CursorPosition } from '../delivery/cursor.js';
import { keysetCondition, nullsOrdered, sortExpression } from '../delivery/query/conditions.js';
import type { SortSpec } from './sort.js';
import type { Db } from '../../db/types.js';
import { fromJsonColumn } from '../../lib/json.js';
import type { ItemRecord } from './item.js';
import type { Status } from './states.js';
import { DUE_PUBLISH_RULES, type ColumnRule } from './columns.js';
import { dueCondition, statusCondition, type ItemTable } from './status-sql.js';

/** The tables of one kind of item. */
export interface ItemTables {
  table: ItemTable;
  versions: 'entry_versions' | 'page_versions';
  /** The history table's column naming the item. */
  fk: 'entry_id' | 'page_id';
  /** The item row's JSON column holding its working-copy content (entries: values; pages: SEO). */
  content: 'data' | 'seo';
  /** The item row's JSON column holding its published copy's content (null when unpublished). */
  published: 'published_data' | 'published_seo';
}

export const ENTRY_TABLES: ItemTables = { table: 'entries', versions: 'entry_versions', fk: 'entry_id', content: 'data', published: 'published_data' };
export const PAGE_TABLES: ItemTables = { table: 'pages', versions: 'page_versions', fk: 'page_id', content: 'seo', published: 'published_seo' };

/** Actions a version records (D72). */
export const VERSION_ACTIONS = ['create', 'update', 'publish', 'unpublish', 'archive', 'schedule', 'restore', 'duplicate', 'import'] as const;
export type VersionAction = (typeof VERSION_ACTIONS)[number];

/** One version without its snapshot. */
export interface VersionRecord {
  version: number;
  action: VersionAction;
  status: string;
  created_at: string;
  created_by: number | null;
}

/** The columns of an item row the publishing core writes (any subset, plus the ETag counter). */
export type PublicationPatch = Partial<
  Pick<
    ItemRecord,
    | 'status'
    | 'publish_at'
    | 'published_at'
    | 'published_by'
    | 'published_version'
    | 'latest_version'
    | 'has_pending_changes'
    | 'version'
    | 'updated_at'
    | 'updated_by'
  >
>;

/** Writable columns of an item row: its content column as an object, encoded here. */
export type ItemColumns = Partial<Omit<ItemRecord, 'has_pending_changes'>> & { has_pending_changes?: boolean; content_type_id?: string } & Partial<
    Record<ItemTables['content'] | ItemTables['published'], unknown>
  >;

/**
 * SET or VALUES of an item row: the content columns JSON-encoded (a published copy that is the
 * working content itself, the same value, is encoded once; null stays null), the pending flag as 0/1.
 */
function encodeItemColumns(t: ItemTables, columns: ItemColumns): Record<string, unknown> {
  const { has_pending_changes, ...rest } = columns;
  const out: Record<string, unknown> = { ...rest };
  if (t.content in columns) out[t.content] = JSON.stringify(columns[t.content]);
  if (t.published in columns) {
    const published = columns[t.published];
    if (published !== null && published !== undefined)
      out[t.published] = t.content in columns && published === columns[t.content] ? out[t.content] : JSON.stringify(published);
  }
  if (has_pending_changes !== undefined) out.has_pending_changes = has_pending_changes ? 1 : 0;
  return out;
}

/** Item rows per INSERT: about 20 bound values each, well under both databases' limits. */
const ITEMS_PER_STATEMENT = 200;

/**
 * Inserts new entry or page rows (their children are the module's own), ITEMS_PER_STATEMENT per
 * statement, each encoded as insertItemRow does: the content column as JSON, the pending flag as
 * 0/1. Used by single creates and by the importer's bulk path.
 */
export async function insertItemRows(db: Db, t: ItemTables, rows: readonly ItemColumns[]): Promise<void> {
  for (let i = 0; i < rows.length; i += ITEMS_PER_STATEMENT) {
    // Both item tables share these columns; Kysely needs one concrete table to type the VALUES.
    await db.kysely
      .insertInto(t.table as 'entries')
      .values(rows.slice(i, i + ITEMS_PER_STATEMENT).map((row) => encodeItemColumns(t, row)) as never)
      .execute();
  }
}

/** Inserts a new entry or page row (insertItemRows of one row). */
export function insertItemRow(db: Db, t: ItemTables, row: ItemColumns): Promise<void> {
  return insertItemRows(db, t, [row]);
}

/** Updates columns of an entry or page row; nothing when `patch` is empty. */
export async function updateItemRow(db: Db, t: ItemTables, id: string, patch: ItemColumns): Promise<void> {
  const set = encodeItemColumns(t, patch);
  if (Object.keys(set).length === 0) return;
  await db.kysely
    .updateTable(t.table as 'entries')
    .set(set)
    .where('id', '=', id)
    .execute();
}

/** Deletes an item's history and then its row; the module deletes the item's children first. */
export async function deleteItemRow(db: Db, t: ItemTables, id: string): Promise<void> {
  await sql`delete from ${sql.table(t.versions)} where ${sql.ref(t.fk)} = ${id}`.execute(db.kysely);
  await sql`delete from ${sql.table(t.table)} where id = ${id}`.execute(db.kysely);
}

/** Addresses one item of a scope. */
export type ItemRef = { id: string } | { slug: string };

/** Where an item's slug is unique: `content_type_id` (entries) or `workspace_id` (pages) equal to `value`. */
export interface ItemScope {
  column: 'content_type_id' | 'workspace_id';
  value: string;
}

/** The row of one item of `scope` by id or slug, `columns` selected; undefined when there is none. */
export async function findItemRow<R>(db: Db, t: ItemTables, columns: readonly string[], scope: ItemScope, ref: ItemRef): Promise<R | undefined> {
  const [column, value] = 'id' in ref ? ['id', ref.id] : ['slug', ref.slug];
  const row = await db.kysely
    .selectFrom(t.table as 'entries')
    .select(columns.map((c) => sql.ref(c).as(c)))
    .where(sql.ref(scope.column), '=', scope.value)
    .where(sql.ref(column), '=', value)
    .executeTakeFirst();
  return row as R | undefined;
}

/** Locks the row of one item of `scope` until the transaction ends (src/db/lock.ts). */
export function lockItemRow(db: Db, t: ItemTables, scope: ItemScope, ref: ItemRef): Promise<void> {
  return lockRows(db, t.table, 'id' in ref ? { [scope.column]: scope.value, id: ref.id } : { [scope.column]: scope.value, slug: ref.slug });
}

/**
 * Serializes the writers of one scope: whoever checks slugs, unique values or positions across
 * the scope locks its owner row first (the content type of entries, the workspace of pages).
 * Lock order is always scope, then item.
 */
export function lockScope(db: Db, scope: ItemScope): Promise<void> {
  return lockRows(db, scope.column === 'content_type_id' ? 'content_types' : 'workspaces', { id: scope.value });
}

/** A management list of one scope's items: the entries of a content type, or a workspace's pages. */
export interface ItemListQuery {
  scope: ItemScope;
  /** Effective status (D21): `published` includes due scheduled items, `scheduled` excludes them. */
  status?: Status;
  now: string;
  sort: SortSpec;
  offset: number;
  limit: number;
  /** A further condition on the rows (the entries list's `search`). */
  where?: Expression<SqlBool>;
  /** Keyset position: rows strictly after it in `sort` order (cursor pages; `offset` is then 0). */
  after?: CursorPosition;
  /** Count the rows matching (offset pages); cursor pages skip the count. Default true. */
  withTotal?: boolean;
}

/**
 * One page of a scope's item rows (working copies, any status), with `columns` selected plus
 * `sort_value` (the value the page is ordered by, for cursors), in `q.sort` order with explicit
 * NULLS placement and the id as tie-breaker, so both dialects return the same order; and the
 * scope's total under the status filter and `where` (null when `withTotal` is false). With
 * `after`, the page starts after that keyset position: the scope's (column, id) indexes serve
 * it without reading the rows before it.
 */
export async function listItemRows<R>(
  db: Db,
  t: ItemTables,
  columns: readonly string[],
  q: ItemListQuery,
): Promise<{ rows: (R & { sort_value: unknown })[]; total: number | null }> {
  // Both item tables share the scope, status and sort columns; Kysely needs one concrete table.
  const table = t.table as 'entries';
  let base = db.kysely.selectFrom(table).where(sql.ref(`${t.table}.${q.scope.column}`), '=', q.scope.value);
  if (q.status) base = base.where(statusCondition(q.status, q.now, t.table));
  if (q.where) base = base.where(q.where);
  const key = sortExpression(db.dialect, q.sort, q.now, t.table);
  let page = base;
  if (q.after) page = page.where(keysetCondition(key, q.sort, q.after, t.table));
  const rows = await page
    .select(columns.map((c) => sql.ref(`${t.table}.${c}`).as(c)))
    .select(key.as('sort_value'))
    .orderBy(key, (ob) => nullsOrdered(ob, q.sort))
    .orderBy(sql.ref(`${t.table}.id`), q.sort.direction)
    .offset(q.offset)
    .limit(q.limit)
    .execute();
  let total: number | null = null;
  if (q.withTotal !== false) {
    // A page that is not full ends the list, so it tells the total without a second pass over
    // the rows (a `search` that matches little would otherwise be scanned twice).
    if (rows.length < q.limit && (rows.length > 0 || q.offset === 0)) total = q.offset + rows.length;
    else {
      const [{ n }] = await base.select((eb) => eb.fn.countAll<number>().as('n')).execute();
      total = Number(n);
    }
  }
  return { rows: rows as unknown as (R & { sort_value: unknown })[], total };
}

/** Integer columns of an item row: a batched UPDATE casts its values to them on PostgreSQL. */
const INTEGER_COLUMNS = new Set([
  'version',
  'position',
  'published_by',
  'published_version',
  'latest_version',
  'has_pending_changes',
  'created_by',
  'updated_by',
]);

/**
 * Sets columns of many item rows (a batch folding the core's steps, e.g. a release's
 * publication): rows naming the same columns go together through updateRowsByKey (src/db/bulk.ts:
 * one `UPDATE … FROM (VALUES …)` per ITEMS_PER_STATEMENT rows on PostgreSQL, joined on the id, so
 * a statement's cost grows with its rows, not with rows × the CASE branches the earlier form had).
 * Values are encoded as updateItemRow does (content columns as JSON, the pending flag as 0/1).
 */
export async function updateItemRows(db: Db, t: ItemTables, rows: readonly { id: string; columns: ItemColumns }[]): Promise<void> {
  const groups = new Map<string, Record<string, unknown>[]>();
  for (const r of rows) {
    const set = encodeItemColumns(t, r.columns);
    const names = Object.keys(set).sort();
    if (names.length === 0) continue;
    const signature = names.join(',');
    const row: Record<string, unknown> = { id: r.id };
    for (const n of names) row[n] = set[n];
    const group = groups.get(signature);
    if (group) group.push(row);
    else groups.set(signature, [row]);
  }
  for (const [signature, group] of groups) {
    const types: Record<string, BulkColumnType> = {};
    for (const name of signature.split(',')) {
      if (INTEGER_COLUMNS.has(name)) types[name] = 'integer';
      else if (name === t.content || name === t.published) types[name] = 'json';
    }
    await updateRowsByKey(db, t.table, ['id'], group, { types, perStatement: ITEMS_PER_STATEMENT });
  }
}

/**
 * The newest snapshot of each item of `ids` (by the core's invariant, its working copy), parsed,
 * in one statement per 500 items; items without history are absent.
 */
export async function latestSnapshots(db: Db, t: ItemTables, ids: readonly string[]): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const res = await sql<{ id: string; snapshot: unknown }>`select i.id as id, v.snapshot as snapshot from ${sql.table(t.table)} i
      join ${sql.table(t.versions)} v on ${sql.ref(`v.${t.fk}`)} = i.id and v.version = i.latest_version
      where i.id in (${sql.join(chunk)})`.execute(db.kysely);
    for (const r of res.rows) out.set(r.id, fromJsonColumn<unknown>(r.snapshot, {}));
  }
  return out;
}

/**
 * Who wrote each working copy of `ids`: the creator of the item's newest version that is not a
 * state action (publish, unpublish, archive and schedule copy the working copy without changing
 * it), by item id, in one statement per 500 items; absent when that version names no one.
 */
export async function workingCopyAuthors(db: Db, t: ItemTables, ids: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const fk = sql.ref(`v.${t.fk}`);
    const res = await sql<{ id: string; created_by: unknown }>`select ${fk} as id, v.created_by as created_by from ${sql.table(t.versions)} v
      where ${fk} in (${sql.join(chunk)})
      and v.version = (select max(w.version) from ${sql.table(t.versions)} w
        where ${sql.ref(`w.${t.fk}`)} = ${fk} and w.action not in ('publish', 'unpublish', 'archive', 'schedule'))`.execute(db.kysely);
    for (const r of res.rows) if (r.created_by !== null) out.set(r.id, Number(r.created_by));
  }
  return out;
}

/** Writes publication columns (what the publishing core owns) of an item row. */
export async function updatePublication(db: Db, t: ItemTables, id: string, patch: PublicationPatch): Promise<void> {
  await updateItemRow(db, t, id, patch);
}

function toRecord(r: { version: unknown; action: string; status: string; created_at: string; created_by: unknown }): VersionRecord {
  return {
    version: Number(r.version),
    action: r.action as VersionAction,
    status: r.status,
    created_at: r.created_at,
    created_by: r.created_by === null ? null : Number(r.created_by),
  };
}

/** The newest version of an item with its snapshot (parsed JSON), or null when it has none. */
export async function latestVersion(db: Db, t: ItemTables, itemId: string): Promise<(VersionRecord & { snapshot: unknown }) | null> {
  const res = await sql<{ version: number; action: string; status: string; snapshot: unknown; created_at: string; created_by: number | null }>`
    select version, action, status, snapshot, created_at, created_by from ${sql.table(t.versions)}
    where ${sql.ref(t.fk)} = ${itemId} order by version desc limit 1`.execute(db.kysely);
  const row = res.rows[0];
  return row ? { ...toRecord(row), snapshot: fromJsonColumn<unknown>(row.snapshot, {}) } : null;
}

/** Version `n` of an item with its snapshot, or null. */
export async function findVersion(db: Db, t: ItemTables, itemId: string, n: number): Promise<(VersionRecord & { snapshot: unknown }) | null> {
  const res = await sql<{ version: number; action: string; status: string; snapshot: unknown; created_at: string; created_by: number | null }>`
    select version, action, status, snapshot, created_at, created_by from ${sql.table(t.versions)}
    where ${sql.ref(t.fk)} = ${itemId} and version = ${n}`.execute(db.kysely);
  const row = res.rows[0];
  return row ? { ...toRecord(row), snapshot: fromJsonColumn<unknown>(row.snapshot, {}) } : null;
}

/**
 * The snapshots of many (item, version) pairs, parsed, keyed `${itemId}:${version}`, in one
 * statement per 500 pairs (a release's revert reads up to 1,000); pairs without that version are
 * absent.
 */
export async function findVersionSnapshots(db: Db, t: ItemTables, pairs: readonly { itemId: string; version: number }[]): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  for (let i = 0; i < pairs.length; i += 500) {
    const chunk = pairs.slice(i, i + 500);
    const ids = [...new Set(chunk.map((p) => p.itemId))];
    const wanted = new Set(chunk.map((p) => `${p.itemId}:${p.version}`));
    // Every version of the chunk's items is narrowed to the wanted ones here, not in SQL: a
    // row-value IN differs between the dialects, and the version numbers bound the rows read.
    const versions = [...new Set(chunk.map((p) => p.version))];
    const res = await sql<{ id: string; version: number; snapshot: unknown }>`select ${sql.ref(t.fk)} as id, version, snapshot from ${sql.table(t.versions)}
      where ${sql.ref(t.fk)} in (${sql.join(ids)}) and version in (${sql.join(versions)})`.execute(db.kysely);
    for (const r of res.rows) {
      const key = `${r.id}:${Number(r.version)}`;
      if (wanted.has(key)) out.set(key, fromJsonColumn<unknown>(r.snapshot, {}));
    }
  }
  return out;
}

/** One page of an item's versions, newest first, and their number. */
export async function listVersions(db: Db, t: ItemTables, itemId: string, offset: number, limit: number): Promise<{ items: VersionRecord[]; total: number }> {
  const count = await sql<{ n: number }>`select count(*) as n from ${sql.table(t.versions)} where ${sql.ref(t.fk)} = ${itemId}`.execute(db.kysely);
  const rows = await sql<{ version: number; action: string; status: string; created_at: string; created_by: number | null }>`
    select version, action, status, created_at, created_by from ${sql.table(t.versions)}
    where ${sql.ref(t.fk)} = ${itemId} order by version desc limit ${sql.lit(limit)} offset ${sql.lit(offset)}`.execute(db.kysely);
  return { items: rows.rows.map(toRecord), total: Number(count.rows[0]?.n ?? 0) };
}

/** Up to `limit` of an item's versions numbered below `before`, newest first (keyset pages: no count, no offset). */
export async function listVersionsBefore(db: Db, t: ItemTables, itemId: string, before: number, limit: number): Promise<VersionRecord[]> {
  const rows = await sql<{ version: number; action: string; status: string; created_at: string; created_by: number | null }>`
    select version, action, status, created_at, created_by from ${sql.table(t.versions)}
    where ${sql.ref(t.fk)} = ${itemId} and version < ${before} order by version desc limit ${sql.lit(limit)}`.execute(db.kysely);
  return rows.rows.map(toRecord);
}

/** One version of one item as appendVersions writes it: the snapshot as a value, encoded there. */
export interface VersionRow extends VersionRecord {
  itemId: string;
  snapshot: unknown;
  /** The release a `publish` version came from (D112); absent or null otherwise. */
  releaseId?: string | null;
}

/** Versions per INSERT: 7 bound values each, well under SQLite's and PostgreSQL's limits. */
const VERSIONS_PER_STATEMENT = 200;

/**
 * Appends versions to the history of `t` (D72), VERSIONS_PER_STATEMENT rows per statement, each
 * snapshot stored as its JSON text. The one place a version row is written: the core's single
 * writes (insertVersion), the importer's bulk path and the restore all call it. Throws the
 * database's error on a version number an item already has (primary key).
 */
export async function appendVersions(db: Db, t: ItemTables, rows: readonly VersionRow[]): Promise<void> {
  // Several versions of one item often hold the same snapshot value (a create, then its state
  // change): each value is encoded once.
  const encoded = new Map<unknown, string>();
  const encode = (snapshot: unknown): string => {
    let text = encoded.get(snapshot);
    if (text === undefined) encoded.set(snapshot, (text = JSON.stringify(snapshot)));
    return text;
  };
  for (let i = 0; i < rows.length; i += VERSIONS_PER_STATEMENT) {
    const chunk = rows.slice(i, i + VERSIONS_PER_STATEMENT);
    // `release_id` (migration 023) is named only when a row carries one: every other write keeps
    // the statement it had before releases, which a database migrated only that far still takes.
    const withRelease = chunk.some((v) => v.releaseId !== undefined && v.releaseId !== null);
    const values = chunk.map((v) => {
      const common = sql`${v.itemId}, ${v.version}, ${v.action}, ${v.status}, ${encode(v.snapshot)}, ${v.created_at}, ${v.created_by}`;
      return withRelease ? sql`(${common}, ${v.releaseId ?? null})` : sql`(${common})`;
    });
    const columns = withRelease ? sql`, release_id` : sql``;
    await sql`insert into ${sql.table(t.versions)} (${sql.ref(t.fk)}, version, action, status, snapshot, created_at, created_by${columns})
      values ${sql.join(values)}`.execute(db.kysely);
  }
}

/** Appends one version with this snapshot (appendVersions of one row). */
export function insertVersion(db: Db, t: ItemTables, itemId: string, v: VersionRecord & { snapshot: unknown }): Promise<void> {
  return appendVersions(db, t, [{ ...v, itemId }]);
}

/** Replaces the snapshot, status and time of an existing version (coalesced updates, D72). */
export async function replaceVersion(
  db: Db,
  t: ItemTables,
  itemId: string,
  n: number,
  v: { snapshot: unknown; status: string; created_at: string },
): Promise<void> {
  await sql`update ${sql.table(t.versions)} set snapshot = ${JSON.stringify(v.snapshot)}, status = ${v.status}, created_at = ${v.created_at}
    where ${sql.ref(t.fk)} = ${itemId} and version = ${n}`.execute(db.kysely);
}

/**
 * Appends version `latest + 1` of each item in `ids` as a copy of its newest snapshot: state
 * changes record the unchanged working copy under a new action and status.
 */
export async function copyLatestVersion(
  db: Db,
  t: ItemTables,
  ids: readonly { id: string; version: number; createdBy: number | null; at?: string }[],
  action: VersionAction,
  status: string,
  at: string,
): Promise<void> {
  for (const item of ids) {
    await sql`insert into ${sql.table(t.versions)} (${sql.ref(t.fk)}, version, action, status, snapshot, created_at, created_by)
      select ${sql.ref(t.fk)}, ${item.version}, ${action}, ${status}, snapshot, ${item.at ?? at}, ${item.createdBy}
      from ${sql.table(t.versions)} where ${sql.ref(t.fk)} = ${item.id} and version = ${item.version - 1}`.execute(db.kysely);
  }
}

/**
 * The SET list of a set-based UPDATE from column rules (columns.ts): each rule reads the row
 * before the write, as SQL's SET does; booleans are stored as 0/1 like every flag column.
 */
function setClause(rules: Readonly<Record<string, ColumnRule>>) {
  const parts = Object.entries(rules).map(([name, rule]) => {
    if ('value' in rule) return sql`${sql.ref(name)} = ${typeof rule.value === 'boolean' ? Number(rule.value) : rule.value}`;
    return rule.plus ? sql`${sql.ref(name)} = ${sql.ref(rule.column)} + ${sql.lit(rule.plus)}` : sql`${sql.ref(name)} = ${sql.ref(rule.column)}`;
  });
  return sql.join(parts, sql`, `);
}

/**
 * Persists the publication of due scheduled items (D21, D71): status `published`,
 * `published_at` = `publish_at`, the newest version (the working copy at `publish_at`: writes to
 * a due item catch it up first) recorded again as a `publish` version that becomes the published
 * version. The columns are DUE_PUBLISH_RULES (columns.ts), the step the catch-up of one row
 * evaluates too. With `id`, only that item. Returns what changed.
 *
 * Exactly once across instances: the conditional UPDATE re-checks `status = 'scheduled'` on the
 * row it locks, so a second instance finds nothing; the versions are written in the caller's
 * transaction. `updated_at` and `version` (ETag) stay: reads already showed the item as
 * published, so nothing a client can see changes and no editor's ETag goes stale.
 */
export async function publishDue(db: Db, t: ItemTables, now: string, id?: string): Promise<{ id: string; version: number; createdBy: number | null }[]> {
  const res = await sql<{ id: string; latest_version: number; published_by: number | null; published_at: string }>`
    update ${sql.table(t.table)} set ${setClause(DUE_PUBLISH_RULES)}
    where ${dueCondition(now, t.table)} ${id === undefined ? sql`` : sql`and id = ${id}`}
    returning id, latest_version, published_by, published_at`.execute(db.kysely);
  // The publication happened at publish_at (D21), whenever the job gets to record it.
  const changed = res.rows.map((r) => ({
    id: r.id,
    version: Number(r.latest_version),
    createdBy: r.published_by === null ? null : Number(r.published_by),
    at: r.published_at,
  }));
  await copyLatestVersion(db, t, changed, 'publish', 'published', now);
  return changed;
}

/** The reads and locks of one kind of item, bound to its tables, columns and scope. */
export interface ItemStore<T> {
  /** One item of the scope by id or slug, or null. */
  find(db: Db, scopeValue: string, ref: ItemRef): Promise<T | null>;
  /** Locks the scope (lockScope) and then the item's row until the transaction ends, and reads it. */
  findForUpdate(db: Db, scopeValue: string, ref: ItemRef): Promise<T | null>;
  /** lockScope for this kind's scope. */
  lockScope(db: Db, scopeValue: string): Promise<void>;
  /** One page of the scope's items (working copies, any status) and the total. */
  /** `total` is null when `q.withTotal` is false; `positions[i]` is the keyset position of `items[i]` (for cursors). */
  list(db: Db, scopeValue: string, q: Omit<ItemListQuery, 'scope'>): Promise<{ items: T[]; total: number | null; positions: CursorPosition[] }>;
  /** Id of the scope's item using `slug`, or null. */
  idBySlug(db: Db, scopeValue: string, slug: string): Promise<string | null>;
  /** The scope's slugs equal to `base` or starting with `base-` (for picking `base-2`, `base-3` …). */
  slugsLike(db: Db, scopeValue: string, base: string): Promise<Set<string>>;
  /** Highest position in the scope, -1 when it has no item. */
  maxPosition(db: Db, scopeValue: string): Promise<number>;
  /** True when an item of this kind has `id` (in any scope). */
  exists(db: Db, id: string): Promise<boolean>;
}

/**
 * Builds the ItemStore of a kind: rows of `t.table` with `columns`, scoped by `scopeColumn`,
 * turned into records by `hydrate` (which may load children, e.g. entry translations).
 */
export function itemStore<R extends { id: string }, T>(
  t: ItemTables,
  columns: readonly string[],
  scopeColumn: ItemScope['column'],
  hydrate: (db: Db, rows: R[]) => Promise<T[]>,
): ItemStore<T> {
  const scope = (value: string): ItemScope => ({ column: scopeColumn, value });
  const find = async (db: Db, scopeValue: string, ref: ItemRef): Promise<T | null> => {
    const row = await findItemRow<R>(db, t, columns, scope(scopeValue), ref);
    return row ? (await hydrate(db, [row]))[0] : null;
  };
  return {
    find,
    async findForUpdate(db, scopeValue, ref) {
      // Scope first, then item, on every path: each write's revision trigger also updates the
      // workspace row, so a writer that locked the item before the scope could deadlock one
      // that holds the scope and waits for the item.
      await lockScope(db, scope(scopeValue));
      await lockItemRow(db, t, scope(scopeValue), ref);
      return find(db, scopeValue, ref);
    },
    lockScope: (db, scopeValue) => lockScope(db, scope(scopeValue)),
    async list(db, scopeValue, q) {
      const { rows, total } = await listItemRows<R>(db, t, columns, { ...q, scope: scope(scopeValue) });
      const items = await hydrate(
        db,
        rows.map(({ sort_value: _value, ...row }) => row as unknown as R),
      );
      const positions = rows.map((r) => ({ id: r.id, value: r.sort_value as CursorPosition['value'] }));
      return { items, total, positions };
    },
    async idBySlug(db, scopeValue, slug) {
      const row = await findItemRow<{ id: string }>(db, t, ['id'], scope(scopeValue), { slug });
      return row?.id ?? null;
    },
    async slugsLike(db, scopeValue, base) {
      const res = await sql<{ slug: string }>`select slug from ${sql.table(t.table)}
        where ${sql.ref(scopeColumn)} = ${scopeValue} and (slug = ${base} or slug like ${`${base}-%`})`.execute(db.kysely);
      return new Set(res.rows.map((r) => r.slug));
    },
    async maxPosition(db, scopeValue) {
      const res = await sql<{ m: unknown }>`select max(position) as m from ${sql.table(t.table)} where ${sql.ref(scopeColumn)} = ${scopeValue}`.execute(
        db.kysely,
      );
      const m = res.rows[0]?.m;
      return m === null || m === undefined ? -1 : Number(m);
    },
    async exists(db, id) {
      const res = await sql`select 1 from ${sql.table(t.table)} where id = ${id}`.execute(db.kysely);
      return res.rows.length > 0;
    },
  };
}
