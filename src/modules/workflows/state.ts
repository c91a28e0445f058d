/**
 * Items' workflow states as reads show them, the publish guard and the content-write hook
 * (docs/workflow.md "Workflows and stages", "Approvals", "The publish guard").
 *
 * - An entry is covered by the workflow listing its content type, a page by the workflow with
 *   `pages`; an item of no covered kind has no state (`workflow: null`).
 * - A covered item with no stored state, or with a state of another workflow (its type moved to
 *   this one), is in the workflow's first stage with no approvals, assignees or stage time.
 * - Reads of many items take one query per table (workflows, states, assignees, approvals, people).
 */
import { AppError, type ErrorDetail } from '../../errors.js';
import type { Db } from '../../db/types.js';
import type { ItemKind } from '../publishing/states.js';
import {
  itemStateRows,
  lastEditorsOf,
  listWorkflowRows,
  peopleByIds,
  peopleRows,
  deleteItemApprovals,
  type ItemStateRow,
  type Person,
  type WorkflowRow,
} from './repository.js';
import { storedStages, type Stage } from './rules.js';

/** An item's place in its workflow, as management reads show it (`workflow`). */
export interface WorkflowState {
  workflow_id: string;
  stage: { id: string; name: string };
  required_approvals: number;
  approvals: { user: Person; at: string }[];
  assignees: Person[];
  stage_changed_at: string | null;
  /** Who last changed the working copy (their approval does not count, docs/workflow.md "Approvals"); null when unknown. */
  last_editor: Person | null;
}

/** A stored workflow with its stages parsed. */
export interface LoadedWorkflow {
  row: WorkflowRow;
  stages: Stage[];
  contentTypeIds: string[];
  pages: boolean;
}

/** What the state of one item needs to know of it. */
export interface ItemOfKind {
  id: string;
  /** An entry's content type id; null for a page. */
  content_type_id?: string | null;
}

export function loadWorkflow(row: WorkflowRow): LoadedWorkflow {
  return { row, stages: storedStages(row.stages), contentTypeIds: JSON.parse(row.content_type_ids) as string[], pages: row.pages === 1 };
}

/** The workspace's workflows, parsed. */
export async function loadWorkflows(db: Db, workspaceId: string): Promise<LoadedWorkflow[]> {
  return (await listWorkflowRows(db, workspaceId)).map(loadWorkflow);
}

/** The workflow covering an item of `kind` (and content type `contentTypeId` for an entry), if any. */
export function coveringWorkflow(workflows: readonly LoadedWorkflow[], kind: ItemKind, contentTypeId: string | null | undefined): LoadedWorkflow | undefined {
  return workflows.find((w) => (kind === 'page' ? w.pages : contentTypeId != null && w.contentTypeIds.includes(contentTypeId)));
}

/** The stored state of an item when it counts (same workflow, a stage it still has), else null: the item is in the first stage. */
export function effectiveRow(wf: LoadedWorkflow, row: ItemStateRow | undefined): ItemStateRow | null {
  if (!row || row.workflow_id !== wf.row.id || !wf.stages.some((s) => s.id === row.stage_id)) return null;
  return row;
}

/** The stage an item is in: its stored one, or the first. */
export function currentStage(wf: LoadedWorkflow, row: ItemStateRow | null): Stage {
  return (row && wf.stages.find((s) => s.id === row.stage_id)) ?? wf.stages[0];
}

/**
 * The workflow states of `items` (all of one kind, in one workspace), by item id: null for items
 * no workflow covers. Five queries whatever the number of items.
 */
