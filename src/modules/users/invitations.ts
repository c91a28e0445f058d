/**
 * Invitations (issue 23: accounts belong to their person; the Studio contract "People"). The
 * account model:
 *
 * - an account is a person's email and password, shared by every workspace they belong to; only
 *   that person uses it. A workspace admin never creates, changes or takes over an account;
 * - inviting an email creates a pending invitation of the workspace (email, role, the name the
 *   admin typed, a one-time token valid 72 hours), never a membership and never an account. The
 *   answer and the People list show it as `pending`, the same for an email with an account
 *   elsewhere and one without (no account id, name or sign-in time of another workspace);
 * - the link goes to the invited email when SMTP_URL is set (then the admin never sees it), else
 *   to the admin, who passes it on. Re-inviting the email replaces the link; cancelling retires it;
 * - the link sets a password only for a brand-new account: none yet for the email, or one that
 *   has no password, never signed in and belongs to no workspace. That first password accepts
 *   the invitation and signs in;
 * - for any other account the person signs in as themselves and accepts with the same link
 *   (POST /session/invitations/accept with its token): the session's email must be the invited
 *   one. Both are needed: a session alone is not enough, so whoever chose the password of an
 *   account through another workspace's link (an admin without SMTP) cannot accept invitations
 *   sent to its email by other workspaces, whose links they never saw;
 * - accepting creates the membership with the invited role; someone already a member keeps their
 *   membership as it is.
 *
 * Errors: 403 FORBIDDEN (not an owner or admin; an admin inviting or cancelling an owner; a link
 * whose account is not brand new used to set a password; a session of another email accepting),
 * 404 NOT_FOUND (unknown, used, cancelled or expired link; unknown invitation id), 409
 * ALREADY_MEMBER, 400 VALIDATION_FAILED (email, role, password length).
 */
import type { Context } from '../../context.js';
import { withTransaction } from '../../db/transaction.js';
import { auditEntry, recordAudit, type AuditActor } from '../audit/record.js';
import { AppError, invalid } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { iso } from '../../lib/time.js';
import { normalizeEmail } from '../auth/operations.js';
import { hashPassword } from '../auth/passwords.js';
import { ROLES, type Actor, type Role } from '../auth/permissions.js';
import type { RequestContext } from '../auth/permissions.js';
import { PRESET_TABLE } from '../access/roles.js';
import { findMembershipRole, findUserByEmail, upsertMembership } from '../auth/repository.js';
import { deleteUserSessions, findCredentialsById } from '../auth/session-repository.js';
import {
  checkPassword,
  describeToken,
  newOneTimeToken,
  oneTimeTokenDigest,
  redeemToken,
  requirePasswords,
  sessionInfo,
  setupUrl,
  startSession,
  TOKEN_GONE,
  TOKEN_LIFETIME_MS,
  type SessionInfo,
  type SessionState,
  type StartedSession,
} from '../auth/sessions.js';
import { clearAccountFailures } from '../auth/throttle.js';
import { findWorkspaceById } from '../workspaces/repository.js';
import { sendInvitation } from './mailer.js';
import { pendingMember, type Member } from './operations.js';
import { authorize } from '../access/authorize.js';
import {
  accountState,
  consumeInvitation,
  deleteExpiredInvitations,
  deleteInvitation,
  ensureUserRow,
  findInvitationById,
  findInvitationByToken,
  replaceInvitation,
  setFirstPassword,
  type InvitationRow,
} from './repository.js';

export interface InviteResult {
  user: Member;
  /** The link, when it was not e-mailed (no SMTP_URL, or sending failed); null when it went to the invited email. */
  invitation_url: string | null;
  expires_at: string;
  emailed: boolean;
}

/** The role key `ref` names (a preset's name, a custom role's id or name, D120); 400 at body.role otherwise. */
function parseRole(actor: Actor, ref: string): Role {
  const key = (actor.roles ?? PRESET_TABLE).resolve(ref, actor.workspaceId);
  if (key === undefined) throw invalid('body.role', `must be one of ${ROLES.join(', ')} or a custom role of this workspace (its id or name)`);
  // A custom role's key is its id: the Role type names the presets, the check reads any key.
  return key as Role;
}

