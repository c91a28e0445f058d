/**
 * Where pickers find entries and media: the entry editor provides an implementation backed by
 * the management API (api-sources.ts), component tests provide a fake. Widgets read it with
 * useFieldSources().
 */
import { createContext, useContext } from 'react';
import type { AssetKind } from '../../../src/modules/media/kinds.js';

/** An entry as pickers show it. */
export interface EntrySummary {
  id: string;
  slug: string;
  /** content type slug */
  type: string;
  /** the display field's value, or the slug */
  label: string;
  status: string;
}

/** A media asset as pickers show it. */
export interface MediaSummary {
  id: string;
  url: string;
  /** a small image for the picker (a transform of the original), or null when not an image */
  thumbnailUrl: string | null;
  /** alt text or original file name */
  label: string;
  mimeType: string;
  /** the file name people see (original_name), when known */
  name?: string;
  /** folder path, null for the root, when known */
  folder?: string | null;
  /** bytes, when known */
  size?: number;
  width?: number | null;
  height?: number | null;
  createdAt?: string;
}

/** The media kinds the library filters by (GET /media `type`; the server's src/modules/media/kinds.ts). */
export type MediaKind = AssetKind;

/** Narrowing of a media list: name/alt-text search and folder (undefined: all; '': the root). */
export interface MediaListFilter {
  search?: string;
  folder?: string;
  /** only assets without alt text (GET /media?missing_alt=true) */
  missingAlt?: boolean;
}

/** A folder holding assets and how many are directly in it (GET /media/folders). */
export interface MediaFolder {
  folder: string;
  count: number;
}

export interface FieldSources {
  /** entries of `types` (every entry type when empty) whose display value or slug holds `search` */
  searchEntries(types: string[], search: string): Promise<EntrySummary[]>;
  /** the entries among `ids` it can find (of `types`, every type when empty) */
  entriesByIds(ids: string[], types: string[]): Promise<EntrySummary[]>;
  /** media, newest first, `page` from 1, optionally of one kind or of any of several, searched and in one folder */
  listMedia(page: number, type?: MediaKind | readonly MediaKind[], filter?: MediaListFilter): Promise<{ items: MediaSummary[]; hasMore: boolean }>;
  /** the folders holding media; absent: pickers offer no folder filter */
  mediaFolders?: () => Promise<MediaFolder[]>;
  mediaByIds(ids: string[]): Promise<MediaSummary[]>;
  /**
   * Uploads `file` to the library (POST /media/upload); refusals (413, 415, 400) as ApiError.
   * Absent when the person may not upload (no media:write), so pickers offer no upload.
   */
  uploadMedia?: (file: File, altText?: string) => Promise<MediaSummary>;
}

export const FieldSourcesContext = createContext<FieldSources | null>(null);

export function useFieldSources(): FieldSources {
  const sources = useContext(FieldSourcesContext);
  if (!sources) throw new Error('useFieldSources() outside a FieldSourcesContext provider');
  return sources;
}
