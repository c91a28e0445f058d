/**
 * Contentful content model → Quire content types and fields (issue 2 item 10; docs/api.md "Fields"
 * (D30, D31); docs/cli.md "The `quire` command line" (D61)). Pure functions: no database, so the
 * mapping can be tested and extended (a
 * later step maps the `page` type to Quire pages) apart from the writing.
 *
 * | Contentful                    | Quire                                                      |
 * |-------------------------------|------------------------------------------------------------|
 * | content type id `componentHeroBanner` | slug `component-hero-banner` (kebab-case, unique)  |
 * | name, description, displayField | name, description, display_field                         |
 * | Symbol / Text / RichText      | text / textarea / rich_text                                |
 * | Symbol with an `in` validation | select (options: the `in` values)                         |
 * | Integer / Number / Boolean    | integer / number / boolean                                 |
 * | Date                          | date when every value is a calendar date, else datetime    |
 * |                               | (offset kept; no zone: read as UTC, with a warning)        |
 * | Object, Location              | json                                                       |
 * | Link Entry / Link Asset       | relation (options: linkContentType as slugs) / media       |
 * | Array of Symbol with `in`     | multi_select (options: the items' `in` values)             |
 * | Array of Symbol               | tags (a free list of strings)                              |
 * | Array of Link Entry / Asset   | relation_list (options as above) / media_list              |
 * | localized, required, unique   | localizable, required, is_unique                           |
 *
 * Field names keep the Contentful id when it satisfies `^[a-z][a-zA-Z0-9_]{0,63}$` (D31) and are
 * renamed by a fixed rule otherwise (fieldNameFor; every rename is listed in the plan).
 * Validations map as validation-mapping.ts says. Fields of any other type (e.g. ResourceLink) are
 * skipped with a warning.
 */
import { slugify } from '../../../lib/slugs.js';
import type { FieldInput } from '../../content-types/fields.js';
import { FIELD_NAME_PATTERN, type FieldType } from '../../content-types/model.js';
import { isZonelessDate } from './content-mapping.js';
import type { CfContentType, CfEntry, CfField, CfValidation } from './export.js';
import { mapValidations } from './validation-mapping.js';

/** A Quire field planned from a Contentful field. */
export interface PlannedField {
  /** The Contentful field id (key of entry `fields`). */
  cfId: string;
  /** The Contentful field type, e.g. `Symbol` or `Array<Link:Entry>` (for value mapping). */
  cfType: string;
  input: FieldInput & { field_type: FieldType };
}

export interface PlannedContentType {
  cfId: string;
  slug: string;
  name: string;
  description: string | null;
  display_field: string | null;
  fields: PlannedField[];
  /** Name of the Quire field holding the entry slug (the Contentful field `slug`), if any. */
  slugField: string | null;
  /** A block type (page components, see page-mapping.ts); absent means an entry type. */
  is_block?: boolean;
}

/** Field types whose values Quire can hold unique (mirrors the content-types rule). */
const UNIQUE_CAPABLE = new Set<FieldType>(['text', 'integer', 'number', 'datetime']);
const MAX_LABEL = 200;
const MAX_OPTION = 200;

/** `Symbol`, `Link:Entry`, `Array<Symbol>`, `Array<Link:Asset>` … */
export function cfTypeName(field: Pick<CfField, 'type' | 'linkType' | 'items'>): string {
  const base = (t: string, link?: string) => (t === 'Link' ? `Link:${link ?? '?'}` : t);
  if (field.type === 'Array') return `Array<${field.items ? base(field.items.type, field.items.linkType) : '?'}>`;
  return base(field.type, field.linkType);
}

const TYPE_MAP: Record<string, FieldType> = {
  Symbol: 'text',
  Text: 'textarea',
  RichText: 'rich_text',
  Integer: 'integer',
  Number: 'number',
  Boolean: 'boolean',
  Date: 'datetime',
  Object: 'json',
  Location: 'json',
  'Link:Entry': 'relation',
  'Link:Asset': 'media',
  'Array<Symbol>': 'multi_select',
  'Array<Link:Entry>': 'relation_list',
  'Array<Link:Asset>': 'media_list',
};

/** The Quire field type of a Contentful field, or null when Quire has none. */
export function quireFieldType(field: Pick<CfField, 'type' | 'linkType' | 'items'>): FieldType | null {
  return TYPE_MAP[cfTypeName(field)] ?? null;
}

/** Kebab-case slug of a Contentful content type id: `componentHeroBanner` → `component-hero-banner`. */
export function contentTypeSlug(cfId: string): string {
  return slugify(cfId) || 'content-type';
}

