/**
 * Wire shapes of roles (docs/api.md "Roles" (D120)): one schema per shape, giving the TypeScript
 * type, the validation and the OpenAPI document. The body takes names as strings: the operation
 * (src/modules/access/custom-roles.ts) checks each against the workspace's types, locales and
 * fields and names every problem's path.
 */
import { Type } from '@sinclair/typebox';
import { PERMISSION_ACTIONS, RESOURCES } from '../../modules/access/permission-rules.js';

const Names = (description: string) => Type.Array(Type.String({ maxLength: 200 }), { maxItems: 200, description });

const permissionProperties = (
  resource: ReturnType<typeof Type.String> | ReturnType<typeof Type.Union>,
  action: ReturnType<typeof Type.String> | ReturnType<typeof Type.Union>,
) => ({
  resource,
  actions: Type.Array(action, { maxItems: 5, description: 'read, create, update, delete, publish (media, content types and webhooks: no publish)' }),
  content_types: Type.Optional(Names('entries only: the entry types this permission covers (others cannot be read: 404)')),
  locales: Type.Optional(Names('entries only: the locales whose values a write may change (the default locale is written through `data`)')),
  deny_fields: Type.Optional(Names('entries only: fields that stay readable but may not be changed')),
  own_only: Type.Optional(Type.Boolean({ description: 'entries, pages, media, releases: update, delete and publish only what the person created' })),
});

export const PermissionSchema = Type.Object(
  permissionProperties(Type.Union(RESOURCES.map((r) => Type.Literal(r))), Type.Union(PERMISSION_ACTIONS.map((a) => Type.Literal(a)))),
  { title: 'Permission', additionalProperties: false },
);

const PermissionBody = Type.Object(permissionProperties(Type.String({ maxLength: 40 }), Type.String({ maxLength: 40 })), { additionalProperties: false });

export const RoleSchema = Type.Object(
  {
    id: Type.String({ description: "a preset's name, a custom role's uuid" }),
    name: Type.String(),
    description: Type.String(),
    preset: Type.Boolean({ description: 'one of the five built-in roles: read-only' }),
    permissions: Type.Array(PermissionSchema),
  },
  { title: 'Role' },
);

export const RoleCreateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 60 }),
    description: Type.Optional(Type.String({ maxLength: 500 })),
    permissions: Type.Array(PermissionBody, { maxItems: 50 }),
  },
  { additionalProperties: false },
);

export const RolePatchBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 60 })),
    description: Type.Optional(Type.String({ maxLength: 500 })),
    permissions: Type.Optional(Type.Array(PermissionBody, { maxItems: 50 })),
  },
  { additionalProperties: false },
);

export const RoleParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
