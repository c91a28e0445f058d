/**
 * Frozen copy of the comparison migration 024 runs to recompute `has_pending_changes`: reading a
 * stored version snapshot of an entry or a page, and the text that is equal for two snapshots
 * exactly when their content is (src/lib/json.ts stableStringify, src/modules/entries/snapshot.ts
 * entrySnapshotFromJson and entryContentKey, src/modules/pages/snapshot.ts pageSnapshotFromJson
 * and pageContentKey), exactly as they were when the migration was written. The SEO readers are
 * those frozen for migration 005, unchanged since.
 *
 * Never edited: a migration must do the same thing on every database it ever runs on, whatever
 * the live code later becomes (src/db/migrate.ts explains the rule).
 */
import { fromJsonColumn, isPlainObject, pickSeo, seoFromColumn } from './005-snapshots.js';

function sortedKeys(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = value[key];
  return out;
}

/** JSON.stringify with the keys of every object sorted (code-point order, at every level). */
function stableStringify(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (isPlainObject(v) ? sortedKeys(v) : v)) ?? 'null';
}

const objectOr = (x: unknown): Record<string, unknown> => (isPlainObject(x) ? x : {});
const listOf = (x: unknown): Record<string, unknown>[] => (Array.isArray(x) ? x.filter(isPlainObject) : []);

/** The content key of a stored entry snapshot: data and translations by locale, no ids or times. */
export function entryContentKeyOf(stored: unknown): string {
  const v = objectOr(fromJsonColumn<unknown>(stored, {}));
  const translations = listOf(v.translations).map((t) => ({ locale: String(t.locale ?? ''), data: objectOr(t.data) }));
  const tr = Object.fromEntries(translations.sort((a, b) => a.locale.localeCompare(b.locale)).map((t) => [t.locale, t.data]));
  return stableStringify({ data: objectOr(v.data), translations: tr });
}

/** The content key of a stored page snapshot: SEO, SEO translations, blocks and block translations, no translation ids or type slugs. */
export function pageContentKeyOf(stored: unknown): string {
  const v = objectOr(fromJsonColumn<unknown>(stored, {}));
  const blocks = listOf(v.blocks)
    .map((b) => ({
      id: String(b.id),
      t: String(b.block_type_id),
      p: typeof b.parent_id === 'string' ? b.parent_id : null,
      i: Number(b.position ?? 0),
      d: objectOr(b.data),
    }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const seoTr = Object.fromEntries(listOf(v.seo_translations).map((t) => [String(t.locale ?? ''), pickSeo(objectOr(t.seo))]));
  const blockTr = Object.fromEntries(listOf(v.block_translations).map((t) => [`${String(t.block_id)}:${String(t.locale ?? '')}`, objectOr(t.data)]));
  return stableStringify({ seo: seoFromColumn(v.seo ?? {}), seoTr, blocks, blockTr });
}
