/**
 * The rules of review workflows that need no database (docs/workflow.md "Workflows and stages",
 * "Approvals"): the stored shape of a workflow, checking a POST or PATCH body's stages, naming a
 * stage by id or by name, and who may move an item into a stage.
 */
import type { ErrorDetail } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import type { RoleTable } from '../access/roles.js';

/** One stage as stored and shown. `roles` null: any role that may write the item. */
export interface Stage {
  id: string;
  name: string;
  required_approvals: number;
  roles: string[] | null;
}

/** A stage as a request names it: `id` for a stage kept, none for a new one. */
export interface StageInput {
  id?: string;
  name: string;
  required_approvals?: number;
  roles?: string[] | null;
}

export const MAX_STAGES = 20;

/** The stages of a stored workflow row. */
export function storedStages(json: string): Stage[] {
  return JSON.parse(json) as Stage[];
}

/**
 * The stage `ref` names among `stages`: by id first, then by name (case-insensitive); undefined
 * when none. docs/workflow.md "Workflows and stages": a stage is named by id or by name.
 */
export function findStage(stages: readonly Stage[], ref: string): Stage | undefined {
  return stages.find((s) => s.id === ref) ?? stages.find((s) => s.name.toLowerCase() === ref.trim().toLowerCase());
}

/** The position of a stage (0 for the first), -1 when absent. */
export function stageIndex(stages: readonly Stage[], id: string): number {
  return stages.findIndex((s) => s.id === id);
}

/**
 * The first stage strictly between `fromId` and a later `toId` that requires approvals, or
 * undefined (moving back, to the next stage, or past stages that need none). docs/workflow.md
 * "Approvals": a move forward may skip stages, but not one that gathers approvals, or skipping
 * it would skip its review.
 */
export function skippedReviewStage(stages: readonly Stage[], fromId: string, toId: string): Stage | undefined {
  const from = stageIndex(stages, fromId);
  const to = stageIndex(stages, toId);
  return to > from + 1 ? stages.slice(from + 1, to).find((s) => s.required_approvals > 0) : undefined;
}

/**
 * Checks `input` (a body's `stages`, at `path`) against the workflow's current stages `current`
 * (empty on create) and the role table: names unique and non-empty, ids those of current stages,
 * roles known role keys of the workspace (a preset's name, a custom role's id or name). Returns
 * the stages to store (new ones get an id; roles stored as role keys) and the problems.
 */
export function checkStages(
  input: readonly StageInput[],
  current: readonly Stage[],
  roles: RoleTable,
  workspaceId: string,
  path = 'body.stages',
): { stages: Stage[]; errors: ErrorDetail[] } {
  const errors: ErrorDetail[] = [];
  if (input.length === 0) errors.push({ path, message: 'must list at least one stage' });
  if (input.length > MAX_STAGES) errors.push({ path, message: `must list at most ${MAX_STAGES} stages` });
  const names = new Set<string>();
  const ids = new Set<string>();
  const stages = input.map((s, i): Stage => {
    const at = `${path}.${i}`;
    const name = s.name.trim();
    if (name === '') errors.push({ path: `${at}.name`, message: 'must not be empty' });
    else if (names.has(name.toLowerCase())) errors.push({ path: `${at}.name`, message: `'${name}' names another stage of this workflow` });
    names.add(name.toLowerCase());
    let id = s.id;
    if (id !== undefined) {
      if (!current.some((c) => c.id === id))
        errors.push({ path: `${at}.id`, message: `'${id}' is not a stage of this workflow; leave id out for a new stage` });
      else if (ids.has(id)) errors.push({ path: `${at}.id`, message: `'${id}' is listed twice` });
      ids.add(id);
    } else {
      id = newId();
    }
    const required = s.required_approvals ?? 0;
    if (!Number.isInteger(required) || required < 0) errors.push({ path: `${at}.required_approvals`, message: 'must be an integer of at least 0' });
    let keys: string[] | null = null;
    if (s.roles !== undefined && s.roles !== null) {
      keys = [];
      s.roles.forEach((ref, j) => {
        const key = roles.resolve(ref, workspaceId);
        if (key === undefined) errors.push({ path: `${at}.roles.${j}`, message: `'${ref}' is not a role of this workspace` });
        else if (!keys!.includes(key)) keys!.push(key);
      });
    }
    return { id, name, required_approvals: required, roles: keys };
  });
  return { stages, errors };
}
