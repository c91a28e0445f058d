/**
 * Review workflows (docs/workflow.md "Workflows and stages", "Approvals", "The publish guard").
 *
 * - Workflows: any member or management key lists and reads them; creating, changing and deleting
 *   one needs `schema:write` (owners and admins, or a key with that scope). A content type, or the
 *   pages, belong to at most one workflow (400 naming `body.content_types.<i>` / `body.pages`).
 *   A PATCH that removes a stage moves its items to the first stage and clears their approvals;
 *   a PATCH that stops covering a type (or the pages) drops its items' states; DELETE drops every
 *   item's state.
 * - Items (an entry or a page): moving to a stage, approving, requesting changes and setting
 *   assignees need the right to update the item. Each runs in one transaction with its audit
 *   entry, Studio activity (so open editors refresh) and notifications.
 *
 * Stage moves: the target stage's roles (403; owners always may), and moving on (to a later stage)
 * from a stage that requires N approvals needs N approvals of the working copy by people other
 * than its last editor (409 APPROVALS_MISSING), and may not skip a stage that requires approvals
 * (409 APPROVALS_MISSING naming it). Moving back needs none. A move clears the item's approvals:
 * each stage gathers its own.
 */
import type { Context } from '../../context.js';
import type { Db } from '../../db/types.js';
import { withTransaction } from '../../db/transaction.js';
import { lockRowsForCommitOrder } from '../../db/lock.js';
import { AppError, invalid, notFound, validationError, type ErrorDetail } from '../../errors.js';
import { isUuid, newId } from '../../lib/ids.js';
import { iso } from '../../lib/time.js';
import { authorize, authorizeItem, authorizeStage } from '../access/authorize.js';
import { PRESET_TABLE } from '../access/roles.js';
import type { Actor } from '../auth/permissions.js';
import { recordAudit } from '../audit/record.js';
import { createComment } from '../comments/operations.js';
import { entryDisplayValue, pageSeoTitle } from '../content-types/display.js';
import { listAllContentTypes } from '../content-types/repository.js';
import { entryNotFound, requireEntryType } from '../entries/operations.js';
import { findEntryForUpdate } from '../entries/repository.js';
import { recordEvent } from '../events/record.js';
import { itemSubjects } from '../events/repository.js';
import { pageNotFound } from '../pages/operations.js';
import { findPageForUpdate } from '../pages/repository.js';
import type { ItemKind } from '../publishing/states.js';
import {
  deletePeople,
  deleteWorkflowRow,
  dropUncoveredStates,
  findWorkflowRow,
  insertItemState,
  insertPeople,
  insertWorkflow,
  itemStateRows,
  lastEditorOf,
  listWorkflowRows,
  membersAmong,
  moveStatesOutOf,
  peopleRows,
  updateItemState,
  updateWorkflowRow,
  type ItemStateRow,
  type WorkflowRow,
} from './repository.js';
import { checkStages, findStage, skippedReviewStage, stageIndex, storedStages, type Stage, type StageInput } from './rules.js';
import { currentStage, effectiveRow, loadWorkflow, loadWorkflows, coveringWorkflow, workflowStates, type LoadedWorkflow, type WorkflowState } from './state.js';
import { tellAboutItem, type ItemChange } from './side-effects.js';

/** A workflow as the API shows it. */
export interface Workflow {
  id: string;
  name: string;
  content_types: string[];
  pages: boolean;
  stages: Stage[];
  publish_stage: string;
  created_at: string;
  updated_at: string;
}

export interface WorkflowInput {
  name?: string;
  content_types?: string[];
  pages?: boolean;
  stages?: StageInput[];
  publish_stage?: string;
}

/** An entry or page a workflow action names: an entry by its type and slug (or id), a page by slug (or id). */
export type ItemTarget = { kind: 'entry'; type: string; ref: string } | { kind: 'page'; ref: string };

