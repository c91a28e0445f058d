/**
 * Entries as Quire keeps them and as the management API shows them (api.md "Entry",
 * DECISIONS.md D1, D6).
 *
 * Internally `data` and translation `data` are parsed objects; on the wire (toWireEntry) they are
 * JSON-encoded strings and `translations` is an array of entry translation records. `version`
 * counts writes and feeds the ETag (D5); it is not part of the wire shape.
 */
import type { Status } from '../publishing/states.js';

export type EntryData = Record<string, unknown>;

export interface EntryTranslation {
  /** Integer id (api.md: ids of translation records are integers). */
  id: number;
  entry_id: string;
  locale: string;
  data: EntryData;
  created_at: string;
  updated_at: string;
}

export interface Entry {
  id: string;
  workspace_id: string;
  content_type_id: string;
  slug: string;
  status: Status;
  data: EntryData;
  translations: EntryTranslation[];
  position: number;
  publish_at: string | null;
  published_at: string | null;
  version: number;
  created_at: string;
  updated_at: string;
  created_by: number | null;
  updated_by: number | null;
  /** Who made the published version; production readers see it as `updated_by` (D70). */
  published_by: number | null;
  /** The history version production readers see; null when not published (D72). */
  published_version: number | null;
  /** The newest history version (its snapshot is the working copy). */
  latest_version: number;
  /** The working copy differs from the published version (D70). */
  has_pending_changes: boolean;
}

export interface WireEntryTranslation {
  id: number;
  entry_id: string;
  locale: string;
  /** JSON-encoded object (D1). */
  data: string;
  created_at: string;
  updated_at: string;
}

/** The management wire shape of an entry (D1, D6). */
export interface WireEntry {
  id: string;
  content_type_id: string;
  workspace_id: string;
  slug: string;
  status: Status;
  /** JSON-encoded object of default-locale values (D1). */
  data: string;
  translations: WireEntryTranslation[];
  position: number;
  publish_at: string | null;
  published_at: string | null;
  created_at: string;
  updated_at: string;
  created_by: number | null;
  updated_by: number | null;
  has_pending_changes: boolean;
  published_version: number | null;
}

export function toWireTranslation(t: EntryTranslation): WireEntryTranslation {
  return { id: t.id, entry_id: t.entry_id, locale: t.locale, data: JSON.stringify(t.data), created_at: t.created_at, updated_at: t.updated_at };
}

/** Serializes an entry for management responses: data as a JSON string, translations as an array. */
export function toWireEntry(entry: Entry): WireEntry {
  return {
    id: entry.id,
    content_type_id: entry.content_type_id,
    workspace_id: entry.workspace_id,
    slug: entry.slug,
    status: entry.status,
    data: JSON.stringify(entry.data),
    translations: entry.translations.map(toWireTranslation),
    position: entry.position,
    publish_at: entry.publish_at,
    published_at: entry.published_at,
    created_at: entry.created_at,
    updated_at: entry.updated_at,
    created_by: entry.created_by,
    updated_by: entry.updated_by,
    has_pending_changes: entry.has_pending_changes,
    published_version: entry.published_version,
  };
}

/** Bulk results (api.md "bulk", D23): each id succeeded (reason null) or failed with a reason. */
export interface BulkResult {
  succeeded: { id: string; reason: null }[];
  failed: { id: string; reason: string }[];
}
