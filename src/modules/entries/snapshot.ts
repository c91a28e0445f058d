/**
 * The versioned content of an entry (docs/api.md "Working copies, publishing changes and history"
 * (D70), "History" (D72)): its default-locale `data` and its
 * translations. A version's snapshot is exactly this, stored as JSON; the published version of an
 * entry is one such snapshot. Slug, position and schedule are attributes of the entry, not
 * content (D70), so they are not part of it.
 *
 * Pure functions: the write path, the migration that created history (005) and the version
 * endpoints all build and read snapshots through them.
 */
import { isPlainObject, stableStringify } from '../../lib/json.js';
import type { Entry, EntryData, EntryTranslation } from './model.js';

export interface EntrySnapshot {
  data: EntryData;
  /** Translation records as they were (ids and times kept so a version reads back in the wire shape). */
  translations: Omit<EntryTranslation, 'entry_id'>[];
}

/** The snapshot of an entry's working copy. */
export function entrySnapshotOf(entry: Pick<Entry, 'data' | 'translations'>): EntrySnapshot {
  return {
    data: entry.data,
    translations: entry.translations.map((t) => ({ id: t.id, locale: t.locale, data: t.data, created_at: t.created_at, updated_at: t.updated_at })),
  };
}

/**
 * Text that is equal for two snapshots exactly when their content is: values by locale, without
 * record ids or times (a PUT that resends the same values changes nothing and makes no version).
 */
export function entryContentKey(s: EntrySnapshot): string {
  const tr = Object.fromEntries([...s.translations].sort((a, b) => a.locale.localeCompare(b.locale)).map((t) => [t.locale, t.data]));
  return stableStringify({ data: s.data, translations: tr });
}

/** Reads a stored snapshot (a JSON column); malformed parts read as empty. */
export function entrySnapshotFromJson(value: unknown): EntrySnapshot {
  const v = isPlainObject(value) ? value : {};
  const data = isPlainObject(v.data) ? v.data : {};
  const translations = Array.isArray(v.translations)
    ? v.translations.filter(isPlainObject).map((t) => ({
        id: Number(t.id ?? 0),
        locale: String(t.locale ?? ''),
        data: isPlainObject(t.data) ? t.data : {},
        created_at: String(t.created_at ?? ''),
        updated_at: String(t.updated_at ?? ''),
      }))
    : [];
  return { data, translations };
}
