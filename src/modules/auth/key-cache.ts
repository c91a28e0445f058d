/**
 * In-memory cache of authenticated keys (Context.caches.keys), so a request does not pay for the
 * key lookup join. Correct across instances and writes: an entry is only used while its
 * workspace's revision (bumped by database triggers on every change to keys, memberships or
 * content, migrations 004 and 005) is the one it was loaded under, so revoking a key, demoting or
 * removing its creator takes effect on the next request (D12). Expiry is checked against the
 * clock on every hit.
 *
 * Which revision is the read model's (actorRevision in src/modules/read/resolver.ts): a preview
 * delivery key reads working copies, so its answers depend on every change (`draft_revision`);
 * every other key's on what production readers see (`revision`), so saving a working copy keeps
 * their cached answers (D70). Key and membership changes bump both.
 */
import type { CachedKey } from '../../caches.js';
import type { Context } from '../../context.js';
import { actorRevision } from '../read/resolver.js';
import { readWorkspaceRevision, readWorkspaceRevisionNow, type WorkspaceRevisions } from '../workspaces/repository.js';
import type { Actor } from './permissions.js';

/** Bound on remembered keys per context; the oldest is dropped first. */
const MAX_KEYS = 10_000;

/** The cached actor of a key digest if its workspace has not changed since, else null. */
export function cachedActor(ctx: Context, digest: string): Promise<CachedKey | null> {
  const now = cachedActorNow(ctx, digest);
  if (now !== undefined) return Promise.resolve(now);
  const entry = ctx.caches.keys.get(digest)!;
  // No async function in between: this is the path of every cached answer on PostgreSQL.
  return currentRevisions(ctx, entry.actor.workspaceId).then((revisions) => checked(ctx, digest, entry, revisions));
}

/**
 * cachedActor answered synchronously where the revision check needs no wait (no key cached, or
 * SQLite with no revision checker and no transaction open: readWorkspaceRevisionNow); undefined
 * where cachedActor must be awaited. The same check: a revision that moved drops the entry.
 */
export function cachedActorNow(ctx: Context, digest: string): CachedKey | null | undefined {
  const entry = ctx.caches.keys.get(digest);
  if (!entry) return null;
  if (ctx.revisions) return undefined;
  const revisions = readWorkspaceRevisionNow(ctx.db, entry.actor.workspaceId, ctx.caches.queries);
  return revisions === undefined ? undefined : checked(ctx, digest, entry, revisions);
}

/** `entry` if its workspace's `revisions` are still the ones it was loaded under, else null (and forgotten). */
function checked(ctx: Context, digest: string, entry: CachedKey, revisions: WorkspaceRevisions | null): CachedKey | null {
  if (revisions === null || revisionOf(entry.actor, revisions) !== entry.actor.revision) {
    ctx.caches.keys.delete(digest);
    return null;
  }
  return entry;
}

/**
 * The workspace's revisions as of now: on PostgreSQL through the revision checker's own
 * connection (not the pool, so cached answers never wait behind slow queries), through the pool
 * when that connection is down; on SQLite one synchronous indexed read.
 */
function currentRevisions(ctx: Context, workspaceId: string): Promise<WorkspaceRevisions | null> {
  const pool = () => readWorkspaceRevision(ctx.db, workspaceId, ctx.caches.queries);
  if (!ctx.revisions) return pool();
  return ctx.revisions.check(workspaceId).then((answer) => (answer !== undefined ? answer : pool()));
}

/** The revision an actor's answers depend on: the read model's actorRevision (see the module comment). */
export function revisionOf(actor: Pick<Actor, 'keyClass' | 'environment'>, revisions: WorkspaceRevisions): number {
  return actorRevision(actor, revisions);
}

export function rememberActor(ctx: Context, digest: string, actor: Actor, expiresAt: string | null): void {
  const cache = ctx.caches.keys;
  if (cache.size >= MAX_KEYS) cache.delete(cache.keys().next().value as string);
  cache.set(digest, { actor, expiresAt });
}
