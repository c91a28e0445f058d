/**
 * In-memory cache of authenticated keys, so a request does not pay for the key lookup join.
 * Correct across instances and writes: an entry is only used while its workspace's revision
 * (bumped by database triggers on every change to keys, memberships or content, migration 004)
 * is the one it was loaded under, so revoking a key, demoting or removing its creator takes
 * effect on the next request (D12). Expiry is checked against the clock on every hit.
 */
import type { Db } from '../../db/types.js';
import { readWorkspaceRevision } from '../workspaces/repository.js';
import type { Actor } from './permissions.js';

interface Entry {
  actor: Actor;
  expiresAt: string | null;
}

/** Bound on remembered keys per database handle; the oldest is dropped first. */
const MAX_KEYS = 10_000;
const caches = new WeakMap<Db, Map<string, Entry>>();

/** The cached actor of a key digest if its workspace has not changed since, else null. */
export async function cachedActor(db: Db, digest: string): Promise<{ actor: Actor; expiresAt: string | null } | null> {
  const entry = caches.get(db)?.get(digest);
  if (!entry) return null;
  const revision = await readWorkspaceRevision(db, entry.actor.workspaceId);
  if (revision === null || revision !== entry.actor.revision) {
    caches.get(db)?.delete(digest);
    return null;
  }
  return entry;
}

export function rememberActor(db: Db, digest: string, actor: Actor, expiresAt: string | null): void {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  if (cache.size >= MAX_KEYS) cache.delete(cache.keys().next().value as string);
  cache.set(digest, { actor, expiresAt });
}
