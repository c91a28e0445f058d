/**
 * Recording the audit log (docs/access.md "Audit log" (D122)): every management write calls
 * recordAudit inside its own transaction, so a committed change always has its row and a
 * rolled-back one never does. The actor and the request it came in (ip, user agent, request id)
 * come from the operation's Actor (`label`, `request`, set by the transport that resolved it);
 * operations never read a transport themselves. A failed sign-in has no change transaction: it
 * is recorded on its own.
 *
 * A row names who (`user` for a Studio session, `key` with its creator as `user_id`, `system`
 * for the CLI and jobs), the action (`<kind>.<verb>`, e.g. `entry.updated`), the target as it was
 * then (kind, id, slug or name), and for updates the top-level field names that changed: never
 * values, never secrets.
 */
import type { Db } from '../../db/types.js';
import { newId } from '../../lib/ids.js';
import { stableStringify } from '../../lib/json.js';
import { iso } from '../../lib/time.js';
import type { Actor, RequestContext } from '../auth/permissions.js';
import { itemSubjects } from '../events/repository.js';
import { INSTALLATION, insertAuditRow } from './repository.js';

/** Who did it, as a row names them. */
export interface AuditActor {
  type: 'user' | 'key' | 'system';
  /** The user id (as text) or key id; null for the system. */
  id: string | null;
  /** Email, key name, or what the system was (`scheduler`, `cli`). */
  label: string | null;
  /** The person: the user, or a key's creator; null when none. */
  userId: number | null;
  request?: RequestContext;
}

/** What it was done to. */
export interface AuditTarget {
  kind: string;
  id?: string | null;
  slug?: string | null;
}

/** One row to record. */
export interface AuditEntry {
  /** Null for installation-wide actions (sign-in, sign-out, passwords). */
  workspaceId: string | null;
  at: Date | string;
  actor: Actor | AuditActor;
  /** `<kind>.<verb>`, e.g. `entry.updated`, `session.sign_in_failed`. */
  action: string;
  target: AuditTarget;
  /** Top-level field names an update changed (names only). */
  changedFields?: readonly string[];
}

/** An entry of `action` on `target` in workspace `workspaceId` (null: installation-wide), by `actor` at `at`. */
export function auditEntry(
  workspaceId: string | null,
  at: Date | string,
  actor: Actor | AuditActor,
  action: string,
  target: AuditTarget,
  changedFields?: readonly string[],
): AuditEntry {
  return { workspaceId, at, actor, action, target, changedFields };
}

/** How the audit log names a workspace. */
export function workspaceTarget(ws: { id: string; slug: string }): AuditTarget {
  return { kind: 'workspace', id: ws.id, slug: ws.slug };
}

/** A job or tool acting on its own (no person, no request), named `label`: `scheduler`, `import`, `retention`. */
export function systemAuditActor(label: string): AuditActor {
  return { type: 'system', id: null, label, userId: null };
}

/** The scheduler: publications at their time, whoever's write caught up with them. */
export const SCHEDULER: AuditActor = systemAuditActor('scheduler');

/** Longest user agent kept (browsers send a few hundred characters; anything longer is noise). */
const MAX_USER_AGENT = 512;

function isAuditActor(actor: Actor | AuditActor): actor is AuditActor {
  return 'type' in actor;
}

/** How a row names `actor`: a session is its person, a key itself (with its creator), the system actor the system. */
export function auditActorOf(actor: Actor | AuditActor): AuditActor {
  if (isAuditActor(actor)) return actor;
  const request = actor.request;
  if (actor.session) return { type: 'user', id: String(actor.userId), label: actor.label ?? null, userId: actor.userId, request };
  if (actor.keyId === 'system') return { type: 'system', id: null, label: actor.label ?? 'cli', userId: actor.userId > 0 ? actor.userId : null, request };
  return { type: 'key', id: actor.keyId, label: actor.label ?? null, userId: actor.userId, request };
}

/** Records `entry` through `trx`: the change's transaction (or the database, for a failed sign-in). */
export async function recordAudit(trx: Db, entry: AuditEntry): Promise<void> {
  const who = auditActorOf(entry.actor);
  const request = who.request;
  await insertAuditRow(trx, {
    id: newId(),
    workspace_id: entry.workspaceId ?? INSTALLATION,
    at: typeof entry.at === 'string' ? entry.at : iso(entry.at),
    actor_type: who.type,
    actor_id: who.id,
    actor_label: who.label,
    actor_user_id: who.userId,
    action: entry.action,
    target_kind: entry.target.kind,
    target_id: entry.target.id ?? null,
    target_slug: entry.target.slug ?? null,
    ip: request?.ip ?? null,
    user_agent: request?.userAgent?.slice(0, MAX_USER_AGENT) ?? null,
    request_id: request?.requestId ?? null,
    changed_fields: entry.changedFields && entry.changedFields.length > 0 ? JSON.stringify([...entry.changedFields].sort()) : null,
  });
}

/**
 * Records `<kind>.<action>` for each of these entries or pages as their rows now are (slug,
 * workspace): ids without a row are skipped, so a deletion is recorded before the row goes.
 */
export async function recordItemAudit(
  trx: Db,
  at: Date | string,
  actor: Actor | AuditActor,
  kind: 'entry' | 'page',
  ids: readonly string[],
  action: string,
  changedFields?: readonly string[],
): Promise<void> {
  for (const s of await itemSubjects(trx, kind, ids)) {
    await recordAudit(trx, { workspaceId: s.workspaceId, at, actor, action: `${kind}.${action}`, target: { kind, id: s.id, slug: s.slug }, changedFields });
  }
}

/**
 * The top-level keys whose values differ between two objects (a key-order-blind JSON comparison of each value),
 * for `changed_fields`: names only.
 */
export function changedKeys(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => stableStringify(before[k]) !== stableStringify(after[k]));
}
