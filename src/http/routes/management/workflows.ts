/**
 * Review workflows (docs/workflow.md "Workflows and stages", "Approvals", "The publish guard"):
 * `GET|POST /workflows`, `GET|PATCH|DELETE /workflows/{id}` (writes: `schema:write`, owners and
 * admins or such a key), and per entry (`/content-types/{slug}/entries/{entry_slug}`) and page
 * (`/pages/{slug}`): `POST …/stage`, `POST …/approve`, `POST …/request-changes`,
 * `PATCH …/assignees` (the right to update the item). An item is named by slug, or by id. Parse,
 * call, reply.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Context } from '../../../context.js';
import {
  approveItem,
  createWorkflow,
  deleteWorkflow,
  getWorkflow,
  listWorkflows,
  moveItemStage,
  requestChanges,
  setAssignees,
  updateWorkflow,
  type ItemTarget,
} from '../../../modules/workflows/operations.js';
import { EmptyEnvelope, EnvelopeOf, ok } from '../../envelope.js';
import { EntryParams } from '../../schemas/entries.js';
import { PageParams } from '../../schemas/pages.js';
import {
  AssigneesBody,
  RequestChangesBody,
  StageMoveBody,
  WorkflowCreateBody,
  WorkflowParams,
  WorkflowPatchBody,
  WorkflowSchema,
  WorkflowStateSchema,
} from '../../schemas/workflows.js';

const TAGS = ['Management: workflows'];

export async function workflowRoutes(app: FastifyInstance, ctx: Context): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/workflows',
    {
      schema: {
        tags: TAGS,
        operationId: 'listWorkflows',
        summary: "The workspace's review workflows, oldest first (any member or management key)",
        response: { 200: EnvelopeOf(Type.Array(WorkflowSchema)) },
      },
    },
    async (req) => ok(await listWorkflows(ctx, req.actor)),
  );

  r.post(
    '/workflows',
    {
      config: { action: 'schema:write' },
      schema: {
        tags: TAGS,
        operationId: 'createWorkflow',
        summary: 'Create a review workflow (owners and admins, or a key with schema:write)',
        description:
          'Stages get their ids from the server; `publish_stage` names one by id or name (default: the last). A content type, or the pages, belong to at most one workflow: 400 VALIDATION_FAILED names `body.content_types.<i>` or `body.pages`.',
        body: WorkflowCreateBody,
        response: { 201: EnvelopeOf(WorkflowSchema) },
      },
    },
    async (req, reply) => {
      const wf = await createWorkflow(ctx, req.actor, req.body);
      reply.code(201);
      return ok(wf);
    },
  );

  r.get(
    '/workflows/:id',
    {
      schema: { tags: TAGS, operationId: 'getWorkflow', summary: 'A review workflow', params: WorkflowParams, response: { 200: EnvelopeOf(WorkflowSchema) } },
    },
    async (req) => ok(await getWorkflow(ctx, req.actor, req.params.id)),
  );

  r.patch(
    '/workflows/:id',
    {
      config: { action: 'schema:write' },
      schema: {
        tags: TAGS,
        operationId: 'updateWorkflow',
        summary: "Change a workflow's name, types, pages, stages or publish stage",
        description:
          '`stages` replaces the list: a stage with `id` is kept, one without is new. Items of a removed stage move to the first stage and lose their approvals; items of a type (or the pages) no longer covered lose their workflow state.',
        params: WorkflowParams,
        body: WorkflowPatchBody,
        response: { 200: EnvelopeOf(WorkflowSchema) },
      },
    },
    async (req) => ok(await updateWorkflow(ctx, req.actor, req.params.id, req.body)),
  );

  r.delete(
    '/workflows/:id',
    {
      config: { action: 'schema:write' },
      schema: {
        tags: TAGS,
        operationId: 'deleteWorkflow',
        summary: "Delete a workflow and every item's state in it",
        params: WorkflowParams,
        response: { 200: EmptyEnvelope },
      },
    },
    async (req) => {
      await deleteWorkflow(ctx, req.actor, req.params.id);
      return ok(null);
    },
  );

  const items = [
    { kind: 'entry', path: '/content-types/:slug/entries/:entry_slug', params: EntryParams, noun: 'Entry', tag: 'an entry' },
    { kind: 'page', path: '/pages/:slug', params: PageParams, noun: 'Page', tag: 'a page' },
  ] as const;
  const targetOf = (kind: 'entry' | 'page', params: Record<string, string>): ItemTarget =>
    kind === 'entry' ? { kind, type: params.slug, ref: params.entry_slug } : { kind, ref: params.slug };

  for (const it of items) {
    r.post(
      `${it.path}/stage`,
      {
        config: { action: 'content:write' },
        schema: {
          tags: TAGS,
          operationId: `move${it.noun}Stage`,
          summary: `Move ${it.tag} to a workflow stage (by id or name)`,
          description:
            "403 when the person's role may not enter the stage (owners always may); 409 APPROVALS_MISSING when moving on from a stage whose required approvals of the working copy (by people other than its last editor) are missing; 400 for an unknown stage or an item no workflow covers. Approvals are cleared: each stage gathers its own.",
          errors: ['APPROVALS_MISSING'],
          params: it.params,
          body: StageMoveBody,
          response: { 200: EnvelopeOf(WorkflowStateSchema) },
        },
      },
      async (req) => ok(await moveItemStage(ctx, req.actor, targetOf(it.kind, req.params as Record<string, string>), req.body)),
    );

    r.post(
      `${it.path}/approve`,
      {
        config: { action: 'content:write' },
        schema: {
          tags: TAGS,
          operationId: `approve${it.noun}`,
          summary: `Approve the working copy of ${it.tag}`,
          description: 'The last editor of the working copy cannot approve it (403); approving twice changes nothing. A content change clears the approvals.',
          params: it.params,
          response: { 200: EnvelopeOf(WorkflowStateSchema) },
        },
      },
      async (req) => ok(await approveItem(ctx, req.actor, targetOf(it.kind, req.params as Record<string, string>))),
    );

    r.post(
      `${it.path}/request-changes`,
      {
        config: { action: 'content:write' },
        schema: {
          tags: TAGS,
          operationId: `requestChanges${it.noun}`,
          summary: `Request changes to ${it.tag}`,
          description: "Withdraws the person's own approval and tells the last editor and the assignees; the stage stays.",
          params: it.params,
          body: RequestChangesBody,
          response: { 200: EnvelopeOf(WorkflowStateSchema) },
        },
      },
      async (req) => ok(await requestChanges(ctx, req.actor, targetOf(it.kind, req.params as Record<string, string>), req.body)),
    );

    r.patch(
      `${it.path}/assignees`,
      {
        config: { action: 'content:write' },
        schema: {
          tags: TAGS,
          operationId: `set${it.noun}Assignees`,
          summary: `Set the assignees of ${it.tag} (user ids or emails of members)`,
          description: 'Replaces the list; each must be a member of the workspace (400 names `body.assignees.<i>`). The newly assigned are notified.',
          params: it.params,
          body: AssigneesBody,
          response: { 200: EnvelopeOf(WorkflowStateSchema) },
        },
      },
      async (req) => ok(await setAssignees(ctx, req.actor, targetOf(it.kind, req.params as Record<string, string>), req.body)),
    );
  }
}
