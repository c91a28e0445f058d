/**
 * FieldSources backed by the management API: entries through GET /content-types/{slug}/entries
 * (`search` on the display field or slug), media through GET /media and GET /media/{id}, uploads
 * through POST /media/upload (the client names the workspace with X-Workspace-ID). Labels
 * come from each type's display field. The management API reads entries by slug only, so entries
 * named by id are found among the 100 most recently updated of each allowed type.
 */
import { api, parseData } from '../api/client';
import type { ContentType, Entry, MediaAsset } from '../api/types';
import type { EntrySummary, FieldSources, MediaFolder, MediaKind, MediaSummary } from './sources';

/** The display value of an entry (its type's display field, default locale), else its slug. */
export function entryLabel(entry: Pick<Entry, 'data' | 'slug'>, displayField: string | null | undefined): string {
  if (!displayField) return entry.slug;
  const value = parseData(entry.data)[displayField];
  return typeof value === 'string' && value.trim() ? value : entry.slug;
}

/** A thumbnail URL of an image asset (the server's on-the-fly transform), null for others. */
export function thumbnailOf(asset: Pick<MediaAsset, 'url' | 'mime_type'>, size = 128): string | null {
  if (!asset.mime_type.startsWith('image/')) return null;
  if (asset.mime_type === 'image/svg+xml') return asset.url;
  return `${asset.url}?w=${size}&h=${size}&fit=cover`;
}

export function mediaSummary(asset: MediaAsset): MediaSummary {
  return {
    id: asset.id,
    url: asset.url,
    thumbnailUrl: thumbnailOf(asset),
    label: asset.alt_text || asset.original_name || asset.filename,
    mimeType: asset.mime_type,
    name: asset.original_name || asset.filename,
    folder: asset.folder,
    size: asset.size,
    width: asset.width,
    height: asset.height,
    createdAt: asset.created_at,
  };
}

/**
 * The path of a GET /media page. Built here rather than through the client's `query`, which drops
 * empty values: `folder=` (empty) asks for the root folder.
 */
export function mediaListPath(q: {
  page: number;
  limit: number;
  type?: MediaKind | readonly MediaKind[];
  search?: string;
  folder?: string;
  missingAlt?: boolean;
}): string {
  const qs = new URLSearchParams({ page: String(q.page), limit: String(q.limit) });
  const type = typeof q.type === 'string' ? q.type : q.type?.join(',');
  if (type) qs.set('type', type);
  if (q.search?.trim()) qs.set('search', q.search.trim());
  if (q.folder !== undefined) qs.set('folder', q.folder);
  if (q.missingAlt) qs.set('missing_alt', 'true');
  return `/media?${qs.toString()}`;
}

async function entryTypes(): Promise<ContentType[]> {
  const res = await api<ContentType[]>('/content-types', { query: { is_block: false, limit: 100 } });
  return res.data;
}

async function listOfType(type: string, search: string, limit: number): Promise<Entry[]> {
  return (await api<Entry[]>(`/content-types/${encodeURIComponent(type)}/entries`, { query: { limit, sort: 'updated_at:desc', search: search || undefined } }))
    .data;
}

/** Sources for the entry editor; `canUpload` (the role has media:write) adds uploadMedia. */
export function apiFieldSources({ canUpload = false }: { canUpload?: boolean } = {}): FieldSources {
  let typesPromise: Promise<ContentType[]> | null = null;
  const types = () => (typesPromise ??= entryTypes());
  const summaries = async (wanted: string[], search: string, limit: number): Promise<EntrySummary[]> => {
    const all = await types();
    const chosen = wanted.length ? all.filter((t) => wanted.includes(t.slug)) : all;
    const lists = await Promise.all(
      chosen.map(async (t) =>
        (await listOfType(t.slug, search, limit)).map((e) => ({
          id: e.id,
          slug: e.slug,
          type: t.slug,
          label: entryLabel(e, t.display_field),
          status: e.status,
        })),
      ),
    );
    return lists.flat();
  };
  return {
    searchEntries: (wanted, search) => summaries(wanted, search.trim(), 20),
    entriesByIds: async (ids, wanted) => {
      if (!ids.length) return [];
      const found = await summaries(wanted, '', 100);
      return found.filter((e) => ids.includes(e.id));
    },
    listMedia: async (page, type, filter = {}) => {
      const res = await api<MediaAsset[], { total_pages?: number; current_page?: number }>(mediaListPath({ page, limit: 24, type, ...filter }));
      return { items: res.data.map(mediaSummary), hasMore: (res.meta?.current_page ?? page) < (res.meta?.total_pages ?? page) };
    },
    mediaFolders: async () => (await api<MediaFolder[]>('/media/folders')).data,
    mediaByIds: async (ids) => {
      const found = await Promise.all(
        ids.map((id) =>
          api<MediaAsset>(`/media/${id}`).then(
            (r) => mediaSummary(r.data),
            () => null,
          ),
        ),
      );
      return found.filter((m): m is MediaSummary => m !== null);
    },
    uploadMedia: canUpload
      ? async (file, altText) => {
          const form = new FormData();
          form.append('file', file, file.name);
          if (altText?.trim()) form.append('alt_text', altText.trim());
          return mediaSummary((await api<MediaAsset>('/media/upload', { method: 'POST', form })).data);
        }
      : undefined,
  };
}
