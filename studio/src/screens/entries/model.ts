/**
 * Pure helpers of the entry editor: the editable draft of an entry, the API's error paths mapped
 * onto fields and locales, short summaries of values, the field-by-field diff of two versions,
 * and the preview URL built from the workspace's template (D46, D91).
 */
import { parseData } from '../../api/client';
import type { ContentType, Entry, Field } from '../../api/types';
import type { CfNode } from '../../richtext/types';
import type { EntryData, Translations } from './api';

export interface Draft {
  data: EntryData;
  translations: Translations;
}

/** The draft of a management entry record (D1: data and translation data are JSON strings). */
export function draftOf(entry: Pick<Entry, 'data' | 'translations'>): Draft {
  const translations: Translations = {};
  for (const t of entry.translations) translations[t.locale] = parseData(t.data);
  return { data: parseData(entry.data), translations };
}

/** Key of a field in a locale: "title@en". */
export const errorKey = (locale: string, field: string) => `${field}@${locale}`;

export interface MappedErrors {
  /** by errorKey(locale, field) */
  byField: Map<string, string>;
  /** errors that name no field of the form (shown above it) */
  other: { path: string; message: string }[];
}

/**
 * Maps the API's `errors[].path` onto the form: `body.data.<field>…` and `data.<field>` (publish,
 * schedule) to the default locale, `body.translations.<locale>.data.<field>…` (and without
 * `body.`) to that locale. Deeper paths (`data.tags.1`) land on their field.
 */
export function mapErrors(errors: { path: string; message: string }[] | null | undefined, defaultLocale: string, fieldNames: string[]): MappedErrors {
  const byField = new Map<string, string>();
  const other: { path: string; message: string }[] = [];
  for (const e of errors ?? []) {
    const parts = e.path.replace(/^body\./, '').split('.');
    let locale: string | null = null;
    let field: string | undefined;
    if (parts[0] === 'data') {
      locale = defaultLocale;
      field = parts[1];
    } else if (parts[0] === 'translations' && parts[2] === 'data') {
      locale = parts[1];
      field = parts[3];
    }
    if (locale && field && fieldNames.includes(field)) {
      const key = errorKey(locale, field);
      const rest = parts.slice(parts[0] === 'data' ? 2 : 4).join('.');
      const message = rest ? `${rest}: ${e.message}` : e.message;
      byField.set(key, byField.has(key) ? `${byField.get(key)}; ${message}` : message);
    } else other.push(e);
  }
  return { byField, other };
}

function richTextPlain(node: CfNode): string {
  if (node.nodeType === 'text') return node.value ?? '';
  if (node.nodeType.startsWith('embedded-')) return '[embedded]';
  return (node.content ?? []).map(richTextPlain).join(node.nodeType === 'document' ? ' ' : '');
}

/** The title of an entry or asset id, when known (relation and media values are ids). */
export type IdNamer = (id: string) => string | undefined;

/** A one-line, human form of a value for hints and diffs ("—" for no value); ids named by `nameOf`. */
export function summarize(field: Pick<Field, 'field_type'>, value: unknown, max = 120, nameOf: IdNamer = () => undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  let text: string;
  switch (field.field_type) {
    case 'rich_text':
      text = typeof value === 'object' ? richTextPlain(value as CfNode).trim() || '(empty document)' : String(value);
      break;
    case 'boolean':
      text = value === true ? 'yes' : 'no';
      break;
    case 'multi_select':
    case 'tags':
      text = Array.isArray(value) ? value.join(', ') : String(value);
      break;
    case 'media':
    case 'relation':
      text = typeof value === 'string' ? (nameOf(value) ?? value) : String(value);
      break;
    case 'media_list':
    case 'relation_list':
      text = Array.isArray(value)
        ? `${value.length} item${value.length === 1 ? '' : 's'}: ${value.map((id) => nameOf(String(id)) ?? String(id)).join(', ')}`
        : String(value);
      break;
    case 'json':
      text = JSON.stringify(value);
      break;
    default:
      text = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Structural equality of two JSON values. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if ((a === null || a === undefined) && (b === null || b === undefined)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

export interface DiffRow {
  locale: string;
  field: string;
  label: string;
  kind: 'added' | 'removed' | 'changed';
  /** the version's value, summarized */
  before: string;
  /** the current working copy's value, summarized */
  after: string;
}

/**
 * Field-by-field differences between a version (`before`) and the current working copy
 * (`after`): the default locale's data, then each other locale's localizable fields.
 */
export function diffDrafts(
  fields: Field[],
  locales: string[],
  defaultLocale: string,
  before: Draft,
  after: Draft,
  nameOf: IdNamer = () => undefined,
): DiffRow[] {
  const rows: DiffRow[] = [];
  const compare = (locale: string, b: EntryData, a: EntryData, onlyLocalizable: boolean) => {
    for (const f of fields) {
      if (onlyLocalizable && !f.localizable) continue;
      const x = b[f.name];
      const y = a[f.name];
      if (sameValue(x, y)) continue;
      const none = (v: unknown) => v === null || v === undefined || v === '';
      rows.push({
        locale,
        field: f.name,
        label: f.label,
        kind: none(x) ? 'added' : none(y) ? 'removed' : 'changed',
        before: summarize(f, x, 120, nameOf),
        after: summarize(f, y, 120, nameOf),
      });
    }
  };
  compare(defaultLocale, before.data, after.data, false);
  for (const locale of locales) if (locale !== defaultLocale) compare(locale, before.translations[locale] ?? {}, after.translations[locale] ?? {}, true);
  return rows;
}

/** The title of an entry: its display field's value (default locale), else its slug. */
export function displayValue(entry: Pick<Entry, 'data' | 'slug'>, ct: Pick<ContentType, 'display_field'>): string {
  const v = ct.display_field ? parseData(entry.data)[ct.display_field] : null;
  return typeof v === 'string' && v.trim() ? v : entry.slug;
}

/** Every relation and media id held by the drafts' fields, split by kind. */
export function referencedIds(fields: Field[], drafts: Draft[]): { entries: string[]; media: string[] } {
  const entries = new Set<string>();
  const media = new Set<string>();
  for (const d of drafts) {
    for (const data of [d.data, ...Object.values(d.translations)]) {
      for (const f of fields) {
        const v = data[f.name];
        const ids = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
        if (f.field_type === 'relation' || f.field_type === 'relation_list') ids.forEach((id) => entries.add(String(id)));
        if (f.field_type === 'media' || f.field_type === 'media_list') ids.forEach((id) => media.add(String(id)));
      }
    }
  }
  return { entries: [...entries], media: [...media] };
}
