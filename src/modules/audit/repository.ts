/**
 * SQL of the audit log (migration 029; docs/access.md "Audit log" (D122)): insert, the filtered
 * keyset list, the time-ordered walk of the export and the retention prune. Rows are never
 * updated.
 */
import { sql, type ExpressionBuilder, type Selectable } from 'kysely';
import type { AuditLogTable, Database, Db } from '../../db/types.js';

export type AuditRow = Selectable<AuditLogTable>;

/** Inserts one row (inside the change's transaction, or alone for a failed sign-in). */
export async function insertAuditRow(db: Db, row: AuditRow): Promise<void> {
  await db.kysely.insertInto('audit_log').values(row).execute();
}

/** The filters of a list, already checked (operations.ts). */
export interface AuditFilter {
  workspaceId: string;
  actor?: { type: string; id?: string };
  /** An exact action, or a prefix ending in '.' (from `entry.*`). */
  action?: { exact: string } | { prefix: string };
  target?: { kind: string; id?: string };
  /** ISO instants: from inclusive, to exclusive. */
  from?: string;
  to?: string;
}

/** Where a page resumes: after the row at (at, id), newest first. */
export interface AuditPosition {
  at: string;
  id: string;
}

/** `%` and `_` of a LIKE pattern taken literally (with `\` as the escape). */
function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The rows a workspace's list shows: its own, and the installation-wide rows (sign-in, sign-out,
 * password) about people who are its members now.
 */
function ofWorkspace(workspaceId: string) {
  return (eb: ExpressionBuilder<Database, 'audit_log'>) =>
    eb.or([
      eb('audit_log.workspace_id', '=', workspaceId),
      eb.and([
        eb('audit_log.workspace_id', 'is', null),
        eb('audit_log.target_kind', '=', 'user'),
        eb(
          'audit_log.target_id',
          'in',
          eb
            .selectFrom('memberships')
            .select(sql<string>`cast(memberships.user_id as text)`.as('uid'))
            .where('memberships.workspace_id', '=', workspaceId),
        ),
      ]),
    ]);
}

/** One page of a workspace's rows matching `f`, newest first, after `after`; `limit` rows at most. */
export async function listAuditRows(db: Db, f: AuditFilter, after: AuditPosition | null, limit: number): Promise<AuditRow[]> {
  let q = db.kysely.selectFrom('audit_log').selectAll().where(ofWorkspace(f.workspaceId));
  if (f.actor) {
    q = q.where('actor_type', '=', f.actor.type);
    if (f.actor.id !== undefined) q = q.where('actor_id', '=', f.actor.id);
  }
  if (f.action && 'exact' in f.action) q = q.where('action', '=', f.action.exact);
  if (f.action && 'prefix' in f.action) q = q.where(sql<boolean>`action like ${likePrefix(f.action.prefix)} escape '\\'`);
  if (f.target) {
    q = q.where('target_kind', '=', f.target.kind);
    if (f.target.id !== undefined) q = q.where('target_id', '=', f.target.id);
  }
  if (f.from !== undefined) q = q.where('at', '>=', f.from);
  if (f.to !== undefined) q = q.where('at', '<', f.to);
  if (after) q = q.where((eb) => eb.or([eb('at', '<', after.at), eb.and([eb('at', '=', after.at), eb('id', '<', after.id)])]));
  return q.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/**
 * Rows from `since` (inclusive) to `until` (exclusive), oldest first, after `after`, `limit` at
 * most; of one workspace (its own rows and its members' installation-wide ones) or, without one,
 * of the whole installation. The export walks these pages so it never holds the log in memory.
 */
export async function auditRowsSince(
  db: Db,
  range: { since: string; until?: string; workspaceId?: string },
  after: AuditPosition | null,
  limit: number,
): Promise<AuditRow[]> {
  let q = db.kysely.selectFrom('audit_log').selectAll().where('at', '>=', range.since);
  if (range.until !== undefined) q = q.where('at', '<', range.until);
  if (range.workspaceId !== undefined) q = q.where(ofWorkspace(range.workspaceId));
  if (after) q = q.where((eb) => eb.or([eb('at', '>', after.at), eb.and([eb('at', '=', after.at), eb('id', '>', after.id)])]));
  return q.orderBy('at', 'asc').orderBy('id', 'asc').limit(limit).execute();
}

/**
 * Deletes up to `limit` rows older than `before` (oldest first) and returns how many went. Small
 * batches keep each delete's lock short; two instances pruning at once delete disjoint or
 * already-gone rows, which is harmless.
 */
export async function pruneAuditRows(db: Db, before: string, limit: number): Promise<number> {
  const ids = db.kysely.selectFrom('audit_log').select('id').where('at', '<', before).orderBy('at').limit(limit);
  const result = await db.kysely.deleteFrom('audit_log').where('id', 'in', ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}
