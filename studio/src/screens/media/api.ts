/**
 * The media library's calls to the management API (docs/api.md "Media (management)"): the list
 * through the field sources' `listMedia` (so the library and the pickers page, search and filter
 * alike), one asset, its update (PUT: name, title, description, alt text, folder, focal point), its usage (entries and
 * pages naming it) and its deletion.
 */
import type { Static } from '@sinclair/typebox';
import { api } from '../../api/client';
import type { MediaAsset } from '../../api/types';
import type { MediaUsageSchema } from '../../../../src/http/schemas/media.js';

/** GET /media/{id}/usage: `{entries: [{id, content_type, slug, title?}], pages: [{id, slug, title}]}`. */
export type MediaUsage = Static<typeof MediaUsageSchema>;

/** What PUT /media/{id} changes (absent keys stay). */
export interface MediaChanges {
  original_name?: string;
  alt_text?: string | null;
  title?: string | null;
  description?: string | null;
  folder?: string | null;
  focal_x?: number | null;
  focal_y?: number | null;
}

export async function getAsset(id: string): Promise<MediaAsset> {
  return (await api<MediaAsset>(`/media/${encodeURIComponent(id)}`)).data;
}

export async function updateAsset(id: string, changes: MediaChanges): Promise<MediaAsset> {
  return (await api<MediaAsset>(`/media/${encodeURIComponent(id)}`, { method: 'PUT', body: changes })).data;
}

export async function assetUsage(id: string): Promise<MediaUsage> {
  return (await api<MediaUsage>(`/media/${encodeURIComponent(id)}/usage`)).data;
}

export async function deleteAsset(id: string): Promise<void> {
  await api<null>(`/media/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
