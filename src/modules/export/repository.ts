/**
 * SQL of workspace export and restore (src/modules/export): keyset-paged reads of one workspace's
 * rows of a table in primary-key order, batched inserts, and the few lookups restore needs. Rows
 * are handled generically through the table specs of format.ts, so a column added by a later
 * migration is exported and restored without a change here.
 */
import { sql, type RawBuilder } from 'kysely';
import { advanceSerialSequence } from '../../db/catalog.js';
import { inByteOrder } from '../../db/dialect.js';
import type { Db } from '../../db/types.js';
import type { ParentTable, TableName, TableSpec } from './format.js';

/** True when the key column holds integers (compared as numbers, never with a collation). */
function integerKey(spec: TableSpec, column: string): boolean {
  return column === 'version' || (column === 'id' && Boolean(spec.serial || spec.serialOf));
}

/** A key column in ORDER BY / row comparisons: text compared byte by byte on both databases. */
function keyRef(db: Db, spec: TableSpec, column: string): RawBuilder<unknown> {
  const ref = sql`${sql.ref(column)}`;
  return integerKey(spec, column) ? ref : inByteOrder(db.dialect, ref);
}

/** The spec's scope condition with the workspace id bound to its `?`. */
function scopeOf(spec: Pick<TableSpec, 'scope'>, workspaceId: string): RawBuilder<unknown> {
  const [before, after = ''] = spec.scope.split('?');
  return sql`${sql.raw(before)}${workspaceId}${sql.raw(after)}`;
}

/**
 * The workspace's rows of `spec.table` after the key `after` (null: from the start), at most
 * `limit`, in key order; columns as the driver returns them.
 */
export async function readBatch(
  db: Db,
  spec: TableSpec,
  workspaceId: string,
  after: readonly unknown[] | null,
  limit: number,
): Promise<Record<string, unknown>[]> {
  const keys = spec.key.map((c) => keyRef(db, spec, c));
  const order = sql.join(keys);
  const tuple = sql`(${sql.join(keys)})`;
  const past = after ? sql` AND ${tuple} > (${sql.join(after.map((v) => sql`${v}`))})` : sql``;
  const result = await sql<
    Record<string, unknown>
  >`SELECT * FROM ${sql.table(spec.table)} WHERE ${scopeOf(spec, workspaceId)}${past} ORDER BY ${order} LIMIT ${limit}`.execute(db.kysely);
  return result.rows;
}

/** Rows of a workspace's members (`--with-users`), in user id order: no password hashes. */
export async function readMembers(db: Db, workspaceId: string): Promise<Record<string, unknown>[]> {
  return db.kysely
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.user_id', 'u.email', 'u.name', 'u.created_at as user_created_at', 'm.role', 'm.created_at', 'm.updated_at'])
    .where('m.workspace_id', '=', workspaceId)
    .orderBy('m.user_id')
    .execute();
}

/** The workspace's custom roles (D120), oldest first: key, name, description and permissions (parsed). */
export async function readCustomRoles(db: Db, workspaceId: string): Promise<Record<string, unknown>[]> {
  const rows = await db.kysely
    .selectFrom('roles')
    .select(['key', 'name', 'description', 'permissions'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('created_at')
    .orderBy('key')
    .execute();
  return rows.map((r) => ({ ...r, permissions: JSON.parse(r.permissions ?? '[]') as unknown }));
}

/** Inserts rows (column values ready for the database) into `table` in one statement. */
export async function insertRows(db: Db, table: TableName, rows: Record<string, unknown>[]): Promise<void> {
  if (!rows.length) return;
  const columns = Object.keys(rows[0]);
  const values = rows.map((r) => sql`(${sql.join(columns.map((c) => sql`${r[c]}`))})`);
  await sql`INSERT INTO ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) VALUES ${sql.join(values)}`.execute(db.kysely);
}

/** Inserts one row without its serial `id` and returns the id the database gave it. */
export async function insertWithNewId(db: Db, table: TableName, row: Record<string, unknown>): Promise<number> {
  const columns = Object.keys(row).filter((c) => c !== 'id');
  const result = await sql<{ id: number | string }>`INSERT INTO ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) VALUES (${sql.join(
    columns.map((c) => sql`${row[c]}`),
  )}) RETURNING id`.execute(db.kysely);
  return Number(result.rows[0].id);
}

/** The largest id of the serial `id` column of `table` (0 when empty). */
export async function largestSerialId(db: Db, table: TableName): Promise<number> {
  const result = await sql<{ id: number | string | null }>`SELECT MAX(id) AS id FROM ${sql.table(table)}`.execute(db.kysely);
  return Number(result.rows[0]?.id ?? 0);
}

/** Which of `ids` already exist in the serial `id` column of `table`. */
export async function takenIds(db: Db, table: TableName, ids: readonly number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const result = await sql<{ id: number | string }>`SELECT id FROM ${sql.table(table)} WHERE id IN (${sql.join(ids.map((i) => sql`${i}`))})`.execute(db.kysely);
  return new Set(result.rows.map((r) => Number(r.id)));
}

/**
 * Moves the serial sequence of `table` past its largest id, so ids the database gives later never
 * collide with the ones a restore wrote explicitly (src/db/catalog.ts advanceSerialSequence).
 */
export async function advanceSequence(db: Db, table: TableName): Promise<void> {
  await advanceSerialSequence(db, table);
}

/** Which of `ids` exist as primary keys of `table` (in any workspace). */
export async function existingKeys(db: Db, table: TableName, ids: readonly string[]): Promise<string[]> {
  if (!ids.length) return [];
  const result = await sql<{ id: string }>`SELECT id FROM ${sql.table(table)} WHERE id IN (${sql.join(ids.map((i) => sql`${i}`))})`.execute(db.kysely);
  return result.rows.map((r) => r.id);
}

/** Which of `ids` are records of `table` in workspace `workspaceId` (restore's parent check: no row hangs under another workspace's record). */
export async function idsInWorkspace(db: Db, table: ParentTable, workspaceId: string, ids: readonly string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db.kysely.selectFrom(table).select('id').where('workspace_id', '=', workspaceId).where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

/** Sets a restored block's parent (blocks are inserted without parents first: the parent may come later in the file). */
export async function setBlockParent(db: Db, pageId: string, id: string, parentId: string): Promise<void> {
  await db.kysely.updateTable('blocks').set({ parent_id: parentId }).where('page_id', '=', pageId).where('id', '=', id).execute();
}

/** True when the workspace holds anything a restore would write: content model, content, media, releases or webhooks. */
export async function workspaceHoldsAnything(db: Db, workspaceId: string): Promise<boolean> {
  for (const table of ['content_types', 'entries', 'pages', 'media', 'releases', 'webhooks'] as const) {
    const row = await db.kysely.selectFrom(table).select('id').where('workspace_id', '=', workspaceId).limit(1).executeTakeFirst();
    if (row) return true;
  }
  return false;
}

/** A user's id by email (lower-cased), or null. */
export async function userIdByEmail(db: Db, email: string): Promise<number | null> {
  const row = await db.kysely.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  return row ? Number(row.id) : null;
}

/** True when a user with this id exists. */
export async function userIdTaken(db: Db, id: number): Promise<boolean> {
  return Boolean(await db.kysely.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst());
}
