/**
 * SQL of the audit log (migration 029; docs/access.md "Audit log" (D122)): insert, the filtered
 * keyset list, the time-ordered walk of the export and the retention prune. Rows are never
 * updated.
 */
import { sql, type ExpressionBuilder, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { AuditLogTable, Database, Db } from '../../db/types.js';

export type AuditRow = Selectable<AuditLogTable>;

/** The kinds of action recorded installation-wide (`session.sign_in`, `password.changed`, …). */
const INSTALLATION_KINDS = ['session', 'password'];

/** Whether an action filter can match actions of `kind`. */
function actionMayBe(action: NonNullable<AuditFilter['action']>, kind: string): boolean {
  const name = 'exact' in action ? action.exact : action.prefix;
  return name.startsWith(`${kind}.`) || `${kind}.`.startsWith(name);
}

/** `workspace_id` of installation-wide rows (sign-in, sign-out, passwords): '' rather than null (migration 029 says why). */
export const INSTALLATION = '';

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
        eb('audit_log.workspace_id', '=', INSTALLATION),
        eb('audit_log.target_kind', '=', 'user'),
        eb('audit_log.target_id', 'in', memberIds(workspaceId)(eb)),
      ]),
    ]);
}

/** The members of `workspaceId` as the audit log names people (`user` targets). */
function memberIds(workspaceId: string) {
  return (eb: ExpressionBuilder<Database, 'audit_log'>) =>
    eb
      .selectFrom('memberships')
      .select(sql<string>`cast(memberships.user_id as text)`.as('uid'))
      .where('memberships.workspace_id', '=', workspaceId);
}

type AuditSelect = SelectQueryBuilder<Database, 'audit_log', AuditRow>;

/** `q` narrowed to the filters of `f` and to the rows after `after`, newest first, `limit` at most. */
function filteredPage(q: AuditSelect, f: AuditFilter, after: AuditPosition | null, limit: number): AuditSelect {
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
  return q.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit);
}

/** Members per statement of the people part: one ordered walk each, joined by UNION ALL. */
const PEOPLE_PER_QUERY = 100;

/** Newest first: by time, then id. */
function newestFirst(a: AuditRow, b: AuditRow): number {
  if (a.at !== b.at) return a.at < b.at ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/**
 * One page of a workspace's rows matching `f`, newest first, after `after`; `limit` rows at most.
 * Its own rows are one ordered walk of an index ending in (at, id). The installation-wide rows
 * about its members (sign-ins, sign-outs, passwords) are one ordered walk per member (index
 * audit_log_workspace_target), each stopping at `limit`, 100 members a statement: one query
 * with an IN list or an OR would read and sort every such row of every member first. The walks
 * are merged here.
 */
export async function listAuditRows(db: Db, f: AuditFilter, after: AuditPosition | null, limit: number): Promise<AuditRow[]> {
  const own = await filteredPage(db.kysely.selectFrom('audit_log').selectAll().where('workspace_id', '=', f.workspaceId), f, after, limit).execute();
  const rows = [...own];
  // Installation-wide rows are about people (`user` targets) only, and are session and password actions.
  if ((!f.target || f.target.kind === 'user') && (!f.action || INSTALLATION_KINDS.some((k) => actionMayBe(f.action!, k)))) {
    let people = (await db.kysely.selectFrom('memberships').select('user_id').where('workspace_id', '=', f.workspaceId).execute()).map((m) =>
      String(m.user_id),
    );
    if (f.target?.id !== undefined) people = people.filter((id) => id === f.target!.id);
    for (let i = 0; i < people.length; i += PEOPLE_PER_QUERY) {
      const walks = people
        .slice(i, i + PEOPLE_PER_QUERY)
        .map((id) =>
          db.kysely
            .selectFrom((eb) =>
              filteredPage(
                eb.selectFrom('audit_log').selectAll().where('workspace_id', '=', INSTALLATION).where('target_kind', '=', 'user').where('target_id', '=', id),
                f,
                after,
                limit,
              ).as('p'),
            )
            .selectAll(),
        );
      rows.push(...(await walks.reduce((q, w) => q.unionAll(w)).execute()));
    }
  }
  return rows.sort(newestFirst).slice(0, limit);
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