function wire(row: WorkflowRow, slugs: ReadonlyMap<string, string>): Workflow {
  const wf = loadWorkflow(row);
  return {
    id: row.id,
    name: row.name,
    // A deleted type leaves the list with its entries.
    content_types: wf.contentTypeIds.flatMap((id) => (slugs.has(id) ? [slugs.get(id)!] : [])),
    pages: wf.pages,
    stages: wf.stages,
    publish_stage: row.publish_stage,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

async function typeSlugs(db: Db, workspaceId: string): Promise<Map<string, string>> {
  return new Map((await listAllContentTypes(db, workspaceId)).map((t) => [t.id, t.slug]));
}

function workflowNotFound(id: string): AppError {
  return notFound(`workflow '${id}'`);
}

/** GET /workflows: the workspace's workflows, oldest first. */
export async function listWorkflows(ctx: Context, actor: Actor): Promise<Workflow[]> {
  const slugs = await typeSlugs(ctx.db, actor.workspaceId);
  return (await listWorkflowRows(ctx.db, actor.workspaceId)).map((r) => wire(r, slugs));
}

/** GET /workflows/{id}; 404 when the workspace has none such. */
export async function getWorkflow(ctx: Context, actor: Actor, id: string): Promise<Workflow> {
  const row = isUuid(id) ? await findWorkflowRow(ctx.db, actor.workspaceId, id.toLowerCase()) : null;
  if (!row) throw workflowNotFound(id);
  return wire(row, await typeSlugs(ctx.db, actor.workspaceId));
}

/**
 * Checks a whole workflow (POST, or a PATCH merged onto the stored one) and returns the columns
 * to store. 400 VALIDATION_FAILED naming every problem.
 */
export async function checkWorkflow(
  db: Db,
  actor: Actor,
  input: Required<Pick<WorkflowInput, 'name' | 'content_types' | 'pages' | 'stages'>> & { publish_stage?: string },
  current: WorkflowRow | null,
): Promise<{ name: string; contentTypeIds: string[]; pages: boolean; stages: Stage[]; publishStage: string }> {
  const errors: ErrorDetail[] = [];
  const name = input.name.trim();
  const others = (await listWorkflowRows(db, actor.workspaceId)).filter((w) => w.id !== current?.id).map(loadWorkflow);
  if (name === '') errors.push({ path: 'body.name', message: 'must not be empty' });
  else if (others.some((w) => w.row.name.toLowerCase() === name.toLowerCase()))
    errors.push({ path: 'body.name', message: `another workflow is named '${name}'` });
  const types = await listAllContentTypes(db, actor.workspaceId);
  const contentTypeIds: string[] = [];
  input.content_types.forEach((slug, i) => {
    const path = `body.content_types.${i}`;
    const type = types.find((t) => t.slug === slug);
    if (!type) return errors.push({ path, message: `'${slug}' is not a content type of this workspace` });
    if (type.is_block) return errors.push({ path, message: `'${slug}' is a block type: its content lives in pages` });
    if (contentTypeIds.includes(type.id)) return errors.push({ path, message: `'${slug}' is listed twice` });
    const owner = others.find((w) => w.contentTypeIds.includes(type.id));
    if (owner) return errors.push({ path, message: `'${slug}' belongs to workflow '${owner.row.name}' already (a type belongs to at most one workflow)` });
    contentTypeIds.push(type.id);
  });
  if (input.pages) {
    const owner = others.find((w) => w.pages);
    if (owner) errors.push({ path: 'body.pages', message: `pages belong to workflow '${owner.row.name}' already (pages belong to at most one workflow)` });
  }
  const checked = checkStages(input.stages, current ? storedStages(current.stages) : [], actor.roles ?? PRESET_TABLE, actor.workspaceId);
  errors.push(...checked.errors);
  let publishStage = checked.stages[checked.stages.length - 1]?.id ?? '';
  if (input.publish_stage !== undefined) {
    // A new stage has no id yet: the publish stage may name it by name.
    const found = findStage(checked.stages, input.publish_stage);
    if (!found) errors.push({ path: 'body.publish_stage', message: `'${input.publish_stage}' is not a stage of this workflow (name one by id or name)` });
    else publishStage = found.id;
  } else if (current && checked.stages.some((s) => s.id === current.publish_stage)) {
    publishStage = current.publish_stage;
  }
  if (errors.length) throw validationError(errors);
  return { name, contentTypeIds, pages: input.pages, stages: checked.stages, publishStage };
}

function auditWorkflow(db: Db, actor: Actor, at: string, action: string, row: { id: string; name: string }, changedFields?: string[]) {
  return recordAudit(db, { workspaceId: actor.workspaceId, at, actor, action, target: { kind: 'workflow', id: row.id, slug: row.name }, changedFields });
}

/** POST /workflows. 400 VALIDATION_FAILED; 403 without `schema:write`. */
export async function createWorkflow(ctx: Context, actor: Actor, input: WorkflowInput): Promise<Workflow> {
  authorize(actor, 'schema:write');
  if (input.name === undefined) throw invalid('body.name', 'is required');
  if (input.stages === undefined) throw invalid('body.stages', 'is required');
  const at = iso(ctx.clock());
  return withTransaction(ctx.db, async (db) => {
    // One writer of a workspace's workflows at a time: a type is never claimed by two.
    await lockRowsForCommitOrder(db, 'workspaces', { id: actor.workspaceId });
    const c = await checkWorkflow(
      db,
      actor,
      { name: input.name!, content_types: input.content_types ?? [], pages: input.pages ?? false, stages: input.stages!, publish_stage: input.publish_stage },
      null,
    );
    const row: WorkflowRow = {
      id: newId(),
      workspace_id: actor.workspaceId,
      name: c.name,
      content_type_ids: JSON.stringify(c.contentTypeIds),
      pages: c.pages ? 1 : 0,
      stages: JSON.stringify(c.stages),
      publish_stage: c.publishStage,
      created_at: at,
      updated_at: at,
      created_by: actor.userId,
      updated_by: actor.userId,
    };
    await insertWorkflow(db, row);
    await auditWorkflow(db, actor, at, 'workflow.created', row);
    return wire(row, await typeSlugs(db, actor.workspaceId));
  });
}

/** PATCH /workflows/{id}: the fields given replace the stored ones (stages: the whole list). */
export async function updateWorkflow(ctx: Context, actor: Actor, id: string, input: WorkflowInput): Promise<Workflow> {
  authorize(actor, 'schema:write');
  const at = iso(ctx.clock());
  return withTransaction(ctx.db, async (db) => {
    await lockRowsForCommitOrder(db, 'workspaces', { id: actor.workspaceId });
    const current = isUuid(id) ? await findWorkflowRow(db, actor.workspaceId, id.toLowerCase()) : null;
    if (!current) throw workflowNotFound(id);
    const before = loadWorkflow(current);
    const slugs = await typeSlugs(db, actor.workspaceId);
    const c = await checkWorkflow(
      db,
      actor,
      {
        name: input.name ?? current.name,
        content_types: input.content_types ?? wire(current, slugs).content_types,
        pages: input.pages ?? before.pages,
        stages: input.stages ?? before.stages,
        publish_stage: input.publish_stage,
      },
      current,
    );
    const values = {
      name: c.name,
      content_type_ids: JSON.stringify(c.contentTypeIds),
      pages: c.pages ? 1 : 0,
      stages: JSON.stringify(c.stages),
      publish_stage: c.publishStage,
      updated_at: at,
      updated_by: actor.userId,
    };
    await updateWorkflowRow(db, current.id, values);
    // Items of a removed stage start over in the first stage, without approvals.
    await moveStatesOutOf(
      db,
      current.id,
      c.stages.map((s) => s.id),
      c.stages[0].id,
      at,
    );
    await dropUncoveredStates(db, current.id, c.contentTypeIds, c.pages);
    const changed = (Object.keys(input) as (keyof WorkflowInput)[]).filter((k) => input[k] !== undefined);
    await auditWorkflow(db, actor, at, 'workflow.updated', { id: current.id, name: c.name }, changed);
    return wire({ ...current, ...values }, slugs);
  });
}

/** DELETE /workflows/{id}: the workflow and every item's state in it. */
export async function deleteWorkflow(ctx: Context, actor: Actor, id: string): Promise<void> {
  authorize(actor, 'schema:write');
  const at = iso(ctx.clock());
  await withTransaction(ctx.db, async (db) => {
    const current = isUuid(id) ? await findWorkflowRow(db, actor.workspaceId, id.toLowerCase()) : null;
    if (!current) throw workflowNotFound(id);
    await deleteWorkflowRow(db, current.id);
    await auditWorkflow(db, actor, at, 'workflow.deleted', current);
  });
}

/** The item a workflow action names, locked, with what the actions need of it. */
export interface LockedItem {
  kind: ItemKind;
  id: string;
  slug: string;
  workspaceId: string;
  contentTypeId: string | null;
  contentTypeSlug: string | null;
  /** What people call it (display field, SEO title), for notifications. */
  title: string | null;
  createdBy: number | null;
  workflow: LoadedWorkflow;
  /** Its stored state when it counts (see effectiveRow), and the stored row whatever it is. */
  state: ItemStateRow | null;
  stored: ItemStateRow | undefined;
}

/**
 * Locks the item `target` names and checks the actor may update it (404 when absent or of a
 * type the role cannot read; 403 without update); 400 when no workflow covers it.
 */
async function lockItem(ctx: Context, db: Db, actor: Actor, target: ItemTarget): Promise<LockedItem> {
  let item: Omit<LockedItem, 'workflow' | 'state' | 'stored'>;
  authorize(actor, 'content:write');
  if (target.kind === 'entry') {
    const ct = await requireEntryType({ ...ctx, db }, actor, target.type);
    const row =
      (await findEntryForUpdate(db, ct.id, { slug: target.ref })) ??
      (isUuid(target.ref) ? await findEntryForUpdate(db, ct.id, { id: target.ref.toLowerCase() }) : null);
    if (!row) throw entryNotFound(ct, { slug: target.ref });
    authorizeItem(actor, { resource: 'entries', action: 'update', contentType: ct.slug, createdBy: row.created_by });
    const title = entryDisplayValue(row.data, ct.display_field) ?? null;
    item = {
      kind: 'entry',
      id: row.id,
      slug: row.slug,
      workspaceId: row.workspace_id,
      contentTypeId: ct.id,
      contentTypeSlug: ct.slug,
      title,
      createdBy: row.created_by,
    };
  } else {
    const row =
      (await findPageForUpdate(db, actor.workspaceId, { slug: target.ref })) ??
      (isUuid(target.ref) ? await findPageForUpdate(db, actor.workspaceId, { id: target.ref.toLowerCase() }) : null);
    if (!row) throw pageNotFound({ slug: target.ref });
    authorizeItem(actor, { resource: 'pages', action: 'update', createdBy: row.created_by });
    const title = pageSeoTitle(row.seo) ?? null;
    item = {
      kind: 'page',
      id: row.id,
      slug: row.slug,
      workspaceId: row.workspace_id,
      contentTypeId: null,
      contentTypeSlug: null,
      title,
      createdBy: row.created_by,
    };
  }
  const workflow = coveringWorkflow(await loadWorkflows(db, item.workspaceId), item.kind, item.contentTypeId);
  if (!workflow) {
    const what = item.kind === 'entry' ? `content type '${item.contentTypeSlug}'` : 'pages';
    throw invalid('params', `no workflow covers ${what}; add it to a workflow first`);
  }
  const [stored] = await itemStateRows(db, item.kind, [item.id]);
  return { ...item, workflow, stored, state: effectiveRow(workflow, stored) };
}

/** The item's state row, created (first stage) or taken over from another workflow when it has none that counts. */
async function ensureState(db: Db, item: LockedItem): Promise<ItemStateRow> {
  if (item.state) return item.state;
  const fresh: ItemStateRow = {
    id: item.stored?.id ?? newId(),
    workspace_id: item.workspaceId,
    workflow_id: item.workflow.row.id,
    item_kind: item.kind,
    entry_id: item.kind === 'entry' ? item.id : null,
    page_id: item.kind === 'page' ? item.id : null,
    stage_id: item.workflow.stages[0].id,
    stage_changed_at: null,
    stage_changed_by: null,
  };
  if (item.stored) {
    // A state of another workflow (or a stage gone): it starts over here, without its people.
    await updateItemState(db, fresh.id, { workflow_id: fresh.workflow_id, stage_id: fresh.stage_id, stage_changed_at: null, stage_changed_by: null });
    await deletePeople(db, 'workflow_assignees', fresh.id);
    await deletePeople(db, 'workflow_approvals', fresh.id);
  } else {
    await insertItemState(db, fresh);
  }
  item.state = fresh;
  item.stored = fresh;
  return fresh;
}

async function stateOf(db: Db, item: LockedItem): Promise<WorkflowState> {
  const states = await workflowStates(db, item.workspaceId, item.kind, [{ id: item.id, content_type_id: item.contentTypeId }]);
  return states.get(item.id)!;
}

/** Approvals of the working copy that count: by people other than its last editor. */
async function countingApprovals(db: Db, item: LockedItem): Promise<{ userIds: number[]; lastEditor: number | null }> {
  const lastEditor = await lastEditorOf(db, item.kind, item.id);
  const rows = item.state ? await peopleRows(db, 'workflow_approvals', [item.state.id]) : [];
  return { userIds: rows.map((r) => r.user_id).filter((u) => u !== lastEditor), lastEditor };
}

async function auditItem(db: Db, actor: Actor, at: string, item: LockedItem, action: string): Promise<void> {
  await recordAudit(db, {
    workspaceId: item.workspaceId,
    at,
    actor,
    action: `${item.kind}.${action}`,
    target: { kind: item.kind, id: item.id, slug: item.slug },
  });
}

/** The text a move or a change request brings along: a comment on the item (docs/workflow.md "Comments"). */
export interface CommentInput {
  comment?: string;
  field?: string;
  locale?: string;
}

/**
 * Writes `input.comment` (when given) as a comment of `actor` on the item, in the caller's
 * transaction, and returns its id. The comment's problems are named at this body's keys
 * (`body.comment`, `body.field`, `body.locale`).
 */
async function commentOn(db: Db, ctx: Context, actor: Actor, item: LockedItem, input: CommentInput): Promise<string | null> {
  if (input.comment === undefined) return null;
  try {
    const c = await createComment(
      db,
      ctx,
      actor,
      { kind: item.kind, id: item.id },
      { body: input.comment, field: input.field ?? null, locale: input.locale ?? null },
    );
    return c.id;
  } catch (err) {
    if (err instanceof AppError && err.code === 'VALIDATION_FAILED' && err.errors) {
      throw validationError(err.errors.map((e) => (e.path === 'body.body' ? { ...e, path: 'body.comment' } : e)));
    }
    throw err;
  }
}

/**
 * POST {item}/stage `{stage, comment?}`: moves the item to `stage` (id or name). See the module
 * comment for the rules; 400 for an unknown stage or an uncovered item; 403; 409 APPROVALS_MISSING.
 * Moving to the stage the item is in changes nothing.
 */
export async function moveItemStage(ctx: Context, actor: Actor, target: ItemTarget, input: { stage: string } & CommentInput): Promise<WorkflowState> {
  const now = ctx.clock();
  const at = iso(now);
  return withTransaction(ctx.db, async (db) => {
    const item = await lockItem(ctx, db, actor, target);
    const { stages } = item.workflow;
    const to = findStage(stages, input.stage);
    if (!to) throw invalid('body.stage', `'${input.stage}' is not a stage of workflow '${item.workflow.row.name}' (${stages.map((s) => s.name).join(', ')})`);
    const from = currentStage(item.workflow, item.state);
    authorizeStage(actor, to);
    if (to.id === from.id) return stateOf(db, item);
    const { lastEditor, userIds } = await countingApprovals(db, item);
    if (stageIndex(stages, to.id) > stageIndex(stages, from.id) && userIds.length < from.required_approvals) {
      throw new AppError(
        'APPROVALS_MISSING',
        `stage '${from.name}' requires ${from.required_approvals} approval${from.required_approvals === 1 ? '' : 's'} of the working copy by people other than its last editor; it has ${userIds.length}`,
        [
          { path: 'approvals.required', message: String(from.required_approvals) },
          { path: 'approvals.given', message: String(userIds.length) },
        ],
      );
    }
    const skipped = skippedReviewStage(stages, from.id, to.id);
    if (skipped) {
      throw new AppError(
        'APPROVALS_MISSING',
        `moving from '${from.name}' to '${to.name}' would skip stage '${skipped.name}', which requires ${skipped.required_approvals} approval${skipped.required_approvals === 1 ? '' : 's'}; move the item to '${skipped.name}' first`,
        [
          { path: 'approvals.required', message: String(skipped.required_approvals) },
          { path: 'approvals.given', message: '0' },
          { path: 'approvals.stage', message: skipped.name },
        ],
      );
    }
    const commentId = await commentOn(db, ctx, actor, item, input);
    const state = await ensureState(db, item);
    await updateItemState(db, state.id, { stage_id: to.id, stage_changed_at: at, stage_changed_by: actor.userId });
    // Each stage gathers its own approvals.
    await deletePeople(db, 'workflow_approvals', state.id);
    state.stage_id = to.id;
    const [subject] = await itemSubjects(db, item.kind, [item.id]);
    await recordEvent(db, now, {
      workspaceId: item.workspaceId,
      type: `${item.kind}.stage_changed`,
      itemKind: item.kind,
      itemId: item.id,
      slug: subject.slug,
      contentType: subject.contentType,
      status: subject.status,
      version: subject.version,
      // A workflow move changes nothing production readers see.
      live: false,
      stage: { id: to.id, name: to.name },
    });
    await auditItem(db, actor, at, item, 'stage_changed');
    const assignees = (await peopleRows(db, 'workflow_assignees', [state.id])).map((r) => r.user_id);
    await tellAboutItem(db, ctx, now, actor, item, { kind: 'stage_changed', from, to, assignees, lastEditor, commentId });
    return stateOf(db, item);
  });
}

/** POST {item}/approve: the actor approves the working copy. 403 for its last editor; twice is a no-op. */
export async function approveItem(ctx: Context, actor: Actor, target: ItemTarget): Promise<WorkflowState> {
  const now = ctx.clock();
  const at = iso(now);
  return withTransaction(ctx.db, async (db) => {
    const item = await lockItem(ctx, db, actor, target);
    const { lastEditor, userIds } = await countingApprovals(db, item);
    if (lastEditor !== null && lastEditor === actor.userId)
      throw new AppError('FORBIDDEN', `You made the last change to this ${item.kind}: someone else must approve it`);
    if (userIds.includes(actor.userId)) return stateOf(db, item);
    const state = await ensureState(db, item);
    await insertPeople(db, 'workflow_approvals', state.id, [actor.userId], at);
    await auditItem(db, actor, at, item, 'approved');
    await tellAboutItem(db, ctx, now, actor, item, { kind: 'approved' });
    return stateOf(db, item);
  });
}

/**
 * POST {item}/request-changes `{comment, field?, locale?}`: withdraws the actor's own approval
 * and tells the last editor and the assignees; the stage stays.
 */
export async function requestChanges(
  ctx: Context,
  actor: Actor,
  target: ItemTarget,
  input: Required<Pick<CommentInput, 'comment'>> & CommentInput,
): Promise<WorkflowState> {
  const now = ctx.clock();
  const at = iso(now);
  return withTransaction(ctx.db, async (db) => {
    const item = await lockItem(ctx, db, actor, target);
    const { lastEditor } = await countingApprovals(db, item);
    const commentId = await commentOn(db, ctx, actor, item, input);
    const state = await ensureState(db, item);
    await deletePeople(db, 'workflow_approvals', state.id, [actor.userId]);
    await auditItem(db, actor, at, item, 'changes_requested');
    const assignees = (await peopleRows(db, 'workflow_assignees', [state.id])).map((r) => r.user_id);
    await tellAboutItem(db, ctx, now, actor, item, { kind: 'changes_requested', assignees, lastEditor, comment: input.comment, commentId });
    return stateOf(db, item);
  });
}

/**
 * PATCH {item}/assignees `{assignees: [userId | email]}`: replaces the assignees. Each must be a
 * member of the workspace (400 naming `body.assignees.<i>`); the newly assigned are told.
 */
export async function setAssignees(ctx: Context, actor: Actor, target: ItemTarget, input: { assignees: (number | string)[] }): Promise<WorkflowState> {
  const now = ctx.clock();
  const at = iso(now);
  return withTransaction(ctx.db, async (db) => {
    const item = await lockItem(ctx, db, actor, target);
    const ids = input.assignees.filter((a): a is number => typeof a === 'number');
    const emails = input.assignees.filter((a): a is string => typeof a === 'string');
    const members = await membersAmong(db, item.workspaceId, ids, emails);
    const errors: ErrorDetail[] = [];
    const chosen: number[] = [];
    input.assignees.forEach((a, i) => {
      const m = members.find((p) => (typeof a === 'number' ? p.id === a : p.email.toLowerCase() === a.trim().toLowerCase()));
      if (!m) errors.push({ path: `body.assignees.${i}`, message: `'${a}' is not a member of this workspace` });
      else if (!chosen.includes(m.id)) chosen.push(m.id);
    });
    if (errors.length) throw validationError(errors);
    const state = await ensureState(db, item);
    const before = (await peopleRows(db, 'workflow_assignees', [state.id])).map((r) => r.user_id);
    await deletePeople(
      db,
      'workflow_assignees',
      state.id,
      before.filter((u) => !chosen.includes(u)),
    );
    const added = chosen.filter((u) => !before.includes(u));
    await insertPeople(db, 'workflow_assignees', state.id, added, at);
    await auditItem(db, actor, at, item, 'assignees_changed');
    await tellAboutItem(db, ctx, now, actor, item, { kind: 'assigned', added });
    return stateOf(db, item);
  });
}

export type { ItemChange };

/**
 * The workflow states of entries or pages a management read returns (`workflow`), by id: null
 * for items no workflow covers. A few queries whatever the number of items (workflowStates).
 */
export function itemWorkflows(
  ctx: Context,
  actor: Actor,
  kind: ItemKind,
  items: readonly { id: string; content_type_id?: string | null }[],
): Promise<Map<string, WorkflowState | null>> {
  return workflowStates(ctx.db, actor.workspaceId, kind, items);
}