/**
 * A D31 field name for a Contentful field id, different from every name in `used` (which it
 * joins). Ids that already qualify are kept. Otherwise (documented in docs/cli.md): a leading
 * run of capitals is lowercased as one word (`SEOTitle` → `seoTitle`, `URL` → `url`, `Body` →
 * `body`), every character other than a letter, digit or `_` becomes `_` (`tag-list` →
 * `tag_list`), a name not starting with a letter gets `f_` in front, names are cut to 64
 * characters, and a name already taken gets `_2`, `_3` ….
 */
export function fieldNameFor(cfId: string, used: Set<string>): string {
  let name = cfId;
  if (!FIELD_NAME_PATTERN.test(name)) {
    name = cfId.replace(/[^a-zA-Z0-9_]/g, '_');
    const caps = /^[A-Z]+/.exec(name)?.[0] ?? '';
    // `SEOTitle`: the capital before a lower-case letter starts the next word and stays.
    const word = caps.length > 1 && /[a-z]/.test(name[caps.length] ?? '') ? caps.slice(0, -1) : caps;
    name = word.toLowerCase() + name.slice(word.length);
    if (!/^[a-z]/.test(name)) name = `f_${name}`;
    name = name.slice(0, 64);
  }
  let candidate = name;
  for (let n = 2; used.has(candidate); n++) candidate = `${name.slice(0, 64 - String(n).length - 1)}_${n}`;
  used.add(candidate);
  return candidate;
}

function validationsOf(field: CfField): CfValidation[] {
  const own = field.type === 'Array' ? field.items?.validations : field.validations;
  return Array.isArray(own) ? own : [];
}

/** The `linkContentType` list of a link field's validations (empty when unrestricted). */
function linkContentTypes(field: CfField): string[] {
  for (const v of validationsOf(field)) if (Array.isArray(v.linkContentType)) return v.linkContentType.filter((x): x is string => typeof x === 'string');
  return [];
}

/** The values an `in` validation allows, if any. */
function allowedValues(field: CfField): string[] | null {
  for (const v of validationsOf(field)) if (Array.isArray(v.in)) return v.in.filter((x): x is string => typeof x === 'string');
  return null;
}

/** A Contentful field id that is not a valid Quire field name, and the name it got. */
export interface FieldRename {
  content_type: string;
  from: string;
  to: string;
}

export interface SchemaPlan {
  contentTypes: PlannedContentType[];
  /** Contentful content type id → Quire slug. */
  slugs: Map<string, string>;
  /** Every field whose Quire name differs from its Contentful id. */
  renames: FieldRename[];
  warnings: string[];
}

/** What planSchema reads: the content types, and the entries (their Date values decide date or datetime). */
export interface SchemaInput {
  contentTypes: CfContentType[];
  /** Entries in any order; only those of types with Date fields matter. Read once. */
  entries: Iterable<CfEntry>;
}

/**
 * Plans every content type of the export. Slugs are unique: two ids with one kebab-case form
 * get `-2`, `-3` … in export order, so the plan is the same on every run.
 */
export function planSchema(exp: SchemaInput): SchemaPlan {
  const slugs = new Map<string, string>();
  const usedSlugs = new Set<string>();
  for (const ct of exp.contentTypes) {
    const base = contentTypeSlug(ct.sys.id);
    let slug = base;
    for (let n = 2; usedSlugs.has(slug); n++) slug = `${base}-${n}`;
    usedSlugs.add(slug);
    slugs.set(ct.sys.id, slug);
  }
  const warnings: string[] = [];
  const renames: FieldRename[] = [];
  const dates = scanDates(exp);
  const contentTypes = exp.contentTypes.map((ct) => planContentType(dates, ct, slugs, warnings, renames));
  return { contentTypes, slugs, renames, warnings };
}

const dateKey = (ctId: string, fieldId: string) => `${ctId}\u0000${fieldId}`;

/** Content type ids that have Date fields (their entries are all scanDates reads). */
export function typesWithDates(contentTypes: readonly CfContentType[]): Set<string> {
  return new Set(contentTypes.filter((ct) => ct.fields.some((f) => f.type === 'Date')).map((ct) => ct.sys.id));
}

/** What one pass over the entries tells about the Date fields (keys `ctId\0fieldId`). */
interface DateScan {
  /** The fields whose every value is a date without a time, with at least one value. */
  dateOnly: Set<string>;
  /** Per field, the values without a zone (read as UTC if the field is a datetime): how many, and the first. */
  zoneless: Map<string, { count: number; entry: string; value: string }>;
}

