/**
 * Entries on the management wire (docs/api.md "Entries", "Wire format" (D1, D6), "Working
 * copies, publishing changes and history" (D70), "History" (D72)): `data` and
 * translation `data` JSON-encoded, `translations` an array, the working-copy state beside the
 * publication columns. The types are those of the response schemas, so what a route returns is
 * what its OpenAPI document says.
 */
import type { Static } from '@sinclair/typebox';
import type { Entry, EntryTranslation } from '../../modules/entries/model.js';
import type { EntrySchema, EntryTranslationSchema } from '../schemas/entries.js';
import { stableStringify } from '../../lib/json.js';

export type WireEntry = Static<typeof EntrySchema>;
export type WireEntryTranslation = Static<typeof EntryTranslationSchema>;

export function toWireTranslation(t: EntryTranslation): WireEntryTranslation {
  return { id: t.id, entry_id: t.entry_id, locale: t.locale, data: stableStringify(t.data), created_at: t.created_at, updated_at: t.updated_at };
}

/** An entry's working copy as management responses (and preview) show it. */
export function toWireEntry(entry: Entry): WireEntry {
  return {
    id: entry.id,
    content_type_id: entry.content_type_id,
    workspace_id: entry.workspace_id,
    slug: entry.slug,
    status: entry.status,
    data: stableStringify(entry.data),
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
