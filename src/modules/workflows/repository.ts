/**
 * SQL of review workflows (docs/workflow.md "Workflows and stages", "Approvals"; migration 032):
 * workflow rows, items' stored states, their assignees and approvals, and the people they name.
 * Every read of many items is one statement per table, so a list of 100 items costs the same
 * few queries as one item.
 */
import { sql } from 'kysely';
import type { Db, WorkflowItemsTable, WorkflowsTable } from '../../db/types.js';
import type { ItemKind } from '../publishing/states.js';

export type WorkflowRow = WorkflowsTable;
export type ItemStateRow = WorkflowItemsTable;

/** A person as workflows show one. */
export interface Person {
  id: number;
  email: string;
  name: string | null;
}

export type PeopleTable = 'workflow_assignees' | 'workflow_approvals';

const itemColumn = (kind: ItemKind) => (kind === 'entry' ? 'entry_id' : 'page_id');

/** The workspace's workflows, oldest first. */
export async function listWorkflowRows(db: Db, workspaceId: string): Promise<WorkflowRow[]> {
  return db.kysely.selectFrom('workflows').selectAll().where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('id').execute();
}

export async function findWorkflowRow(db: Db, workspaceId: string, id: string): Promise<WorkflowRow | null> {
  return (await db.kysely.selectFrom('workflows').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst()) ?? null;
}

export async function insertWorkflow(db: Db, row: WorkflowRow): Promise<void> {
  await db.kysely.insertInto('workflows').values(row).execute();
}

export async function updateWorkflowRow(db: Db, id: string, values: Partial<WorkflowRow>): Promise<void> {
  await db.kysely.updateTable('workflows').set(values).where('id', '=', id).execute();
}

export async function deleteWorkflowRow(db: Db, id: string): Promise<void> {
  // The item states (and their people) go with it: ON DELETE CASCADE.
  await db.kysely.deleteFrom('workflows').where('id', '=', id).execute();
}

/** The stored states of these items of one kind. */
export async function itemStateRows(db: Db, kind: ItemKind, ids: readonly string[]): Promise<ItemStateRow[]> {
  if (ids.length === 0) return [];
  return db.kysely
    .selectFrom('workflow_items')
    .selectAll()
    .where(itemColumn(kind), 'in', [...ids])
    .execute();
}

/** The assignees or approvals of these states, oldest first. */
export async function peopleRows(
  db: Db,
  table: PeopleTable,
  stateIds: readonly string[],
): Promise<{ workflow_item_id: string; user_id: number; created_at: string }[]> {
  if (stateIds.length === 0) return [];
  return db.kysely
    .selectFrom(table)
    .selectAll()
    .where('workflow_item_id', 'in', [...stateIds])
    .orderBy('created_at')
    .orderBy('user_id')
    .execute();
}