/**
 * POST /users/invitations: a pending invitation for `email` with `role` (replacing this
 * workspace's earlier one for the email), e-mailed when SMTP_URL is set. 409 ALREADY_MEMBER when
 * the email's account is a member here already.
 */
export async function invite(ctx: Context, actor: Actor, input: { email: string; role: string; name?: string }): Promise<InviteResult> {
  authorize(actor, 'people:invite');
  const role = parseRole(actor, input.role);
  authorize(actor, 'people:invite', { grant: role });
  const email = normalizeEmail(input.email, 'body.email');
  const name = input.name?.trim() ? input.name.trim() : null;
  const { token, digest } = newOneTimeToken();
  const now = ctx.clock();
  const row: InvitationRow = {
    id: newId(),
    workspace_id: actor.workspaceId,
    email,
    name,
    role,
    invited_by: actor.userId,
    token_hash: digest,
    created_at: iso(now),
    expires_at: iso(new Date(now.getTime() + TOKEN_LIFETIME_MS)),
  };
  await withTransaction(ctx.db, async (db) => {
    const user = await findUserByEmail(db, email);
    if (user && (await findMembershipRole(db, actor.workspaceId, user.id)))
      throw new AppError('ALREADY_MEMBER', `${email} is already a member of this workspace`);
    await deleteExpiredInvitations(db, row.created_at);
    await replaceInvitation(db, row);
    await recordAudit(db, {
      workspaceId: actor.workspaceId,
      at: now,
      actor,
      action: 'invitation.created',
      target: { kind: 'invitation', id: row.id, slug: email },
    });
  });
  const url = setupUrl(ctx, token);
  let emailed = false;
  if (ctx.config.smtpUrl) {
    const ws = await findWorkspaceById(ctx.db, actor.workspaceId);
    const inviter = await findCredentialsById(ctx.db, actor.userId);
    emailed = await sendInvitation(ctx, {
      to: email,
      workspaceName: ws?.name ?? 'a workspace',
      invitedBy: inviter?.name ?? inviter?.email ?? 'Someone',
      url,
      expiresAt: row.expires_at,
    });
  }
  // A link that reached the mailbox is the invited person's alone: the admin does not see it.
  return { user: pendingMember(row), invitation_url: emailed ? null : url, expires_at: row.expires_at, emailed };
}

/** DELETE /users/invitations/{id}: cancels a pending invitation (its link stops working). Owners and admins; only owners cancel an owner's. */
export async function cancelInvitation(ctx: Context, actor: Actor, id: string): Promise<void> {
  authorize(actor, 'people:cancel-invitation');
  await withTransaction(ctx.db, async (db) => {
    const row = await findInvitationById(db, actor.workspaceId, id);
    if (!row) throw new AppError('NOT_FOUND', `invitation ${id} not found in this workspace`);
    authorize(actor, 'people:cancel-invitation', { role: row.role });
    await deleteInvitation(db, actor.workspaceId, id);
    await recordAudit(db, {
      workspaceId: actor.workspaceId,
      at: ctx.clock(),
      actor,
      action: 'invitation.cancelled',
      target: { kind: 'invitation', id, slug: row.email },
    });
  });
}

/** What GET /session/token answers. */
export interface LinkInfo {
  purpose: 'setup' | 'invitation';
  email: string;
  workspace: { slug: string; name: string } | null;
  role: Role | null;
  expires_at: string;
  /** set_password: the link sets the account's first password; sign_in: the person signs in and accepts. */
  action: 'set_password' | 'sign_in';
}

/** True when the email has no account, or one nobody has made theirs yet (no password, never signed in, no membership). */
function brandNew(account: Awaited<ReturnType<typeof accountState>>): boolean {
  return !account || (!account.has_password && !account.signed_in && account.memberships === 0);
}

/** GET /session/token: what a setup or invitation link is for and what its holder does next; 404 when unknown, used or expired. */
export async function describeLink(ctx: Context, token: string): Promise<LinkInfo> {
  const digest = oneTimeTokenDigest(token);
  if (!digest) throw new AppError('NOT_FOUND', TOKEN_GONE);
  const invitation = await findInvitationByToken(ctx.db, digest, iso(ctx.clock()));
  if (invitation) {
    return {
      purpose: 'invitation',
      email: invitation.email,
      workspace: { slug: invitation.workspace_slug, name: invitation.workspace_name },
      role: invitation.role,
      expires_at: invitation.expires_at,
      // Without passwords (OIDC_ONLY, D121) the invited person signs in with single sign-on and accepts.
      action: !ctx.config.oidc?.only && brandNew(await accountState(ctx.db, invitation.email)) ? 'set_password' : 'sign_in',
    };
  }
  return { ...(await describeToken(ctx, token)), role: null, action: 'set_password' };
}

