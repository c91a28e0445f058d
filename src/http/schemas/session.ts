/** Wire schemas of Studio sign-in (D90; /api/v1/manage/session*). */
import { Type, type Static } from '@sinclair/typebox';
import { CAPABILITIES, type Capability } from '../../modules/access/authorize.js';
import type { Role } from '../../modules/auth/permissions.js';
import { Timestamp } from './common.js';
import { PermissionSchema } from './roles.js';

export const SignInBody = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 320 }),
    password: Type.String({ minLength: 1, maxLength: 1000 }),
  },
  { additionalProperties: false },
);

export const SessionInfoSchema = Type.Object(
  {
    user: Type.Object({ id: Type.Integer(), email: Type.String(), name: Type.Union([Type.String(), Type.Null()]) }),
    workspaces: Type.Array(
      Type.Object({
        id: Type.String(),
        slug: Type.String(),
        name: Type.String(),
        role: Type.Unsafe<Role>(Type.String({ description: "a built-in role's name, or a custom role's id (D120)" })),
        permissions: Type.Optional(
          Type.Array(PermissionSchema, {
            description:
              "The role's permissions (D120), so the Studio shows ahead which locales and fields the person may change; the server checks every request again",
          }),
        ),
        capabilities: Type.Array(Type.Unsafe<Capability>(Type.String({ enum: [...CAPABILITIES] })), {
          description:
            "What the person's role may do in this workspace, as the server's permission check decides it: the scopes (content:write, content:publish, media:write, schema:write, webhooks:write), the people, key and settings actions, and owners:manage (grant, take and remove the owner role). The server checks every request again",
        }),
      }),
    ),
    csrf_token: Type.String({ description: 'Send as X-CSRF-Token on every session request other than GET, HEAD and OPTIONS' }),
  },
  { title: 'SessionInfo' },
);
export type SessionInfoWire = Static<typeof SessionInfoSchema>;

export const TokenQuery = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });

export const TokenInfoSchema = Type.Object(
  {
    purpose: Type.Unsafe<'setup' | 'invitation'>(Type.String({ enum: ['setup', 'invitation'] })),
    email: Type.String(),
    workspace: Type.Union([Type.Object({ slug: Type.String(), name: Type.String() }), Type.Null()]),
    role: Type.Union([Type.Unsafe<Role>(Type.String()), Type.Null()], {
      description: 'the role an invitation offers; null for a setup link',
    }),
    expires_at: Timestamp,
    action: Type.Unsafe<'set_password' | 'sign_in'>(
      Type.String({
        enum: ['set_password', 'sign_in'],
        description:
          'set_password: POST /session/password with this token sets the first password (and accepts); sign_in: the email has an account, whose person signs in and accepts with POST /session/invitations/accept',
      }),
    ),
  },
  { title: 'OneTimeToken' },
);

/** `{token}` of an invitation link, accepted by the signed-in person it is for. */
export const AcceptInvitationBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200, description: 'The token of the invitation link (`token=` in its URL)' }) },
  { additionalProperties: false },
);

/** Either `{token, password}` (a setup or invitation link) or `{current_password, password}` (on a session). */
export const PasswordBody = Type.Object(
  {
    token: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'A one-time setup or invitation token' })),
    current_password: Type.Optional(Type.String({ minLength: 1, maxLength: 1000, description: 'With a session: the password being replaced' })),
    password: Type.String({ description: 'The new password: 10 to 200 characters' }),
  },
  { additionalProperties: false },
);

/** GET /session/methods: how people sign in here (D90, D121), read by the Studio before anyone is signed in. */
export const SignInMethodsSchema = Type.Object(
  {
    password: Type.Boolean({ description: 'Email and password sign-in is on (false under OIDC_ONLY)' }),
    sso: Type.Union(
      [
        Type.Object({
          name: Type.String({ description: 'The provider, as the button "Sign in with <name>" shows it (OIDC_NAME, else the issuer host)' }),
          start_url: Type.String({ description: 'Where the browser goes to sign in with the provider; `?next=/studio-path` returns there afterwards' }),
        }),
        Type.Null(),
      ],
      { description: 'Single sign-on with OpenID Connect; null when OIDC_ISSUER is unset' },
    ),
  },
  { title: 'SignInMethods' },
);

export const OidcStartQuery = Type.Object({ next: Type.Optional(Type.String({ maxLength: 2000 })) });
