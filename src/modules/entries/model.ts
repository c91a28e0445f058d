/**
 * Entries as Quire keeps them and as the management API shows them (docs/api.md "Entries",
 * docs/api.md "Wire format" (D1, D6)).
 *
 * Internally `data` and translation `data` are parsed objects; on the wire (src/http/wire/entries.ts) they are
 * JSON-encoded strings and `translations` is an array of entry translation records. `version`
 * counts writes and feeds the ETag (D5); it is not part of the wire shape.
 */
import type { ItemRecord } from '../publishing/item.js';

export type EntryData = Record<string, unknown>;

export interface EntryTranslation {
  /** Integer id (docs/api.md "Wire format": ids of translation records are integers). */
  id: number;
  entry_id: string;
  locale: string;
  data: EntryData;
  created_at: string;
  updated_at: string;
}

/** An entry: the columns every item has (ItemRecord) plus its content type and working copy. */
export interface Entry extends ItemRecord {
  content_type_id: string;
  /** The working copy's default-locale values. */
  data: EntryData;
  translations: EntryTranslation[];
}

/** Bulk results (docs/api.md "PATCH /api/v1/manage/content-types/{slug}/entries/bulk", D23): each id succeeded (reason null) or failed with a reason. */
export interface BulkResult {
  succeeded: { id: string; reason: null }[];
  failed: { id: string; reason: string }[];
}