const ACCOUNT_EXISTS = 'This email already has an account: sign in as it and accept the invitation there';

/**
 * POST /session/password with a token: a setup link (sessions.ts redeemToken) or an invitation
 * link. An invitation link sets the first password of a brand-new account, accepts the
 * invitation and signs in; for any other account it answers 403 and changes nothing.
 */
export async function redeemLink(ctx: Context, token: string, password: string, request?: RequestContext): Promise<StartedSession> {
  requirePasswords(ctx);
  checkPassword(password);
  const digest = oneTimeTokenDigest(token);
  if (!digest) throw new AppError('NOT_FOUND', TOKEN_GONE);
  const invitation = await findInvitationByToken(ctx.db, digest, iso(ctx.clock()));
  if (!invitation) return redeemToken(ctx, token, password, request);
  if (!brandNew(await accountState(ctx.db, invitation.email))) throw new AppError('FORBIDDEN', ACCOUNT_EXISTS);
  const hash = await hashPassword(password, ctx.config.passwordHashLog2n);
  const userId = await withTransaction(ctx.db, async (db) => {
    const now = iso(ctx.clock());
    const id = await ensureUserRow(db, invitation.email, invitation.name, now);
    // Checked again inside the transaction: two links of one new address redeemed at once
    // both pass the check above, and only the first may choose the password.
    if (!brandNew(await accountState(db, invitation.email)) || !(await setFirstPassword(db, id, hash))) throw new AppError('FORBIDDEN', ACCOUNT_EXISTS);
    if (!(await consumeInvitation(db, digest, now))) throw new AppError('NOT_FOUND', TOKEN_GONE);
    await upsertMembership(db, invitation.workspace_id, id, invitation.role, now);
    await deleteUserSessions(db, id);
    await recordAudit(db, accepted(invitation, { id, email: invitation.email }, now, request));
    return id;
  });
  const user = (await findCredentialsById(ctx.db, userId))!;
  await clearAccountFailures(ctx, user.email);
  return startSession(ctx, { id: user.id, email: user.email, name: user.name });
}

/**
 * POST /session/invitations/accept: the signed-in person accepts the invitation of this link.
 * 403 when the invitation is for another email; 404 when the link is unknown, used, cancelled or
 * expired. A person already a member keeps their role. Answers the session's new SessionInfo.
 */
export async function acceptInvitation(ctx: Context, session: SessionState, token: string, request?: RequestContext): Promise<SessionInfo> {
  const digest = oneTimeTokenDigest(token);
  if (!digest) throw new AppError('NOT_FOUND', TOKEN_GONE);
  await withTransaction(ctx.db, async (db) => {
    const now = iso(ctx.clock());
    const invitation = await findInvitationByToken(db, digest, now);
    if (!invitation) throw new AppError('NOT_FOUND', TOKEN_GONE);
    if (invitation.email !== session.user.email) {
      throw new AppError('FORBIDDEN', 'This invitation is for another email address: sign in as that address to accept it');
    }
    if (!(await consumeInvitation(db, digest, now))) throw new AppError('NOT_FOUND', TOKEN_GONE);
    if (!(await findMembershipRole(db, invitation.workspace_id, session.user.id)))
      await upsertMembership(db, invitation.workspace_id, session.user.id, invitation.role, now);
    await recordAudit(db, accepted(invitation, session.user, now, request));
  });
  return sessionInfo(ctx, session);
}

/** The audit row of an accepted invitation (D122): the person who accepted it is the actor. */
function accepted(invitation: { id: string; workspace_id: string; email: string }, user: { id: number; email: string }, at: string, request?: RequestContext) {
  const actor: AuditActor = { type: 'user', id: String(user.id), label: user.email, userId: user.id, request };
  return auditEntry(invitation.workspace_id, at, actor, 'invitation.accepted', { kind: 'invitation', id: invitation.id, slug: invitation.email });
}
