/**
 * Content types and fields as Quire's API shows them (docs/api.md "Content types", "Fields"), the field
 * types of docs/api.md "Fields" (D30) and the name/slug rules of D31.
 */
import { fromJsonColumn } from '../../lib/json.js';
import type { AssetKind } from '../media/kinds.js';

export const FIELD_TYPES = [
  'text',
  'textarea',
  'rich_text',
  'number',
  'integer',
  'boolean',
  'date',
  'datetime',
  'email',
  'url',
  'select',
  'multi_select',
  'tags',
  'json',
  'media',
  'media_list',
  'relation',
  'relation_list',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/**
 * The most fields one content type (an entry type or a block type) may hold (docs/security.md "Limits and
 * their settings": 200). Every path that adds fields asks fieldCapProblem: creating a type with its fields,
 * adding one with POST …/fields, the Contentful importer's schema step, a workspace restore
 * (export/restore.ts).
 */
export const MAX_FIELDS_PER_TYPE = 200;

/**
 * The cap rule: null when a type holding `have` fields may gain `adding` more, else the message
 * of the 400 that refuses it.
 */
export function fieldCapProblem(have: number, adding: number): string | null {
  if (have + adding <= MAX_FIELDS_PER_TYPE) return null;
  return have === 0
    ? `a content type has at most ${MAX_FIELDS_PER_TYPE} fields; ${adding} were given`
    : `a content type has at most ${MAX_FIELDS_PER_TYPE} fields; this one has ${have}, so ${adding} more would make ${have + adding}`;
}

/** D31 */
export const FIELD_NAME_PATTERN = /^[a-z][a-zA-Z0-9_]{0,63}$/;

/** Types whose values can be sorted and filtered through an expression index. */
export const INDEXABLE_TYPES: ReadonlySet<FieldType> = new Set([
  'text',
  'number',
  'integer',
  'boolean',
  'date',
  'datetime',
  'email',
  'url',
  'select',
  'relation',
  'media',
]);

/** Types whose values can be unique within their content type (`is_unique`). */
export const UNIQUE_TYPES: ReadonlySet<FieldType> = new Set(['text', 'email', 'url', 'number', 'integer', 'date', 'datetime', 'select']);

/**
 * An index build of a field still under way or failed (migration 017; docs/scaling.md "Index
 * builds"): the flags named true here turn on once its index is ready, not before.
 */
export interface FieldIndexBuild {
  state: 'building' | 'failed';
  filterable: boolean;
  sortable: boolean;
  is_unique: boolean;
  /** Indexes ready of those the flags need (two for filterable/sortable, one for unique). */
  indexes_built: number;
  indexes_total: number;
  /** Why it failed (state `failed`); the field's flags stayed as they were. */
  error: string | null;
  started_at: string;
  updated_at: string;
}

export interface Field {
  id: string;
  content_type_id: string;
  name: string;
  label: string;
  field_type: FieldType;
  required: boolean;
  is_unique: boolean;
  localizable: boolean;
  filterable: boolean;
  sortable: boolean;
  sort_order: number;
  /** JSON-encoded array of strings (choices of a select, target type slugs of a relation). */
  options: string | null;
  /** JSON-encoded object with optional min, max, min_length, max_length, pattern, media_kinds. */
  validation: string | null;
  created_at: string;
  updated_at: string;
  /** The field's index build while it runs or after it failed, else null. */
  index_build: FieldIndexBuild | null;
}

export interface ContentType {
  id: string;
  workspace_id: string;
  name: string;
  slug: string;
  description: string | null;
  icon: string | null;
  display_field: string | null;
  is_block: boolean;
  orderable: boolean;
  fields: Field[];
  created_at: string;
  updated_at: string;
}

export interface FieldValidation {
  min?: number;
  max?: number;
  min_length?: number;
  max_length?: number;
  pattern?: string;
  /** media / media_list: the kinds of asset accepted (media/kinds.ts); absent: any. */
  media_kinds?: AssetKind[];
}

/** The parsed `options` of a field (empty when none). */
export function fieldOptions(field: Pick<Field, 'options'>): string[] {
  return fromJsonColumn<string[]>(field.options, []);
}

/** The parsed `validation` of a field (empty object when none). */
export function fieldValidation(field: Pick<Field, 'validation'>): FieldValidation {
  return fromJsonColumn<FieldValidation>(field.validation, {});
}
