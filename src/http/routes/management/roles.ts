/**
 * Custom roles (docs/api.md "Roles" (D120)): `GET|POST /roles`, `GET|PATCH|DELETE /roles/{id}`,
 * owners and admins in a Studio session (actions `roles:list`, `roles:write`: a key answers 403,
 * as for people and keys, D91). Presets are listed and read-only. Parse, call, reply.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Context } from '../../../context.js';
import { createRole, deleteRole, getRole, listRoles, updateRole } from '../../../modules/access/custom-roles.js';
import { EmptyEnvelope, EnvelopeOf, ok } from '../../envelope.js';
import { RoleCreateBody, RoleParams, RolePatchBody, RoleSchema } from '../../schemas/roles.js';

const TAGS = ['Studio: roles'];

export async function roleRoutes(app: FastifyInstance, ctx: Context): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/roles',
    {
      config: { action: 'roles:list' },
      schema: {
        tags: TAGS,
        operationId: 'listRoles',
        summary: "The workspace's roles: the five presets (read-only) and its custom roles, with their permissions (owners and admins, Studio session)",
        response: { 200: EnvelopeOf(Type.Array(RoleSchema)) },
      },
    },
    async (req) => ok(await listRoles(ctx, req.actor)),
  );

  r.post(
    '/roles',
    {
      config: { action: 'roles:write' },
      schema: {
        tags: TAGS,
        operationId: 'createRole',
        summary: 'Create a custom role (owners and admins, Studio session)',
        description:
          'Permissions name resources (entries, pages, media, releases, content_types, webhooks) and actions (read, create, update, delete, publish), with `content_types`, `locales` and `deny_fields` for entries and `own_only` for entries, pages, media and releases. An unknown resource, action, type, locale or field answers 400 VALIDATION_FAILED with the path of each.',
        body: RoleCreateBody,
        response: { 201: EnvelopeOf(RoleSchema) },
      },
    },
    async (req, reply) => {
      const role = await createRole(ctx, req.actor, req.body);
      reply.code(201);
      return ok(role);
    },
  );

  r.get(
    '/roles/:id',
    {
      config: { action: 'roles:list' },
      schema: {
        tags: TAGS,
        operationId: 'getRole',
        summary: 'A role by id (or a custom role by name)',
        params: RoleParams,
        response: { 200: EnvelopeOf(RoleSchema) },
      },
    },
    async (req) => ok(await getRole(ctx, req.actor, req.params.id)),
  );

  r.patch(
    '/roles/:id',
    {
      config: { action: 'roles:write' },
      schema: {
        tags: TAGS,
        operationId: 'updateRole',
        summary: "Change a custom role's name, description or permissions; presets answer 403",
        description: 'Takes effect on the next request of every member holding the role and of every key they created.',
        params: RoleParams,
        body: RolePatchBody,
        response: { 200: EnvelopeOf(RoleSchema) },
      },
    },
    async (req) => ok(await updateRole(ctx, req.actor, req.params.id, req.body)),
  );

  r.delete(
    '/roles/:id',
    {
      config: { action: 'roles:write' },
      schema: {
        tags: TAGS,
        operationId: 'deleteRole',
        summary: 'Delete a custom role; presets answer 403, a role held by a member or pending invitation 409 ROLE_IN_USE',
        errors: ['ROLE_IN_USE'],
        params: RoleParams,
        response: { 200: EmptyEnvelope },
      },
    },
    async (req) => {
      await deleteRole(ctx, req.actor, req.params.id);
      return ok(null);
    },
  );
}
