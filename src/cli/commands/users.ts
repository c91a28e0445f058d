/**
 * `quire users create --workspace SLUG --email EMAIL --role ROLE` → `{id, email, role}` and
 * `quire users set-role --workspace SLUG --email EMAIL --role ROLE` (DECISIONS.md D61, D12):
 * thin wrappers over the auth operations createMember and setMemberRole.
 */
import type { Context } from '../../context.js';
import { createMember, setMemberRole } from '../../modules/auth/operations.js';
import type { CommandResult } from '../io.js';

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
