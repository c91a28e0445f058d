/**
 * The Studio's management endpoints (D91; the Studio contract): people (`/users`), API keys
 * (`/api-keys`), workspace settings (`/workspace`) and the home overview (`/overview`).
 * People, keys and settings changes are session only (each route declares its action in
 * `config.action`; the permission check, modules/access/authorize.ts, refuses a key with 403: it
 * cannot mint keys or change members); `GET /workspace` and `GET /overview` take any management
 * actor. The operations ask the same check for the role rules.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Context } from '../../../context.js';
import { createKeyForActor, listKeys, revokeKeyOfWorkspace } from '../../../modules/auth/api-keys.js';
import { cancelInvitation, invite } from '../../../modules/users/invitations.js';
import { changeRole, listPeople, removeMember } from '../../../modules/users/operations.js';
import { getWorkspace, updateWorkspace } from '../../../modules/workspaces/operations.js';
import { overview } from '../../../modules/workspaces/overview.js';
import { EmptyEnvelope, EnvelopeOf, ok } from '../../envelope.js';
import {
  ApiKeyBody,
  ApiKeyParams,
  ApiKeySchema,
  CreatedApiKeySchema,
  InvitationBody,
  InvitationParams,
  InvitationSchema,
  MemberSchema,
  OverviewSchema,
  RoleBody,
  UserParams,
  WorkspacePatchBody,
  WorkspaceSchema,
} from '../../schemas/studio.js';

export async function studioAdminRoutes(app: FastifyInstance, ctx: Context): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/users',
    {
      config: { action: 'people:list' },
      schema: {
        operationId: 'listMembers',
        tags: ['Studio: people'],
        summary: 'Members and pending invitations of the workspace (Studio session)',
        response: { 200: EnvelopeOf(Type.Array(MemberSchema)) },
      },
    },
    async (req) => ok(await listPeople(ctx, req.actor)),
  );

  r.post(
    '/users/invitations',
    {
      config: { action: 'people:invite', secretAnswer: true },
      schema: {
        operationId: 'invitePerson',
        tags: ['Studio: people'],
        summary: 'Invite a person with a role: a pending invitation they accept (owners and admins; one-time link, e-mailed when SMTP_URL is set)',
        description:
          'Creates a pending invitation (72 hours), never a membership: the person accepts it with the link, choosing a password if the email has no account yet, else signing in. The answer is the same whether the email has an account elsewhere or not. The link is in the answer (shown once) only when it was not e-mailed. A member already there answers 409 ALREADY_MEMBER; re-inviting a pending email replaces its link.',
        errors: ['ALREADY_MEMBER'],
        body: InvitationBody,
        response: { 201: EnvelopeOf(InvitationSchema) },
      },
    },
    async (req, reply) => {
      const result = await invite(ctx, req.actor, req.body);
      reply.code(201);
      return ok(result);
    },
  );

  r.delete(
    '/users/invitations/:id',
    {
      config: { action: 'people:cancel-invitation' },
      schema: {
        operationId: 'cancelInvitation',
        tags: ['Studio: people'],
        summary: 'Cancel a pending invitation: its link stops working (owners and admins; only owners cancel an owner’s)',
        params: InvitationParams,
        response: { 200: EmptyEnvelope },
      },
    },
    async (req) => {
      await cancelInvitation(ctx, req.actor, req.params.id);
      return ok(null);
    },
  );

  r.patch(
    '/users/:id',
    {
      config: { action: 'people:change-role' },
      schema: {
        operationId: 'changeMemberRole',
        tags: ['Studio: people'],
        summary: "Change a member's role (owners and admins; only owners grant or take the owner role)",
        description: 'The new role applies at once, to the member’s sessions and keys too (D12). Demoting the last owner answers 409 LAST_OWNER.',
        errors: ['LAST_OWNER'],
        params: UserParams,
        body: RoleBody,
        response: { 200: EnvelopeOf(MemberSchema) },
      },
    },
    async (req) => ok(await changeRole(ctx, req.actor, req.params.id, req.body)),
  );

  r.delete(
    '/users/:id',
    {
      config: { action: 'people:remove' },
      schema: {
        operationId: 'removeMember',
        tags: ['Studio: people'],
        summary: 'Remove a member: ends their sessions, their management keys stop working (owners and admins)',
        errors: ['LAST_OWNER'],
        params: UserParams,
        response: { 200: EmptyEnvelope },
      },
    },
    async (req) => {
      await removeMember(ctx, req.actor, req.params.id);
      return ok(null);
    },
  );

  r.get(
    '/api-keys',
    {
      config: { action: 'keys:list' },
      schema: {
        operationId: 'listApiKeys',
        tags: ['Studio: API keys'],
        summary: 'API keys of the workspace (owners and admins)',
        description: 'Every key of the workspace, revoked ones included, with a hint of its value (never the value).',
        response: { 200: EnvelopeOf(Type.Array(ApiKeySchema)) },
      },
    },
    async (req) => ok(await listKeys(ctx, req.actor)),
  );

  r.post(
    '/api-keys',
    {
      config: { action: 'keys:create', secretAnswer: true },
      schema: {
        operationId: 'createApiKey',
        tags: ['Studio: API keys'],
        summary: 'Create an API key acting for you; its value is in this answer only (owners and admins)',
        description:
          'A delivery key (environment, content type whitelist) or a management key (scopes, expiry at most 365 days ahead, D11). The value is never stored: `Idempotency-Key` is ignored here.',
        body: ApiKeyBody,
        response: { 201: EnvelopeOf(CreatedApiKeySchema) },
      },
    },
    async (req, reply) => {
      const key = await createKeyForActor(ctx, req.actor, req.body);
      reply.code(201);
      return ok(key);
    },
  );

  r.delete(
    '/api-keys/:id',
    {
      config: { action: 'keys:revoke' },
      schema: {
        operationId: 'revokeApiKey',
        tags: ['Studio: API keys'],
        summary: 'Revoke an API key at once (owners and admins)',
        params: ApiKeyParams,
        response: { 200: EmptyEnvelope },
      },
    },
    async (req) => {
      await revokeKeyOfWorkspace(ctx, req.actor, req.params.id);
      return ok(null);
    },
  );

  r.get(
    '/workspace',
    {
      schema: {
        operationId: 'getWorkspace',
        tags: ['Studio: workspace'],
        summary: 'The workspace: name, locales, default locale, preview URL template',
        response: { 200: EnvelopeOf(WorkspaceSchema) },
      },
    },
    async (req) => ok(await getWorkspace(ctx, req.actor)),
  );

  r.patch(
    '/workspace',
    {
      config: { action: 'settings:update' },
      schema: {
        operationId: 'updateWorkspace',
        tags: ['Studio: workspace'],
        summary: 'Change name, locales, default locale or preview URL template (owners and admins)',
        body: WorkspacePatchBody,
        response: { 200: EnvelopeOf(WorkspaceSchema) },
      },
    },
    async (req) => ok(await updateWorkspace(ctx, req.actor, req.body)),
  );

  r.get(
    '/overview',
    {
      schema: {
        operationId: 'getOverview',
        tags: ['Studio: workspace'],
        summary: 'Studio home: counts by status per content type and for pages, 20 newest versions, 20 soonest scheduled',
        response: { 200: EnvelopeOf(OverviewSchema) },
      },
    },
    async (req) => ok(await overview(ctx, req.actor)),
  );
}
