/** Wire schemas of the Studio's management endpoints (D91): people, API keys, workspace, overview. */
import { Type } from '@sinclair/typebox';
import type { Environment, KeyClass, Role } from '../../modules/auth/permissions.js';
import { NullableTimestamp, Timestamp } from './common.js';

const RoleSchema = Type.Unsafe<Role>(Type.String({ description: 'a preset role (owner, admin, editor, author, viewer) or a custom role id (D120)' }));

export const MemberSchema = Type.Object(
  {
    id: Type.Union([Type.Integer(), Type.Null()], { description: 'the member’s user id; null for a pending invitation' }),
    invitation_id: Type.Union([Type.String(), Type.Null()], {
      description: 'a pending invitation’s id (cancel it with DELETE /users/invitations/{id}); null for a member',
    }),
    email: Type.String(),
    name: Type.Union([Type.String(), Type.Null()], { description: 'for a pending invitation, the name the inviting admin typed' }),
    role: RoleSchema,
    status: Type.Unsafe<'active' | 'invited' | 'pending'>(
      Type.String({
        enum: ['active', 'invited', 'pending'],
        description: 'active: a member with a password; invited: a member without a password yet; pending: an invitation not accepted yet (not a member)',
      }),
    ),
    created_at: Timestamp,
    last_sign_in_at: Type.Union([Timestamp, Type.Null()], { description: 'null for a pending invitation, whatever the account did elsewhere' }),
    expires_at: Type.Union([Timestamp, Type.Null()], { description: 'when a pending invitation’s link expires; null for a member' }),
  },
  { title: 'Member' },
);

export const InvitationBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 320 }),
    role: Type.String({ maxLength: 100, description: 'a preset role (owner, admin, editor, author, viewer), or a custom role by id or name' }),
    name: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);

export const InvitationSchema = Type.Object(
  {
    user: MemberSchema,
    invitation_url: Type.Union([Type.String(), Type.Null()], {
      description: 'the one-time link, shown once, when it was not e-mailed (no SMTP_URL, or sending failed); null when it went to the invited email',
    }),
    expires_at: Timestamp,
    emailed: Type.Boolean(),
  },
  { title: 'Invitation' },
);

export const InvitationParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const UserParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
export const RoleBody = Type.Object({ role: Type.String({ maxLength: 100 }) }, { additionalProperties: false });

export const ApiKeySchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    key_class: Type.Unsafe<KeyClass>(Type.String({ enum: ['delivery', 'management'] })),
    environment: Type.Union([Type.Unsafe<Environment>(Type.String({ enum: ['production', 'preview'] })), Type.Null()]),
    scopes: Type.Array(Type.String()),
    content_types: Type.Array(Type.String()),
    key_hint: Type.String(),
    created_by: Type.Integer(),
    created_at: Timestamp,
    expires_at: NullableTimestamp,
    revoked_at: NullableTimestamp,
  },
  { title: 'ApiKey' },
);

export const CreatedApiKeySchema = Type.Composite([ApiKeySchema, Type.Object({ key: Type.String({ description: 'the key value, shown only now' }) })], {
  title: 'CreatedApiKey',
});

export const ApiKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    key_class: Type.Union([Type.Literal('delivery'), Type.Literal('management')]),
    environment: Type.Optional(Type.Union([Type.Literal('production'), Type.Literal('preview')])),
    content_types: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 200 })),
    scopes: Type.Optional(Type.Array(Type.String({ maxLength: 50 }), { maxItems: 10 })),
    expires_at: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Null()])),
  },
  { additionalProperties: false },
);

export const ApiKeyParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const WorkspaceSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    slug: Type.String(),
    default_locale: Type.String(),
    locales: Type.Array(Type.String()),
    preview_url_template: Type.Union([Type.String(), Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Workspace' },
);

export const WorkspacePatchBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    locales: Type.Optional(Type.Array(Type.String({ maxLength: 50 }), { minItems: 1, maxItems: 100 })),
    default_locale: Type.Optional(Type.String({ maxLength: 50 })),
    preview_url_template: Type.Optional(Type.Union([Type.String({ maxLength: 4000 }), Type.Null()])),
  },
  { additionalProperties: false },
);

export const OverviewCountsSchema = Type.Object(
  {
    draft: Type.Integer(),
    scheduled: Type.Integer(),
    published: Type.Integer(),
    archived: Type.Integer(),
    total: Type.Integer(),
  },
  { title: 'OverviewCounts' },
);
const ItemTitle = Type.String({ description: 'an entry’s display value (default locale), a page’s SEO title, else the slug' });
const Kind = Type.Unsafe<'entry' | 'page'>(Type.String({ enum: ['entry', 'page'] }));

export const OverviewSchema = Type.Object(
  {
    content_types: Type.Array(
      Type.Object({ id: Type.String(), slug: Type.String(), name: Type.String(), is_block: Type.Boolean(), counts: OverviewCountsSchema }),
    ),
    pages: OverviewCountsSchema,
    recent: Type.Array(
      Type.Object({
        kind: Kind,
        id: Type.String(),
        slug: Type.String(),
        title: ItemTitle,
        content_type: Type.Union([Type.String(), Type.Null()]),
        action: Type.String(),
        version: Type.Integer(),
        status: Type.String(),
        created_at: Timestamp,
        created_by: Type.Union([Type.Integer(), Type.Null()]),
      }),
    ),
    scheduled: Type.Array(
      Type.Object({
        kind: Kind,
        id: Type.String(),
        slug: Type.String(),
        title: ItemTitle,
        content_type: Type.Union([Type.String(), Type.Null()]),
        publish_at: Timestamp,
      }),
    ),
  },
  { title: 'Overview' },
);
