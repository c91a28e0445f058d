/**
 * Workflows in workspace exports (docs/workflow.md "Workflows and stages"; docs/cli.md "Export
 * and restore"): `workflows.ndjson`, written when the workspace has workflows, one line per
 * workflow:
 *
 *   {id, name, content_types: [slug], pages, stages: [{id, name, required_approvals, roles}],
 *    publish_stage, created_at, updated_at, items: [{kind, id, stage_id, stage_changed_at, assignees: [email]}]}
 *
 * Stage roles are written by role name (a custom role gets a new key when restored); assignees by
 * email (members are matched by email). A restore checks each workflow as POST /workflows checks
 * one (against the restored types and roles), keeps its id and its stages' ids, and puts each item
 * back in its stage: an item of the export that the workflow does not cover, or a stage it lacks,
 * refuses the export. Assignees who are not members of the restored workspace are left out;
 * approvals are not carried (a restored item starts its stage's approvals over).
 */
import type { Db } from '../../db/types.js';
import { invalid, validationError, type ErrorDetail } from '../../errors.js';
import { isUuid, newId } from '../../lib/ids.js';
import { readWorkspaceRoles } from '../access/repository.js';
import { PRESET_TABLE } from '../access/roles.js';
import { systemActor } from '../auth/permissions.js';
import { listAllContentTypes } from '../content-types/repository.js';
import { insertItemState, insertPeople, insertWorkflow, listWorkflowRows, membersAmong, peopleByIds, peopleRows, type WorkflowRow } from './repository.js';
import { checkWorkflow } from './operations.js';
import { loadWorkflow } from './state.js';

export { WORKFLOWS_FILE } from '../export/format.js';

/** The export lines of the workspace's workflows, oldest first. */
export async function exportWorkflows(db: Db, workspaceId: string): Promise<Record<string, unknown>[]> {
  const rows = await listWorkflowRows(db, workspaceId);
  if (rows.length === 0) return [];
  const slugs = new Map((await listAllContentTypes(db, workspaceId)).map((t) => [t.id, t.slug]));
  const roles = new Map([...PRESET_TABLE.rows, ...(await readWorkspaceRoles(db, workspaceId))].map((r) => [r.name, r.label]));
  const out: Record<string, unknown>[] = [];
  for (const row of rows) {
    const wf = loadWorkflow(row);
    const states = await db.kysely.selectFrom('workflow_items').selectAll().where('workflow_id', '=', row.id).orderBy('id').execute();
    const assignees = await peopleRows(
      db,
      'workflow_assignees',
      states.map((s) => s.id),
    );
    const emails = new Map(
      (
        await peopleByIds(
          db,
          assignees.map((a) => a.user_id),
        )
      ).map((p) => [p.id, p.email]),
    );
    out.push({
      id: row.id,
      name: row.name,
      content_types: wf.contentTypeIds.flatMap((id) => (slugs.has(id) ? [slugs.get(id)!] : [])),
      pages: wf.pages,
      stages: wf.stages.map((s) => ({ ...s, roles: s.roles === null ? null : s.roles.map((k) => roles.get(k) ?? k) })),
      publish_stage: row.publish_stage,
      created_at: row.created_at,
      updated_at: row.updated_at,
      items: states
        .filter((s) => wf.stages.some((st) => st.id === s.stage_id))
        .map((s) => ({
          kind: s.item_kind,
          id: s.item_kind === 'entry' ? s.entry_id : s.page_id,
          stage_id: s.stage_id,
          stage_changed_at: s.stage_changed_at,
          assignees: assignees.filter((a) => a.workflow_item_id === s.id).flatMap((a) => (emails.has(a.user_id) ? [emails.get(a.user_id)!] : [])),
        })),
    });
  }
  return out;
}

const text = (v: unknown, path: string): string => {
  if (typeof v !== 'string') throw invalid(path, 'is not text');
  return v;
};

/**
 * Restores one line of `workflows.ndjson` into `workspaceId` (inside the restore's transaction),
 * after its content types, entries, pages, members and custom roles. Throws 400 VALIDATION_FAILED
 * naming the line's keys (`stages.1.roles.0`, `items.3.stage_id`); the restore turns it into a
 * refusal of the export.
 */