/** The people with these ids (absent ids are left out). */
export async function peopleByIds(db: Db, ids: readonly number[]): Promise<Person[]> {
  if (ids.length === 0) return [];
  return db.kysely
    .selectFrom('users')
    .select(['id', 'email', 'name'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
}

/** The members of `workspaceId` among these ids or emails (emails compared case-insensitively). */
export async function membersAmong(db: Db, workspaceId: string, ids: readonly number[], emails: readonly string[]): Promise<Person[]> {
  if (ids.length === 0 && emails.length === 0) return [];
  return db.kysely
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.email', 'u.name'])
    .where('m.workspace_id', '=', workspaceId)
    .where((eb) =>
      eb.or([
        ...(ids.length ? [eb('u.id', 'in', [...ids])] : []),
        ...(emails.length
          ? [
              eb(
                sql<string>`lower(${sql.ref('u.email')})`,
                'in',
                emails.map((e) => e.toLowerCase()),
              ),
            ]
          : []),
      ]),
    )
    .execute();
}

/** The user ids of the workspace's owners and admins (those told when nobody is assigned). */
export async function managerIds(db: Db, workspaceId: string): Promise<number[]> {
  const rows = await db.kysely
    .selectFrom('memberships')
    .select('user_id')
    .where('workspace_id', '=', workspaceId)
    .where('role', 'in', ['owner', 'admin'])
    .execute();
  return rows.map((r) => r.user_id);
}

export async function insertItemState(db: Db, row: ItemStateRow): Promise<void> {
  await db.kysely.insertInto('workflow_items').values(row).execute();
}

export async function updateItemState(db: Db, id: string, values: Partial<ItemStateRow>): Promise<void> {
  await db.kysely.updateTable('workflow_items').set(values).where('id', '=', id).execute();
}

/** Deletes the assignees or approvals of a state: all, or those of `userIds`. */
export async function deletePeople(db: Db, table: PeopleTable, stateId: string, userIds?: readonly number[]): Promise<void> {
  let q = db.kysely.deleteFrom(table).where('workflow_item_id', '=', stateId);
  if (userIds) {
    if (userIds.length === 0) return;
    q = q.where('user_id', 'in', [...userIds]);
  }
  await q.execute();
}

export async function insertPeople(db: Db, table: PeopleTable, stateId: string, userIds: readonly number[], at: string): Promise<void> {
  if (userIds.length === 0) return;
  await db.kysely
    .insertInto(table)
    .values(userIds.map((user_id) => ({ workflow_item_id: stateId, user_id, created_at: at })))
    .onConflict((oc) => oc.columns(['workflow_item_id', 'user_id']).doNothing())
    .execute();
}

/** Deletes the approvals of one item's working copy (a content write); nothing when it has none. */
export async function deleteItemApprovals(db: Db, kind: ItemKind, itemId: string): Promise<void> {
  await db.kysely
    .deleteFrom('workflow_approvals')
    .where('workflow_item_id', 'in', (eb) => eb.selectFrom('workflow_items').select('id').where(itemColumn(kind), '=', itemId))
    .execute();
}

/** Moves the states of `workflowId` in stages other than `keep` to stage `to` (no approvals left there). */
export async function moveStatesOutOf(db: Db, workflowId: string, keep: readonly string[], to: string, at: string): Promise<void> {
  const stale = db.kysely
    .selectFrom('workflow_items')
    .select('id')
    .where('workflow_id', '=', workflowId)
    .where('stage_id', 'not in', [...keep]);
  await db.kysely.deleteFrom('workflow_approvals').where('workflow_item_id', 'in', stale).execute();
  await db.kysely
    .updateTable('workflow_items')
    .set({ stage_id: to, stage_changed_at: at, stage_changed_by: null })
    .where('workflow_id', '=', workflowId)
    .where('stage_id', 'not in', [...keep])
    .execute();
}

/** Drops the states of `workflowId` that belong to items it no longer covers. */
export async function dropUncoveredStates(db: Db, workflowId: string, contentTypeIds: readonly string[], pages: boolean): Promise<void> {
  let q = db.kysely.deleteFrom('workflow_items').where('workflow_id', '=', workflowId);
  q = q.where((eb) =>
    eb.or([
      ...(pages ? [] : [eb('item_kind', '=', 'page')]),
      eb.and([
        eb('item_kind', '=', 'entry'),
        contentTypeIds.length === 0
          ? sql<boolean>`1 = 1`
          : eb(
              'entry_id',
              'not in',
              eb
                .selectFrom('entries')
                .select('id')
                .where('content_type_id', 'in', [...contentTypeIds]),
            ),
      ]),
    ]),
  );
  await q.execute();
}

/**
 * The users who last changed these items' working copies (lastEditorOf for many items in one
 * query), by item id; an item whose versions name no one is absent.
 */
export async function lastEditorsOf(db: Db, kind: ItemKind, itemIds: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (itemIds.length === 0) return out;
  const versions = kind === 'entry' ? 'entry_versions' : 'page_versions';
  const fk = itemColumn(kind);
  const res = await sql<{ item_id: string; created_by: number | null }>`select v.${sql.ref(fk)} as item_id, v.created_by from ${sql.table(versions)} v
    where v.${sql.ref(fk)} in (${sql.join(itemIds.map((id) => sql`${id}`))})
    and v.version = (select max(w.version) from ${sql.table(versions)} w
      where w.${sql.ref(fk)} = v.${sql.ref(fk)} and w.action not in ('publish', 'unpublish', 'archive', 'schedule'))`.execute(db.kysely);
  for (const r of res.rows) if (r.created_by !== null) out.set(r.item_id, Number(r.created_by));
  return out;
}

/**
 * The user who last changed an item's working copy: the author of its newest version that is not
 * a state change (publish, unpublish, archive, schedule copy the working copy without changing it).
 */
export async function lastEditorOf(db: Db, kind: ItemKind, itemId: string): Promise<number | null> {
  const versions = kind === 'entry' ? 'entry_versions' : 'page_versions';
  const fk = itemColumn(kind);
  const res = await sql<{ created_by: number | null }>`select created_by from ${sql.table(versions)}
    where ${sql.ref(fk)} = ${itemId} and action not in ('publish', 'unpublish', 'archive', 'schedule')
    order by version desc limit 1`.execute(db.kysely);
  return res.rows[0]?.created_by ?? null;
}
