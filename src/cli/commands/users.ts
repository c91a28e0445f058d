/**
 * `quire users create --workspace SLUG --email EMAIL --role ROLE` → `{id, email, role}`,
 * `quire users set-role --workspace SLUG --email EMAIL --role ROLE` (docs/cli.md "The `quire`
 * command line" (D61); docs/api.md "Management keys: scopes, roles and their intersection" (D12))
 * and
 * `quire users set-password --workspace SLUG --email EMAIL [--link]` (D90): reads the password
 * from stdin (one line; the trailing newline is dropped; 10 to 200 characters), sets it and ends
 * the member's Studio sessions → `{id, email, password_set: true}`; with `--link` prints a new
 * one-time setup link instead → `{id, email, setup_url, expires_at}`. Thin wrappers over the
 * auth operations.
 */
import type { Context } from '../../context.js';
import { createMember, memberByEmail, setMemberRole } from '../../modules/auth/operations.js';
import { issueToken, setPasswordForUser } from '../../modules/auth/sessions.js';
import { CliUsageError, readAll, type CliIo, type CommandResult } from '../io.js';

export interface UserRoleOptions {
  workspace: string;
  email: string;
  role: string;
}

export async function runUsersCreate(ctx: Context, opts: UserRoleOptions): Promise<CommandResult> {
  const member = await createMember(ctx, opts.workspace, opts.email, opts.role);
  return { json: { ...member }, text: `User ${member.email} (id ${member.id}) is ${member.role} of '${opts.workspace}'.` };
}

export async function runUsersSetRole(ctx: Context, opts: UserRoleOptions): Promise<CommandResult> {
  const member = await setMemberRole(ctx, opts.workspace, opts.email, opts.role);
  return { json: { ...member }, text: `User ${member.email} is now ${member.role} of '${opts.workspace}'.` };
}

export interface SetPasswordOptions {
  workspace: string;
  email: string;
  link?: boolean;
}

export async function runUsersSetPassword(ctx: Context, io: CliIo, opts: SetPasswordOptions): Promise<CommandResult> {
  const member = await memberByEmail(ctx, opts.workspace, opts.email);
  if (opts.link) {
    const issued = await issueToken(ctx, member.id, member.workspaceId, 'setup');
    return {
      json: { id: member.id, email: member.email, setup_url: issued.url, expires_at: issued.expires_at },
      text: `One-time setup link for ${member.email} (valid until ${issued.expires_at}):\n${issued.url}`,
    };
  }
  const password = (await readAll(io.stdin)).replace(/\r?\n$/, '');
  if (password === '') throw new CliUsageError('no password on stdin (pipe one in, or use --link for a setup link)');
  await setPasswordForUser(ctx, member.id, password);
  return { json: { id: member.id, email: member.email, password_set: true }, text: `Password of ${member.email} set; their Studio sessions have ended.` };
}
