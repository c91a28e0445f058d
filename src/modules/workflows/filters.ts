/**
 * The list filters `?stage=<id|name>` and `?assignee=<userId|me>` of the management entry and page
 * lists (docs/workflow.md "Workflows and stages"), as a condition on the item table's rows. An item
 * with no stored state (or one of another workflow) is in the first stage and has no assignees.
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../db/types.js';
import { invalid } from '../../errors.js';
import type { Actor } from '../auth/permissions.js';
import type { ItemKind } from '../publishing/states.js';
import { findStage } from './rules.js';
import { coveringWorkflow, loadWorkflows } from './state.js';

export interface WorkflowListFilters {
  stage?: string;
  assignee?: string;
}

/**
 * The condition `filters` put on a list of items of `kind` (entries of content type
 * `contentTypeId`, or pages), or undefined when they name nothing. 400 at `query.stage` for a
 * stage the covering workflow lacks or a kind no workflow covers; 400 at `query.assignee` for
 * anything but a user id or `me`.
 */
export async function workflowListCondition(
  db: Db,
  actor: Actor,
  kind: ItemKind,
  contentTypeId: string | null,
  filters: WorkflowListFilters,
): Promise<RawBuilder<SqlBool> | undefined> {
  if (filters.stage === undefined && filters.assignee === undefined) return undefined;
  let assignee: number | undefined;
  if (filters.assignee !== undefined) {
    if (filters.assignee === 'me') assignee = actor.userId;
    else if (/^[1-9][0-9]{0,15}$/.test(filters.assignee)) assignee = Number(filters.assignee);
    else throw invalid('query.assignee', "must be a user id or 'me'");
  }
  const wf = coveringWorkflow(await loadWorkflows(db, actor.workspaceId), kind, contentTypeId);
  if (!wf) {
    if (filters.stage !== undefined) throw invalid('query.stage', `no workflow covers ${kind === 'entry' ? 'this content type' : 'pages'}`);
    // Nobody is assigned to an item outside every workflow.
    return sql<SqlBool>`1 = 0`;
  }
  const table = kind === 'entry' ? 'entries' : 'pages';
  const column = kind === 'entry' ? 'entry_id' : 'page_id';
  const own = sql`wi.${sql.ref(column)} = ${sql.ref(`${table}.id`)} and wi.workflow_id = ${wf.row.id}`;
  const parts: RawBuilder<SqlBool>[] = [];
  if (filters.stage !== undefined) {
    const stage = findStage(wf.stages, filters.stage);
    if (!stage) throw invalid('query.stage', `'${filters.stage}' is not a stage of workflow '${wf.row.name}' (${wf.stages.map((s) => s.name).join(', ')})`);
    if (stage.id === wf.stages[0].id) {
      const later = wf.stages.slice(1).map((s) => s.id);
      if (later.length) parts.push(sql<SqlBool>`not exists (select 1 from workflow_items wi where ${own} and wi.stage_id in (${sql.join(later)}))`);
    } else {
      parts.push(sql<SqlBool>`exists (select 1 from workflow_items wi where ${own} and wi.stage_id = ${stage.id})`);
    }
  }
  if (assignee !== undefined) {
    const stages = wf.stages.map((s) => s.id);
    parts.push(
      sql<SqlBool>`exists (select 1 from workflow_items wi inner join workflow_assignees wa on wa.workflow_item_id = wi.id
        where ${own} and wi.stage_id in (${sql.join(stages)}) and wa.user_id = ${assignee})`,
    );
  }
  if (parts.length === 0) return undefined;
  return sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
}
