/**
 * The field types of D30 with what each accepts (docs/api.md "Fields"): which flags apply, which
 * validations make sense, whether it takes options (select choices) or relation targets. The
 * add-field form shows only what applies, and `buildFieldInput` sends only that.
 */
import { INDEXABLE_TYPES, UNIQUE_TYPES } from '../../../../src/modules/content-types/model.js';
import { ASSET_KINDS, type AssetKind } from '../../../../src/modules/media/kinds.js';
import type { FieldInput } from '../../api/types';

export const FIELD_TYPES = [
  { value: 'text', label: 'Text', description: 'One line of text' },
  { value: 'textarea', label: 'Long text', description: 'Several lines of plain text' },
  { value: 'rich_text', label: 'Rich text', description: 'Formatted text with links and embeds' },
  { value: 'number', label: 'Number', description: 'A decimal number' },
  { value: 'integer', label: 'Integer', description: 'A whole number' },
  { value: 'boolean', label: 'Boolean', description: 'Yes or no' },
  { value: 'date', label: 'Date', description: 'A calendar day' },
  { value: 'datetime', label: 'Date and time', description: 'A moment in time' },
  { value: 'email', label: 'Email', description: 'An email address' },
  { value: 'url', label: 'URL', description: 'An http or https address' },
  { value: 'select', label: 'Select', description: 'One of a list of choices' },
  { value: 'multi_select', label: 'Multi-select', description: 'Several of a list of choices' },
  { value: 'tags', label: 'Tags', description: 'A free list of short texts' },
  { value: 'json', label: 'JSON', description: 'Any JSON value' },
  { value: 'media', label: 'Media', description: 'One image or file' },
  { value: 'media_list', label: 'Media list', description: 'Several images or files' },
  { value: 'relation', label: 'Relation', description: 'A link to one entry' },
  { value: 'relation_list', label: 'Relation list', description: 'Links to several entries' },
] as const;

export type FieldType = (typeof FIELD_TYPES)[number]['value'];

// The server's own rules (src/modules/content-types/model.ts, bundled as is): which types can be
// indexed for filters and sorts, and which can be unique.
const FILTERABLE: ReadonlySet<string> = INDEXABLE_TYPES;
const UNIQUE: ReadonlySet<string> = UNIQUE_TYPES;
const NUMERIC = new Set<string>(['number', 'integer']);
const LISTS = new Set<string>(['multi_select', 'tags', 'media_list', 'relation_list']);
const TEXTUAL = new Set<string>(['text', 'textarea', 'rich_text', 'email', 'url']);
const PATTERN = new Set<string>(['text', 'textarea', 'email', 'url']);

export function fieldTypeLabel(type: string): string {
  return FIELD_TYPES.find((t) => t.value === type)?.label ?? type;
}

/** What a field type accepts. */
export function capabilities(type: string) {
  return {
    filterable: FILTERABLE.has(type),
    sortable: FILTERABLE.has(type),
    unique: UNIQUE.has(type),
    choices: type === 'select' || type === 'multi_select',
    targets: type === 'relation' || type === 'relation_list',
    /** min/max: the value of numbers, the item count of lists */
    minMax: NUMERIC.has(type) || LISTS.has(type),
    minMaxMeaning: NUMERIC.has(type) ? 'value' : 'items',
    length: TEXTUAL.has(type),
    pattern: PATTERN.has(type),
    /** media and media_list: which kinds of asset are accepted (`media_kinds`) */
    mediaKinds: type === 'media' || type === 'media_list',
  } as const;
}

/** "Blog Post!" → "blog-post" (the server's slug rule: ^[a-z0-9]+(?:-[a-z0-9]+)*$, at most 120). */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 120)
    .replace(/-+$/g, '');
}

/** "Published on" → "publishedOn" (the field name rule: ^[a-z][a-zA-Z0-9_]{0,63}$). */
export function fieldNameFrom(label: string): string {
  const words = label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean);
  const camel = words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0].toUpperCase() + w.slice(1).toLowerCase())).join('');
  const name = camel.replace(/^[^a-z]+/, '');
  return name.slice(0, 64);
}

export interface FieldDraft {
  label: string;
  name: string;
  field_type: FieldType;
  required: boolean;
  is_unique: boolean;
  localizable: boolean;
  filterable: boolean;
  sortable: boolean;
  /** select choices, or relation target type slugs */
  options: string[];
  min: number | '';
  max: number | '';
  min_length: number | '';
  max_length: number | '';
  pattern: string;
  /** media / media_list: the accepted kinds; none: any kind */
  media_kinds: AssetKind[];
}

export function emptyDraft(): FieldDraft {
  return {
    label: '',
    name: '',
    field_type: 'text',
    required: false,
    is_unique: false,
    localizable: false,
    filterable: false,
    sortable: false,
    options: [],
    min: '',
    max: '',
    min_length: '',
    max_length: '',
    pattern: '',
    media_kinds: [],
  };
}

/** The POST …/fields body for a draft: only the flags, options and validations its type accepts. */
export function buildFieldInput(draft: FieldDraft): FieldInput {
  const can = capabilities(draft.field_type);
  const input: FieldInput = { name: draft.name, field_type: draft.field_type };
  if (draft.label.trim()) input.label = draft.label.trim();
  if (draft.required) input.required = true;
  if (draft.localizable) input.localizable = true;
  if (can.unique && draft.is_unique) input.is_unique = true;
  if (can.filterable && draft.filterable) input.filterable = true;
  if (can.sortable && draft.sortable) input.sortable = true;
  if (can.choices || (can.targets && draft.options.length)) input.options = draft.options;
  const validation: Record<string, unknown> = {};
  if (can.minMax && draft.min !== '') validation.min = draft.min;
  if (can.minMax && draft.max !== '') validation.max = draft.max;
  if (can.length && draft.min_length !== '') validation.min_length = draft.min_length;
  if (can.length && draft.max_length !== '') validation.max_length = draft.max_length;
  if (can.pattern && draft.pattern) validation.pattern = draft.pattern;
  // In the server's order, whatever the order they were ticked in.
  if (can.mediaKinds && draft.media_kinds.length) validation.media_kinds = ASSET_KINDS.filter((k) => draft.media_kinds.includes(k));
  if (Object.keys(validation).length) input.validation = validation;
  return input;
}

/** `options` / `validation` of a stored field: JSON-encoded strings on the wire. */
export function parseJsonText<T>(value: string | null | undefined, fallback: T): T {
  if (!value) return fallback;
  try {
    return JSON.parse(value) as T;
  } catch {
    return fallback;
  }
}

/** Moves the item at `from` to `to` (dnd-kit's arrayMove, kept here so the rule has a test). */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const copy = items.slice();
  const [item] = copy.splice(from, 1);
  copy.splice(to, 0, item);
  return copy;
}
