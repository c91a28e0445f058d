/**
 * Wire shapes of review workflows (docs/workflow.md "Workflows and stages", "Approvals", "The
 * publish guard"): workflows and their stages, an item's workflow state (`workflow` on management
 * entry and page reads) and the bodies of the item actions. Names (content types, roles, stages)
 * arrive as strings: the operations (src/modules/workflows/operations.ts) check them and name
 * every problem's path.
 */
import { Type } from '@sinclair/typebox';
import { NullableString, NullableTimestamp, Timestamp, Uuid } from './common.js';

export const PersonSchema = Type.Object({ id: Type.Integer(), email: Type.String(), name: NullableString }, { title: 'Person' });

export const StageSchema = Type.Object(
  {
    id: Type.String({ description: 'assigned by the server' }),
    name: Type.String(),
    required_approvals: Type.Integer({
      minimum: 0,
      description: 'approvals of the working copy, by people other than its last editor, needed to move on from this stage',
    }),
    roles: Type.Union([Type.Array(Type.String()), Type.Null()], {
      description:
        'role keys (a preset name or a custom role id) that may move items into this stage; null: any role that may update the item. Owners always may.',
    }),
  },
  { title: 'WorkflowStage' },
);

export const WorkflowSchema = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    content_types: Type.Array(Type.String(), { description: 'slugs of the entry types it covers' }),
    pages: Type.Boolean({ description: 'whether it covers the pages' }),
    stages: Type.Array(StageSchema, { description: 'in order; new items start in the first' }),
    publish_stage: Type.String({ description: 'the id of the stage an item must be in to be published' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Workflow' },
);

const StageBody = Type.Object(
  {
    id: Type.Optional(Type.String({ maxLength: 64, description: 'the id of a stage kept (PATCH); leave out for a new stage' })),
    name: Type.String({ minLength: 1, maxLength: 60 }),
    required_approvals: Type.Optional(Type.Integer({ minimum: 0, maximum: 20, default: 0 })),
    roles: Type.Optional(
      Type.Union([Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50 }), Type.Null()], { description: 'role names or ids; null or absent: any' }),
    ),
  },
  { additionalProperties: false },
);

const workflowBodyProperties = {
  name: Type.String({ minLength: 1, maxLength: 100 }),
  content_types: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 200, description: 'entry type slugs; each belongs to at most one workflow' }),
  pages: Type.Boolean({ description: 'cover the pages (at most one workflow does)' }),
  stages: Type.Array(StageBody, { minItems: 1, maxItems: 20 }),
  publish_stage: Type.String({ maxLength: 100, description: 'a stage id or name; default: the last stage' }),
};

export const WorkflowCreateBody = Type.Object(
  {
    name: workflowBodyProperties.name,
    content_types: Type.Optional(workflowBodyProperties.content_types),
    pages: Type.Optional(workflowBodyProperties.pages),
    stages: workflowBodyProperties.stages,
    publish_stage: Type.Optional(workflowBodyProperties.publish_stage),
  },
  { additionalProperties: false },
);

export const WorkflowPatchBody = Type.Object(
  {
    name: Type.Optional(workflowBodyProperties.name),
    content_types: Type.Optional(workflowBodyProperties.content_types),
    pages: Type.Optional(workflowBodyProperties.pages),
    stages: Type.Optional(workflowBodyProperties.stages),
    publish_stage: Type.Optional(workflowBodyProperties.publish_stage),
  },
  { additionalProperties: false },
);

export const WorkflowParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

export const WorkflowStateSchema = Type.Object(
  {
    workflow_id: Uuid,
    stage: Type.Object({ id: Type.String(), name: Type.String() }),
    required_approvals: Type.Integer({ minimum: 0, description: "the current stage's" }),
    approvals: Type.Array(Type.Object({ user: PersonSchema, at: Timestamp }), { description: 'of the current working copy' }),
    assignees: Type.Array(PersonSchema),
    stage_changed_at: NullableTimestamp,
    last_editor: Type.Union([PersonSchema, Type.Null()], {
      description: 'who last changed the working copy: their own approval does not count, so they cannot approve',
    }),
  },
  { title: 'WorkflowState' },
);

/** `workflow` on management reads of entries and pages: null when no workflow covers the item. */
export const ItemWorkflowProperty = Type.Optional(
  Type.Union([WorkflowStateSchema, Type.Null()], { description: "management reads: the item's place in its review workflow; null when none covers it" }),
);

const CommentText = Type.String({ minLength: 1, maxLength: 10000 });

export const StageMoveBody = Type.Object(
  {
    stage: Type.String({ minLength: 1, maxLength: 100, description: 'a stage id or name' }),
    comment: Type.Optional(CommentText),
  },
  { additionalProperties: false },
);

export const RequestChangesBody = Type.Object(
  {
    comment: CommentText,
    field: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
    locale: Type.Optional(Type.String({ minLength: 1, maxLength: 35 })),
  },
  { additionalProperties: false },
);

export const AssigneesBody = Type.Object(
  {
    assignees: Type.Array(Type.Union([Type.Integer({ minimum: 1 }), Type.String({ minLength: 3, maxLength: 320 })]), {
      maxItems: 50,
      description: 'user ids or emails of members; replaces the list',
    }),
  },
  { additionalProperties: false },
);

/** `stage` and `assignee` of the entry and page lists. */
export const WorkflowListQuery = {
  stage: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'a workflow stage id or name: the items in it' })),
  assignee: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: "a user id, or 'me': the items assigned to that person" })),
};
