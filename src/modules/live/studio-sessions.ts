/**
 * Which open Studio event streams no longer stand for their session (docs/workflow.md "Who else is
 * here" (D133)): a stream keeps the actor it was opened with, so the heartbeat asks, in two
 * queries for all of an instance's streams, whether each session still exists (not signed out,
 * not expired) and whether its person is still a member of the workspace with the same role.
 * Those that are not are ended: their Studio reconnects (and is refused, or reads with the new role).
 */
import type { Db } from '../../db/types.js';
import { iso } from '../../lib/time.js';
import type { Actor } from '../auth/permissions.js';

/** Of `subs`, those whose session ended or whose membership changed (`now`: the session expiry's clock). */
export async function staleStreams<S extends { actor: Actor }>(db: Db, now: Date, subs: readonly S[]): Promise<S[]> {
  if (subs.length === 0) return [];
  const digests = [...new Set(subs.map((s) => s.actor.session?.digest).filter((d): d is string => d !== undefined))];
  const users = [...new Set(subs.map((s) => s.actor.userId))];
  const live = new Set<string>();
  for (let i = 0; i < digests.length; i += 500) {
    const rows = await db.kysely
      .selectFrom('sessions')
      .select('id_hash')
      .where('id_hash', 'in', digests.slice(i, i + 500))
      .where('expires_at', '>', iso(now))
      .execute();
    for (const r of rows) live.add(r.id_hash);
  }
  const roles = new Map<string, string>();
  for (let i = 0; i < users.length; i += 500) {
    const rows = await db.kysely
      .selectFrom('memberships')
      .select(['workspace_id', 'user_id', 'role'])
      .where('user_id', 'in', users.slice(i, i + 500))
      .execute();
    for (const r of rows) roles.set(`${r.workspace_id}:${Number(r.user_id)}`, r.role);
  }
  return subs.filter((s) => !s.actor.session || !live.has(s.actor.session.digest) || roles.get(`${s.actor.workspaceId}:${s.actor.userId}`) !== s.actor.role);
}
