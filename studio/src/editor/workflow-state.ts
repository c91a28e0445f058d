/**
 * The pure side of the editors' review workflow (docs/studio.md "Review workflows"): an item's
 * workflow state, what a save does to it, and why publishing or a move is unavailable. Kept apart
 * from WorkflowBar so the editors read these without loading the panel, which loads only for
 * items a workflow covers (LazyWorkflowBar).
 */
import type { Person, WithWorkflow, Workflow, WorkflowStage, WorkflowState } from '../api/types';

export const personName = (p: Person) => p.name || p.email;

/** The workflow state an entry or page carries; null when no workflow covers it. */
export function workflowOf(item: object): WorkflowState | null {
  return (item as WithWorkflow).workflow ?? null;
}

/**
 * The record after a save, with its workflow state: the answer's when it carries one, else the
 * previous state without approvals (a change of the working copy withdraws them, docs/workflow.md)
 * and with the saver as its last editor (the answer's `updated_by`; only the id is known here,
 * which is all the approval rule needs until the next read brings the person).
 */
export function withWorkflowAfterSave<T extends object>(saved: T, previous: object): T {
  if ((saved as WithWorkflow).workflow !== undefined) return saved;
  const before = workflowOf(previous);
  if (!before) return saved;
  const saver = (saved as { updated_by?: number | null }).updated_by ?? null;
  const lastEditor = saver === null || before.last_editor?.id === saver ? before.last_editor : { id: saver, email: '', name: null };
  return { ...saved, workflow: { ...before, approvals: [], last_editor: lastEditor } };
}

/** "Publishing happens in …" when the item's workflow keeps it from being published now; else null. */
export function publishBlockedReason(state: WorkflowState | null | undefined, workflows: Workflow[] | undefined): string | null {
  if (!state) return null;
  const workflow = workflows?.find((w) => w.id === state.workflow_id);
  if (!workflow || state.stage.id === workflow.publish_stage) return null;
  const publish = workflow.stages.find((s) => s.id === workflow.publish_stage);
  return `Publishing happens in the stage “${publish?.name ?? workflow.publish_stage}”; this item is in “${state.stage.name}”. Move it there first.`;
}

/**
 * The reason the person cannot move the item to `target` now, or null when they may try: the
 * stage's roles (owners always may), and moving on (to a later stage) needs the current stage's
 * approvals by people other than the last editor; moving back needs none (docs/workflow.md).
 */
export function moveBlockedReason(
  state: WorkflowState,
  stages: WorkflowStage[],
  target: WorkflowStage,
  role: string,
  lastEditor: number | null,
): string | null {
  if (role !== 'owner' && target.roles !== null && !target.roles.includes(role)) return 'Your role cannot move items to this stage';
  const forward = stages.findIndex((s) => s.id === target.id) > stages.findIndex((s) => s.id === state.stage.id);
  const given = state.approvals.filter((a) => a.user.id !== lastEditor).length;
  if (forward && given < state.required_approvals) {
    return `Needs ${state.required_approvals} approval${state.required_approvals === 1 ? '' : 's'} to move on from “${state.stage.name}” (${given} given)`;
  }
  const from = stages.findIndex((s) => s.id === state.stage.id);
  const skipped = stages
    .slice(
      from + 1,
      stages.findIndex((s) => s.id === target.id),
    )
    .find((s) => s.required_approvals > 0);
  if (forward && skipped) return `Goes through “${skipped.name}” first, for its approvals`;
  return null;
}
