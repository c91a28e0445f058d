/**
 * Tracing a working copy as stored (D140; docs/visual-editing.md): the entry a preview token names
 * (GET /public/preview) carries its default-locale values in `data` and each other locale's in its
 * translation, unresolved, so each value is traced in the locale it is stored in, by the one
 * walker (traceValue). Relation and media fields hold ids there, which are references, not
 * content, and stay as they are (unmapped).
 */
import type { FieldType } from '../content-types/model.js';
import type { Entry } from '../entries/model.js';
import { entryOrigin, jsonPath, traceValue, type Trace, type TracedField } from './source-map.js';

const REFERENCES: ReadonlySet<FieldType> = new Set<FieldType>(['relation', 'relation_list', 'media', 'media_list']);

/** `data` (stored values of one locale) at JSONPath `at`, each field of `fields` traced; other keys as they are. */
function traceStored(
  trace: Trace,
  at: string,
  item: ReturnType<typeof entryOrigin>,
  fields: ReadonlyMap<string, TracedField>,
  locale: string,
  data: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(data)) {
    const field = fields.get(name);
    out[name] = field && !REFERENCES.has(field.field_type) ? traceValue(trace, jsonPath(at, name), item, field, locale, value) : value;
  }
  return out;
}

/**
 * The working copy of `entry` (content type `type`) with its values traced: `data` in the default
 * locale at `{at}.data`, each translation in its locale at `{at}.translations[i].data` and at each
 * of `alsoAt`'s `[i].data` (GET /preview repeats the translations beside the entry).
 */
export function traceWorkingCopy(
  trace: Trace,
  entry: Entry,
  type: { slug: string; fieldsByName: ReadonlyMap<string, TracedField> },
  at: string,
  alsoAt: readonly string[] = [],
): Entry {
  const item = entryOrigin(trace, { id: entry.id, type: type.slug, slug: entry.slug });
  const fields = type.fieldsByName;
  const translations = entry.translations.map((t, i) => {
    for (const base of alsoAt) traceStored(trace, jsonPath(jsonPath(base, i), 'data'), item, fields, t.locale, t.data);
    return { ...t, data: traceStored(trace, `${at}.translations[${i}].data`, item, fields, t.locale, t.data) };
  });
  return { ...entry, data: traceStored(trace, `${at}.data`, item, fields, trace.defaultLocale, entry.data), translations };
}