/** Reads every Date value of the export once (see DateScan). */
function scanDates(exp: SchemaInput): DateScan {
  const dateFields = new Map<string, string[]>();
  for (const ct of exp.contentTypes) {
    const ids = ct.fields.filter((f) => f.type === 'Date').map((f) => f.id);
    if (ids.length) dateFields.set(ct.sys.id, ids);
  }
  // true: only dates seen so far; false: a value with a time (or not a date) seen.
  const state = new Map<string, boolean>();
  const zoneless = new Map<string, { count: number; entry: string; value: string }>();
  if (dateFields.size === 0) return { dateOnly: new Set(), zoneless };
  for (const e of exp.entries) {
    const ctId = e.sys.contentType.sys.id;
    for (const fieldId of dateFields.get(ctId) ?? []) {
      const key = dateKey(ctId, fieldId);
      for (const v of Object.values(e.fields[fieldId] ?? {})) {
        if (v === null || v === undefined) continue;
        if (isZonelessDate(v)) {
          const seen = zoneless.get(key);
          if (seen) seen.count += 1;
          else zoneless.set(key, { count: 1, entry: e.sys.id, value: (v as string).trim() });
        }
        if (state.get(key) === false) continue;
        state.set(key, typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v.trim()));
      }
    }
  }
  return { dateOnly: new Set([...state].filter(([, only]) => only).map(([key]) => key)), zoneless };
}

/** The Quire type of `f` given its validations and the export's values (before options). */
function refinedType(dates: DateScan, ct: CfContentType, f: CfField, type: FieldType): FieldType {
  // A Symbol restricted to a list of values is a choice among them.
  if (type === 'text' && (allowedValues(f) ?? []).some((v) => v.length > 0 && v.length <= MAX_OPTION)) return 'select';
  // A Date field whose values are all calendar dates stays a date (no time, no zone invented).
  if (type === 'datetime' && dates.dateOnly.has(dateKey(ct.sys.id, f.id))) return 'date';
  return type;
}

function planContentType(dates: DateScan, ct: CfContentType, slugs: Map<string, string>, warnings: string[], renames: FieldRename[]): PlannedContentType {
  const slug = slugs.get(ct.sys.id)!;
  const used = new Set<string>();
  const fields: PlannedField[] = [];
  for (const f of ct.fields) {
    const mapped = quireFieldType(f);
    if (!mapped) {
      warnings.push(`content type '${slug}': field '${f.id}' of type ${cfTypeName(f)} has no Quire equivalent and is skipped`);
      continue;
    }
    let type = refinedType(dates, ct, f, mapped);
    const zoneless = type === 'datetime' ? dates.zoneless.get(dateKey(ct.sys.id, f.id)) : undefined;
    if (zoneless)
      warnings.push(
        `content type '${slug}': field '${f.id}' holds ${zoneless.count} date-time value${zoneless.count === 1 ? '' : 's'} without a time zone ` +
          `(e.g. entry '${zoneless.entry}': ${zoneless.value}), read as UTC: the time stays as written, with the offset Z`,
      );
    let options: string[] | undefined;
    if (type === 'relation' || type === 'relation_list') {
      // Quire slugs of the allowed types; types absent from the export keep their kebab-case slug.
      const targets = [...new Set(linkContentTypes(f).map((id) => slugs.get(id) ?? contentTypeSlug(id)))];
      if (targets.length) options = targets;
    } else if (type === 'select') {
      options = [...new Set((allowedValues(f) ?? []).filter((v) => v.length > 0 && v.length <= MAX_OPTION))];
    } else if (type === 'multi_select') {
      // Only an `in` rule closes the list; without one authors may add any value, as in Contentful.
      const values = (allowedValues(f) ?? []).filter((v) => v.length > 0 && v.length <= MAX_OPTION);
      if (values.length) options = [...new Set(values)];
      else type = 'tags';
    }
    const unique = validationsOf(f).some((v) => v.unique === true) && UNIQUE_CAPABLE.has(type);
    const label = (f.name ?? '').trim().slice(0, MAX_LABEL) || f.id.slice(0, MAX_LABEL);
    const name = fieldNameFor(f.id, used);
    if (name !== f.id) renames.push({ content_type: slug, from: f.id, to: name });
    const validation = mapValidations(f, type, `content type '${slug}': field '${f.id}'`, unique, warnings);
    fields.push({
      cfId: f.id,
      cfType: cfTypeName(f),
      input: {
        name,
        label,
        field_type: type,
        required: f.required === true,
        is_unique: unique,
        localizable: f.localized === true,
        ...(options ? { options } : {}),
        ...(validation ? { validation: { ...validation } } : {}),
      },
    });
  }
  const nameOf = (cfId: string | null | undefined) => (cfId ? (fields.find((x) => x.cfId === cfId)?.input.name ?? null) : null);
  return {
    cfId: ct.sys.id,
    slug,
    name: ct.name.trim() || ct.sys.id,
    description: typeof ct.description === 'string' && ct.description.trim() ? ct.description : null,
    display_field: nameOf(ct.displayField),
    fields,
    slugField: nameOf('slug'),
  };
}