export async function restoreWorkflow(db: Db, workspaceId: string, line: Record<string, unknown>, at: string): Promise<void> {
  const id = text(line.id, 'id');
  if (!isUuid(id)) throw invalid('id', 'is not a uuid');
  if (!Array.isArray(line.stages)) throw invalid('stages', 'is not a list');
  if (!Array.isArray(line.content_types)) throw invalid('content_types', 'is not a list');
  if (!Array.isArray(line.items)) throw invalid('items', 'is not a list');
  if (typeof line.pages !== 'boolean') throw invalid('pages', 'is not true or false');
  const actor = { ...systemActor(workspaceId, 0), roles: PRESET_TABLE.with(await readWorkspaceRoles(db, workspaceId)) };
  // Checked as a PATCH of a workflow holding these stages would be: their ids are kept.
  const asStored = { id, stages: JSON.stringify(line.stages) } as WorkflowRow;
  let checked;
  try {
    checked = await checkWorkflow(
      db,
      actor,
      {
        name: text(line.name, 'name'),
        content_types: line.content_types as string[],
        pages: line.pages,
        stages: line.stages as never,
        publish_stage: text(line.publish_stage, 'publish_stage'),
      },
      asStored,
    );
  } catch (err) {
    const e = err as { errors?: ErrorDetail[] | null };
    if (e.errors) throw validationError(e.errors.map((d) => ({ ...d, path: d.path.replace(/^body\./, '') })));
    throw err;
  }
  const row: WorkflowRow = {
    id,
    workspace_id: workspaceId,
    name: checked.name,
    content_type_ids: JSON.stringify(checked.contentTypeIds),
    pages: checked.pages ? 1 : 0,
    stages: JSON.stringify(checked.stages),
    publish_stage: checked.publishStage,
    created_at: typeof line.created_at === 'string' ? line.created_at : at,
    updated_at: typeof line.updated_at === 'string' ? line.updated_at : at,
    created_by: null,
    updated_by: null,
  };
  await insertWorkflow(db, row);
  const wf = loadWorkflow(row);
  for (const [i, raw] of (line.items as unknown[]).entries()) {
    const item = raw as Record<string, unknown>;
    const at_ = `items.${i}`;
    if (item === null || typeof item !== 'object') throw invalid(at_, 'is not an object');
    const kind = item.kind;
    if (kind !== 'entry' && kind !== 'page') throw invalid(`${at_}.kind`, 'is not entry or page');
    const itemId = text(item.id, `${at_}.id`);
    if (!isUuid(itemId)) throw invalid(`${at_}.id`, 'is not a uuid');
    const stage = wf.stages.find((s) => s.id === item.stage_id);
    if (!stage) throw invalid(`${at_}.stage_id`, 'is not a stage of this workflow');
    const covered =
      kind === 'page'
        ? wf.pages && (await db.kysely.selectFrom('pages').select('id').where('id', '=', itemId).where('workspace_id', '=', workspaceId).executeTakeFirst())
        : await db.kysely
            .selectFrom('entries')
            .select('id')
            .where('id', '=', itemId)
            .where('workspace_id', '=', workspaceId)
            .where('content_type_id', 'in', wf.contentTypeIds.length ? wf.contentTypeIds : [''])
            .executeTakeFirst();
    if (!covered) throw invalid(`${at_}.id`, `is not a ${kind} of this export that the workflow covers`);
    const changedAt = item.stage_changed_at === null || item.stage_changed_at === undefined ? null : text(item.stage_changed_at, `${at_}.stage_changed_at`);
    const stateId = newId();
    await insertItemState(db, {
      id: stateId,
      workspace_id: workspaceId,
      workflow_id: id,
      item_kind: kind,
      entry_id: kind === 'entry' ? itemId : null,
      page_id: kind === 'page' ? itemId : null,
      stage_id: stage.id,
      stage_changed_at: changedAt,
      stage_changed_by: null,
    });
    const emails = Array.isArray(item.assignees) ? item.assignees.filter((e): e is string => typeof e === 'string') : [];
    const members = await membersAmong(db, workspaceId, [], emails);
    await insertPeople(
      db,
      'workflow_assignees',
      stateId,
      members.map((m) => m.id),
      at,
    );
  }
}