export async function workflowStates(db: Db, workspaceId: string, kind: ItemKind, items: readonly ItemOfKind[]): Promise<Map<string, WorkflowState | null>> {
  const out = new Map<string, WorkflowState | null>();
  if (items.length === 0) return out;
  const workflows = await loadWorkflows(db, workspaceId);
  const covered = items.flatMap((i) => {
    const wf = coveringWorkflow(workflows, kind, i.content_type_id);
    if (!wf) out.set(i.id, null);
    return wf ? [{ item: i, wf }] : [];
  });
  if (covered.length === 0) return out;
  const rows = new Map(
    (
      await itemStateRows(
        db,
        kind,
        covered.map((c) => c.item.id),
      )
    ).map((r) => [kind === 'entry' ? r.entry_id! : r.page_id!, r]),
  );
  const live = covered.map((c) => ({ ...c, row: effectiveRow(c.wf, rows.get(c.item.id)) }));
  const stateIds = live.flatMap((l) => (l.row ? [l.row.id] : []));
  const assignees = await peopleRows(db, 'workflow_assignees', stateIds);
  const approvals = await peopleRows(db, 'workflow_approvals', stateIds);
  const editors = await lastEditorsOf(
    db,
    kind,
    covered.map((c) => c.item.id),
  );
  const people = new Map(
    (await peopleByIds(db, [...assignees.map((p) => p.user_id), ...approvals.map((p) => p.user_id), ...editors.values()])).map((p) => [p.id, p]),
  );
  const byState = <T extends { workflow_item_id: string }>(list: T[]) => {
    const m = new Map<string, T[]>();
    for (const x of list) m.set(x.workflow_item_id, [...(m.get(x.workflow_item_id) ?? []), x]);
    return m;
  };
  const assigneesOf = byState(assignees);
  const approvalsOf = byState(approvals);
  for (const { item, wf, row } of live) {
    const stage = currentStage(wf, row);
    out.set(item.id, {
      workflow_id: wf.row.id,
      stage: { id: stage.id, name: stage.name },
      required_approvals: stage.required_approvals,
      approvals: row ? (approvalsOf.get(row.id) ?? []).flatMap((a) => (people.has(a.user_id) ? [{ user: people.get(a.user_id)!, at: a.created_at }] : [])) : [],
      assignees: row ? (assigneesOf.get(row.id) ?? []).flatMap((a) => (people.has(a.user_id) ? [people.get(a.user_id)!] : [])) : [],
      stage_changed_at: row?.stage_changed_at ?? null,
      last_editor: people.get(editors.get(item.id) ?? -1) ?? null,
    });
  }
  return out;
}

/** An item a publication is about, for the publish guard. */
export interface GuardedItem {
  kind: ItemKind;
  id: string;
  slug: string;
  /** An entry's content type id; null for a page. */
  contentTypeId: string | null;
}

/**
 * The publish guard's problems for `items` of workspace `workspaceId` (docs/workflow.md "The
 * publish guard"): one `{path: "<kind>.<id>", message}` for each covered item that is not in its
 * workflow's publish stage; empty when all may be published. One query per kind.
 */
export async function publishStageProblems(db: Db, workspaceId: string, items: readonly GuardedItem[]): Promise<ErrorDetail[]> {
  if (items.length === 0) return [];
  const workflows = await loadWorkflows(db, workspaceId);
  if (workflows.length === 0) return [];
  const problems: ErrorDetail[] = [];
  for (const kind of ['entry', 'page'] as const) {
    const mine = items.flatMap((i) => {
      const wf = i.kind === kind ? coveringWorkflow(workflows, kind, i.contentTypeId) : undefined;
      return wf ? [{ item: i, wf }] : [];
    });
    if (mine.length === 0) continue;
    const rows = new Map(
      (
        await itemStateRows(
          db,
          kind,
          mine.map((m) => m.item.id),
        )
      ).map((r) => [kind === 'entry' ? r.entry_id! : r.page_id!, r]),
    );
    for (const { item, wf } of mine) {
      const stage = currentStage(wf, effectiveRow(wf, rows.get(item.id)));
      if (stage.id === wf.row.publish_stage) continue;
      const target = wf.stages.find((s) => s.id === wf.row.publish_stage);
      problems.push({
        path: `${kind}.${item.id}`,
        message: `${kind} '${item.slug}' is in stage '${stage.name}' of workflow '${wf.row.name}'; it can be published from stage '${target?.name ?? wf.row.publish_stage}' only`,
      });
    }
  }
  return problems;
}

/** The guard as an error: 409 WORKFLOW_STAGE naming the required stage, each item in `errors`. */
export function workflowStageError(problems: readonly ErrorDetail[]): AppError {
  const message = problems.length === 1 ? problems[0].message : `${problems.length} items are not in their workflow's publish stage`;
  return new AppError('WORKFLOW_STAGE', message, [...problems]);
}

/**
 * Throws 409 WORKFLOW_STAGE unless every one of `items` may be published by its workflow: the one
 * check every publish path calls (the publishing core for direct, bulk and scheduled publication;
 * releases). The Contentful importer and restores do not call it.
 */
export async function assertPublishStage(db: Db, workspaceId: string, items: readonly GuardedItem[]): Promise<void> {
  const problems = await publishStageProblems(db, workspaceId, items);
  if (problems.length) throw workflowStageError(problems);
}

/**
 * A write changed an item's working copy: its approvals were of the content before, so they go
 * (its stage stays). Called by the publishing core wherever it records a content change.
 */
export async function workingCopyChanged(db: Db, kind: ItemKind, itemId: string): Promise<void> {
  await deleteItemApprovals(db, kind, itemId);
}
