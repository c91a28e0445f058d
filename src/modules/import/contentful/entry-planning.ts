/**
 * Planning the entry writes of a Contentful import (content-writer.ts runs them): the order that
 * puts link targets first, the state action that brings an entry to its export state, and the
 * content a write sends (the planned values, less the links to entries that do not exist yet),
 * and how many entries of the export hold each unique value. Pure functions.
 */
import { comparableValue } from '../../../db/dialect.js';
import { stableStringify } from '../../../lib/json.js';
import type { Entry, EntryData } from '../../entries/model.js';
import { entryContentKey, entrySnapshotFromJson } from '../../entries/snapshot.js';
import { fieldValue } from '../../entries/validation.js';
import type { PlannedEntry } from './content-mapping.js';
import type { PlannedContentType } from './schema-mapping.js';
import type { CfState, TargetStatus } from './states.js';

/** What the writer keeps of a planned entry between reading it and writing it (no values). */
export interface EntrySummary {
  id: string;
  cfId: string;
  typeSlug: string;
  state: CfState;
  /** Ids of the entries it links in relation fields. */
  references: readonly string[];
}

/**
 * Entries ordered so that link targets come before the entries linking to them (depth-first,
 * iterative; a cycle is cut where it closes, and the second pass completes it).
 */
export function dependencyOrder<T extends { id: string; references: readonly string[] }>(entries: readonly T[]): T[] {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const state = new Map<string, 'open' | 'done'>();
  const out: T[] = [];
  for (const root of entries) {
    if (state.has(root.id)) continue;
    const stack: { entry: T; next: number }[] = [{ entry: root, next: 0 }];
    state.set(root.id, 'open');
    while (stack.length) {
      const top = stack[stack.length - 1];
      const ref = top.entry.references[top.next++];
      if (ref === undefined) {
        stack.pop();
        state.set(top.entry.id, 'done');
        out.push(top.entry);
        continue;
      }
      const target = byId.get(ref);
      if (target && !state.has(ref)) {
        state.set(ref, 'open');
        stack.push({ entry: target, next: 0 });
      }
    }
  }
  return out;
}

/** The past tense of a state action, as the import's counts name it. */
export const ACTION_PAST = { publish: 'published', unpublish: 'unpublished', archive: 'archived' } as const;

/** The state action that brings an item of stored `status` to `want`, or null (nothing, or nothing possible). */
export function stateAction(status: string | null, pending: boolean, want: TargetStatus): 'publish' | 'unpublish' | 'archive' | null {
  if (want === 'published') return status !== 'published' || pending ? 'publish' : null;
  if (want === 'archived') return status !== 'archived' ? 'archive' : null;
  // A draft in the export: a published item is taken down (an entry unpublished in Contentful
  // since the last import). A schedule set in Quire is Quire's own plan and stays.
  return status === 'published' ? 'unpublish' : null;
}

function translationsOf(entry: Entry): Record<string, string> {
  return Object.fromEntries(entry.translations.map((t) => [t.locale, stableStringify(t.data)]));
}

/** True when the stored entry already holds the planned slug, data and translations. */
export function sameContent(stored: Entry, planned: PlannedEntry, slug: string): boolean {
  if (stored.slug !== slug || stableStringify(stored.data) !== stableStringify(planned.data)) return false;
  const have = translationsOf(stored);
  const want = Object.fromEntries(Object.entries(planned.translations).map(([l, d]) => [l, stableStringify(d)]));
  return stableStringify(have) === stableStringify(want);
}

/**
 * True when the last import of an entry wrote what the export plans for it now: `record` (its
 * newest `import` version, import/repository.ts) holds the planned data and translations and
 * recorded the status `want`. The export has then not changed the entry since, and whatever Quire
 * holds now is editors' work the import leaves alone (issue 23). The slug is no part of a version
 * (docs/api.md "Working copies, publishing changes and history" (D70)); a planned slug follows the
 * entry's data (baseSlug), which is compared.
 */
export function sameAsLastImport(record: { status: string; snapshot: unknown }, planned: PlannedEntry, want: TargetStatus): boolean {
  if (record.status !== want) return false;
  const translations = Object.entries(planned.translations).map(([locale, data]) => ({ id: 0, locale, data, created_at: '', updated_at: '' }));
  return entryContentKey(entrySnapshotFromJson(record.snapshot)) === entryContentKey({ data: planned.data, translations });
}

/** Removes the values of relation fields that point at any of `missing`. */
function withoutLinks(data: EntryData, relationFields: ReadonlySet<string>, missing: ReadonlySet<string>): EntryData {
  const out: EntryData = {};
  for (const [k, v] of Object.entries(data)) {
    const linksMissing = relationFields.has(k) && (Array.isArray(v) ? v.some((id) => missing.has(id as string)) : missing.has(v as string));
    if (!linksMissing) out[k] = v;
  }
  return out;
}

/** The content a write of `planned` sends: slug, data and translations, without the relation fields that link any of `missing`. */
export function contentInput(planned: PlannedEntry, slug: string, relationFields: ReadonlySet<string>, missing: ReadonlySet<string>) {
  const strip = (d: EntryData) => (missing.size ? withoutLinks(d, relationFields, missing) : d);
  return {
    slug,
    data: strip(planned.data),
    translations: Object.entries(planned.translations).map(([locale, data]) => ({ locale, data: strip(data) })),
  };
}

export type ContentInput = ReturnType<typeof contentInput>;

/** FNV-1a over the UTF-16 code units of `text`, from `seed`: a 32-bit unsigned hash. */
function fnv1a(text: string, seed: number): number {
  let h = seed;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * How many entries of an export hold each value of a unique field in their data, counted while
 * planning (a value as the database compares it: a datetime by its instant, as the import's
 * unique checks do). The writer relies on a count of one: no other entry of the export can take
 * that value first. Values are kept as 53-bit hashes, so memory grows with the number of values
 * and not their length; two values sharing a hash count together, which can only make a count
 * too high.
 */
export class UniqueValueCounts {
  private readonly counts = new Map<number, number>();

  private key(typeSlug: string, field: { name: string; field_type: string }, value: unknown): number {
    const v = comparableValue(field.field_type, value);
    const text = `${typeSlug}\u0000${field.name}\u0000${typeof v}\u0000${String(v)}`;
    return fnv1a(text, 0x811c9dc5) * 0x200000 + (fnv1a(text, 0x01000193) & 0x1fffff);
  }

  /** Counts the values planned entry `p` of type `ct` holds in the type's unique fields. */
  add(p: PlannedEntry, ct: PlannedContentType): void {
    for (const field of ct.fields) {
      if (!field.input.is_unique) continue;
      const value = fieldValue(p.data, field.input.name);
      if (value === undefined || value === null) continue;
      const key = this.key(ct.slug, field.input, value);
      this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    }
  }

  /** How many planned entries of type `typeSlug` hold `value` in unique field `field` (0: none counted). */
  count(typeSlug: string, field: { name: string; field_type: string }, value: unknown): number {
    return this.counts.get(this.key(typeSlug, field, value)) ?? 0;
  }
}
