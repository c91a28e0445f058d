/**
 * The release perspective of the Studio (docs/studio.md "Releases"; D111): which release, if
 * any, the editors show. Chosen with the header's release switcher and kept per workspace in this
 * tab's sessionStorage (a reload keeps it, another tab starts without). In a release, an entry or
 * page that the release publishes opens its release version, and edits write it (`?release=`);
 * anything else opens its working copy, with a banner saying which.
 *
 * useReleasePerspective() answers the chosen release (read again from the API, so a release that
 * was deleted or published meanwhile drops the perspective) and its items.
 */
import { useCallback, useSyncExternalStore } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Release, ReleaseItem } from '../api/types';
import { getRelease, listItems } from '../screens/releases/api';
import { useWsKey } from './queries';
import { useWorkspace } from './workspace';

const storageKey = (workspaceId: string) => `quire.release-perspective.${workspaceId}`;
const listeners = new Set<() => void>();

function read(workspaceId: string): string | null {
  try {
    return window.sessionStorage.getItem(storageKey(workspaceId));
  } catch {
    return null;
  }
}

/** Puts the editors of `workspaceId` in release `id`'s perspective (null: the working copies). */
export function setReleasePerspective(workspaceId: string, id: string | null): void {
  try {
    if (id) window.sessionStorage.setItem(storageKey(workspaceId), id);
    else window.sessionStorage.removeItem(storageKey(workspaceId));
  } catch {
    // Storage refused (private mode): the choice lasts until the next reload only through listeners.
  }
  for (const l of listeners) l();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** A release's content can be edited while it is open or failed (docs/releases.md). */
export const isEditableRelease = (r: Pick<Release, 'status'>) => r.status === 'open' || r.status === 'failed';

/** The release statuses the switcher offers: the ones that are not live yet. */
export const PERSPECTIVE_STATUSES: Release['status'][] = ['open', 'failed', 'scheduled'];

export interface ReleasePerspective {
  /** the chosen release id (null: working copies) */
  id: string | null;
  /** the chosen release, once read; null while loading or without one */
  release: Release | null;
  /** its items, once read */
  items: ReleaseItem[] | null;
  /** true while the release or its items load */
  pending: boolean;
  /** a release was chosen that is gone or went live: no perspective any more (the switcher forgets it) */
  dropped: boolean;
  set: (id: string | null) => void;
}

export function useReleasePerspective(): ReleasePerspective {
  const { workspace } = useWorkspace();
  const key = useWsKey();
  const stored = useSyncExternalStore(subscribe, () => read(workspace.id));
  const set = useCallback((id: string | null) => setReleasePerspective(workspace.id, id), [workspace.id]);
  const release = useQuery({ queryKey: key('releases', stored), queryFn: () => getRelease(stored!), enabled: !!stored, retry: false });
  const items = useQuery({ queryKey: key('releases', stored, 'items'), queryFn: () => listItems(stored!), enabled: !!stored, retry: false });
  // A release that is gone or went live is no perspective any more.
  const usable = release.data && PERSPECTIVE_STATUSES.includes(release.data.status) ? release.data : null;
  const dropped = !!stored && (release.isError || (release.data !== undefined && !usable));
  return {
    id: dropped ? null : stored,
    release: dropped ? null : usable,
    items: dropped ? null : (items.data ?? null),
    pending: !!stored && !dropped && (release.isPending || items.isPending),
    dropped,
    set,
  };
}

/** The item of `perspective` for an entry or page (matched by id, else by type and slug), or null. */
export function itemInRelease(
  items: readonly ReleaseItem[] | null,
  target: { kind: ReleaseItem['kind']; id?: string; slug: string; type?: string | null },
): ReleaseItem | null {
  if (!items) return null;
  return (
    items.find(
      (i) => i.kind === target.kind && (target.id ? i.id === target.id : i.slug === target.slug && (target.kind === 'page' || i.content_type === target.type)),
    ) ?? null
  );
}
