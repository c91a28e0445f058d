/**
 * Calls of the Releases screen and of the editors' release actions (docs/releases.md; D110–D113),
 * all through the one API client: releases, their items, the check of a publication, publish,
 * schedule, unschedule, revert and delete. Refusals arrive as ApiError (422 RELEASE_INVALID and 409
 * RELEASE_CONFLICT carry their `errors`).
 */
import { api } from '../../api/client';
import type { PageMeta, Release, ReleaseItem, ReleaseValidation } from '../../api/types';

const one = (id: string) => `/releases/${encodeURIComponent(id)}`;

/** Releases, newest first (one page of `limit`), optionally of one status. */
export async function listReleases(q: { page?: number; limit?: number; status?: Release['status'] } = {}): Promise<{ items: Release[]; meta: PageMeta }> {
  const res = await api<Release[], PageMeta>('/releases', { query: { page: q.page ?? 1, limit: q.limit ?? 50, status: q.status } });
  return { items: res.data, meta: res.meta };
}

/** The releases of the given statuses, newest first within each status (100 of each at most). */
export async function listReleasesIn(statuses: readonly Release['status'][]): Promise<Release[]> {
  const pages = await Promise.all(statuses.map((status) => listReleases({ status, limit: 100 })));
  return pages.flatMap((p) => p.items);
}

/** The releases whose content may still change (open and failed), the ones an item can be added to. */
export const listEditableReleases = () => listReleasesIn(['open', 'failed']);

export async function getRelease(id: string): Promise<Release> {
  return (await api<Release>(one(id))).data;
}

export async function createRelease(body: { title: string; description?: string | null }): Promise<Release> {
  return (await api<Release>('/releases', { method: 'POST', body })).data;
}

export async function deleteRelease(id: string): Promise<void> {
  await api<null>(one(id), { method: 'DELETE' });
}

export async function listItems(id: string): Promise<ReleaseItem[]> {
  return (await api<ReleaseItem[]>(`${one(id)}/items`)).data;
}

export async function addItem(id: string, item: { kind: ReleaseItem['kind']; id: string; action: ReleaseItem['action'] }): Promise<ReleaseItem> {
  return (await api<ReleaseItem>(`${one(id)}/items`, { method: 'POST', body: item })).data;
}

export async function removeItem(id: string, kind: ReleaseItem['kind'], itemId: string): Promise<void> {
  await api<null>(`${one(id)}/items/${kind}/${encodeURIComponent(itemId)}`, { method: 'DELETE' });
}

/** What a publication now would refuse (GET …/validation). */
export async function validateRelease(id: string): Promise<ReleaseValidation> {
  return (await api<ReleaseValidation>(`${one(id)}/validation`)).data;
}

export async function publishRelease(id: string): Promise<Release> {
  return (await api<Release>(`${one(id)}/publish`, { method: 'POST' })).data;
}

/** `publishAt`: ISO 8601, in the future. */
export async function scheduleRelease(id: string, publishAt: string): Promise<Release> {
  return (await api<Release>(`${one(id)}/schedule`, { method: 'POST', body: { publish_at: publishAt } })).data;
}

export async function unscheduleRelease(id: string): Promise<Release> {
  return (await api<Release>(`${one(id)}/unschedule`, { method: 'POST' })).data;
}

export async function revertRelease(id: string, force = false): Promise<Release> {
  return (await api<Release>(`${one(id)}/revert`, { method: 'POST', body: force ? { force: true } : {} })).data;
}

/**
 * A scheduled unpublish of one entry or page: a release of one `unpublish` item, scheduled
 * (docs/releases.md: "A scheduled unpublish of one item is a release with one unpublish item").
 * A refusal after the release was created deletes it again, so no empty release is left behind.
 */
export async function scheduleUnpublish(target: { kind: ReleaseItem['kind']; id: string; title: string }, publishAt: string): Promise<Release> {
  const release = await createRelease({ title: `Unpublish ${target.title}`, description: null });
  try {
    await addItem(release.id, { kind: target.kind, id: target.id, action: 'unpublish' });
    return await scheduleRelease(release.id, publishAt);
  } catch (err) {
    await deleteRelease(release.id).catch(() => {});
    throw err;
  }
}
