/**
 * Calls of the entries screens (docs/api.md "Entries", "Preview tokens"; D5, D20-D23, D46, D70-D72),
 * all through the one API client. Writes to one entry send `If-Match` with the ETag last seen, so
 * a concurrent save answers 412 instead of being overwritten.
 */
import { api } from '../../api/client';
import type { BulkResult, Entry, Member, PageMeta, Version } from '../../api/types';

export type EntryData = Record<string, unknown>;
export type Translations = Record<string, EntryData>;
export type StateVerb = 'publish' | 'unpublish' | 'archive' | 'schedule';

const base = (type: string) => `/content-types/${encodeURIComponent(type)}/entries`;
const one = (type: string, slug: string) => `${base(type)}/${encodeURIComponent(slug)}`;
/** An entry's path under /api/v1/manage (its workflow actions, api/workflows.ts). */
export const entryPath = one;

export interface ListQuery {
  limit: number;
  status?: string;
  sort?: string;
  search?: string;
  page?: number;
  cursor?: string;
  /** a review workflow stage (id or name, D130) */
  stage?: string;
  /** `me` or a user id: items assigned to them */
  assignee?: string;
}

export async function listEntries(type: string, q: ListQuery): Promise<{ items: Entry[]; meta: PageMeta }> {
  const res = await api<Entry[], PageMeta>(base(type), { query: { ...q, page: q.cursor ? undefined : q.page } });
  return { items: res.data, meta: res.meta };
}

export interface EntryWithTag {
  entry: Entry;
  etag: string | null;
}

/** The working copy; with `release`, the entry's release version in that release (docs/releases.md). */
export async function getEntry(type: string, slug: string, release?: string | null): Promise<EntryWithTag> {
  const res = await api<Entry>(one(type, slug), { query: { release } });
  return { entry: res.data, etag: res.etag };
}

export async function createEntry(type: string, body: { slug?: string; data: EntryData; translations?: Translations }): Promise<EntryWithTag> {
  const res = await api<Entry>(base(type), {
    method: 'POST',
    body: { ...body, translations: body.translations ? wireTranslations(body.translations) : undefined },
  });
  return { entry: res.data, etag: res.etag };
}

/** D2's object form; locales without a value are left out (PUT replaces all translations). */
export function wireTranslations(translations: Translations): Record<string, { data: EntryData }> {
  const out: Record<string, { data: EntryData }> = {};
  for (const [locale, data] of Object.entries(translations)) {
    const kept = Object.fromEntries(Object.entries(data).filter(([, v]) => v !== null && v !== undefined));
    if (Object.keys(kept).length) out[locale] = { data: kept };
  }
  return out;
}

/** PUT of the working copy; with `release`, of the entry's release version in that release. */
export async function saveEntry(
  type: string,
  slug: string,
  body: { data: EntryData; translations: Translations; slug?: string },
  etag: string | null,
  release?: string | null,
): Promise<EntryWithTag> {
  // A release version has no ETag of its own (the entry's is answered), so it is written without If-Match.
  const res = await api<Entry>(one(type, slug), {
    method: 'PUT',
    query: { release },
    ifMatch: release ? null : etag,
    body: {
      data: Object.fromEntries(Object.entries(body.data).filter(([, v]) => v !== null && v !== undefined)),
      translations: wireTranslations(body.translations),
      slug: body.slug,
    },
  });
  return { entry: res.data, etag: res.etag };
}

/** publish / unpublish / archive / schedule: answers the new ETag (data is null, D23). */
export async function changeState(type: string, slug: string, verb: StateVerb, etag: string | null, publishAt?: string): Promise<string | null> {
  const res = await api<unknown>(`${one(type, slug)}/${verb}`, {
    method: 'PATCH',
    ifMatch: etag,
    body: verb === 'schedule' ? { publish_at: publishAt } : undefined,
  });
  return res.etag;
}

export async function deleteEntry(type: string, slug: string, etag: string | null): Promise<void> {
  await api<null>(one(type, slug), { method: 'DELETE', ifMatch: etag });
}

export async function duplicateEntry(type: string, slug: string): Promise<Entry> {
  return (await api<Entry>(`${one(type, slug)}/duplicate`, { method: 'POST' })).data;
}

export async function bulkAction(type: string, action: StateVerb | 'delete', ids: string[], publishAt?: string): Promise<BulkResult> {
  if (action === 'delete') return (await api<BulkResult>(`${base(type)}/bulk`, { method: 'DELETE', body: { ids } })).data;
  return (await api<BulkResult>(`${base(type)}/bulk`, { method: 'PATCH', body: { action, ids, publish_at: action === 'schedule' ? publishAt : undefined } }))
    .data;
}

export async function listVersions(type: string, slug: string, page: number): Promise<{ items: Version[]; meta: PageMeta }> {
  const res = await api<Version[], PageMeta>(`${one(type, slug)}/versions`, { query: { page, limit: 20 } });
  return { items: res.data, meta: res.meta };
}

export async function getVersion(type: string, slug: string, version: number): Promise<{ entry: Entry; meta: Version }> {
  const res = await api<Entry, Version>(`${one(type, slug)}/versions/${version}`);
  return { entry: res.data, meta: res.meta };
}

export async function restoreVersion(type: string, slug: string, version: number, etag: string | null): Promise<EntryWithTag> {
  const res = await api<Entry>(`${one(type, slug)}/versions/${version}/restore`, { method: 'POST', ifMatch: etag });
  return { entry: res.data, etag: res.etag };
}

export async function mintPreviewToken(entryId: string): Promise<{ token: string; expires_at: string }> {
  return (await api<{ token: string; expires_at: string }>('/preview-tokens', { method: 'POST', body: { entry_id: entryId } })).data;
}

export type { Member } from '../../api/types';

/** Members of the workspace (session only); an empty list when the API refuses (e.g. a key). */
export async function listMembers(): Promise<Member[]> {
  try {
    return (await api<Member[]>('/users')).data;
  } catch {
    return [];
  }
}
