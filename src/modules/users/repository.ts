/** SQL of the People screen (D91): a workspace's members with their sign-in state. */
import type { Db } from '../../db/types.js';
import type { Role } from '../auth/permissions.js';

export interface MemberRow {
  id: number;
  email: string;
  name: string | null;
  role: Role;
  has_password: boolean;
  created_at: string;
  last_sign_in_at: string | null;
}

function memberQuery(db: Db, workspaceId: string) {
  return db.kysely
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.email', 'u.name', 'm.role', 'u.password_hash', 'm.created_at', 'u.last_sign_in_at'])
    .where('m.workspace_id', '=', workspaceId);
}

type Row = { id: number; email: string; name: string | null; role: string; password_hash: string | null; created_at: string; last_sign_in_at: string | null };

function toMember({ password_hash, ...row }: Row): MemberRow {
  return { ...row, role: row.role as Role, has_password: password_hash !== null };
}

/** The workspace's members, by email. */
export async function listMembers(db: Db, workspaceId: string): Promise<MemberRow[]> {
  const rows = await memberQuery(db, workspaceId).orderBy('u.email').execute();
  return rows.map(toMember);
}

export async function findMember(db: Db, workspaceId: string, userId: number): Promise<MemberRow | null> {
  const row = await memberQuery(db, workspaceId).where('u.id', '=', userId).executeTakeFirst();
  return row ? toMember(row) : null;
}

/** How many owners the workspace has. */
export async function countOwners(db: Db, workspaceId: string): Promise<number> {
  const row = await db.kysely
    .selectFrom('memberships')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
