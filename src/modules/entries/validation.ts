/**
 * Validation of content values against a content type's fields (docs/api.md "States and scheduling"
 * (D22), "Fields" (D30, D33)).
 * Used for entry data and translations, and reusable for page block data.
 *
 * validateData() is pure: it checks types, unknown keys, `validation` rules (min, max,
 * min_length, max_length, pattern), `required` (only when asked: D22) and, for translations,
 * that only localizable fields appear. It returns the cleaned value (nulls dropped: null means
 * "no value"; datetimes in their canonical form, the author's offset kept: lib/time.ts
 * parseDatetime) and the relation/media ids it met. checkReferences() then verifies those ids against the database with one query per kind,
 * and that each asset of a media field with a `media_kinds` rule is of an accepted kind.
 *
 * Field types (D30): text (one line), textarea, rich_text (a Contentful rich-text document,
 * checked structurally), number, integer, boolean, date (YYYY-MM-DD), datetime (ISO 8601 with a
 * zone, kept as written and compared by instant), email, url (absolute http/https), select (one of `options`), multi_select (distinct
 * options), tags (a free list: at most 100 distinct one-line strings of 1–256 characters, in
 * order), json (any JSON value), media / relation (uuid), media_list / relation_list (uuids).
 * Rules: min/max bound numbers and list item counts; min_length/max_length bound string length
 * (code points; plain text for rich_text) and list length; pattern applies to text-like values;
 * media_kinds (media, media_list) names the kinds of asset accepted (media/kinds.ts).
 */
import { BLOCKS, INLINES } from '@contentful/rich-text-types';
import type { Db } from '../../db/types.js';
import type { ErrorDetail } from '../../errors.js';
import { isUuid } from '../../lib/ids.js';
import { isPlainObject } from '../../lib/json.js';
import { jsonDepth, MAX_JSON_VALUE_DEPTH } from '../../lib/json-limits.js';
import { compilePattern, type Pattern } from '../../lib/pattern.js';
import { isCalendarDate, parseDatetime } from '../../lib/time.js';
import { fieldOptions, fieldValidation, type Field, type FieldType } from '../content-types/model.js';
import { assetKindOf, kindNoun, kindsPhrase, type AssetKind } from '../media/kinds.js';
import { findEntryTypeSlugs, findLiveMediaTypes } from './repository.js';

export interface ValidateOptions {
  /** Enforce `required` (D22: on publish and on writes to a published item). */
  requireRequired: boolean;
  /** Prefix of error paths, e.g. `body.data` or `body.translations.de.data`. */
  pathPrefix: string;
  /** Translations: only localizable fields may appear. */
  onlyLocalizable?: boolean;
  /**
   * Where compiled `pattern` rules are kept between calls (callers pass their Db's
   * `memo.fieldPatterns`); without it each pattern is compiled per call.
   */
  patterns?: Map<string, Pattern | null>;
}

/** A relation or media id met in a value, to be checked by checkReferences. */
export interface DataReference {
  path: string;
  kind: 'relation' | 'media';
  id: string;
  /** Content type slugs a relation may point to (the field's `options`); empty means any. */
  allowedTypes: string[];
  /** Kinds of asset a media reference may name (the field's `media_kinds`); absent means any. */
  mediaKinds?: readonly AssetKind[];
}

export interface ValidationResult {
  value: Record<string, unknown>;
  errors: ErrorDetail[];
  references: DataReference[];
}

const TEXT_LIKE = new Set<FieldType>(['text', 'textarea', 'email', 'url']);
const LIST_TYPES = new Set<FieldType>(['multi_select', 'tags', 'media_list', 'relation_list']);
/** `tags` (D30): at most this many items, each 1 to MAX_TAG_LENGTH characters (code points). */
export const MAX_TAGS = 100;
export const MAX_TAG_LENGTH = 256;
const NODE_TYPES = new Set<string>([...Object.values(BLOCKS), ...Object.values(INLINES)]);
const MAX_RICH_TEXT_DEPTH = 64;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `pattern` compiled (null when it is not a supported pattern), kept in `cache` when given. */
function compiledPattern(pattern: string, cache: Map<string, Pattern | null> = new Map()): Pattern | null {
  if (!cache.has(pattern)) {
    const compiled = compilePattern(pattern);
    if (cache.size > 1000) cache.clear();
    cache.set(pattern, 'error' in compiled ? null : compiled);
  }
  return cache.get(pattern) ?? null;
}

/**
 * The own value of `name` in `data`. Field names such as `constructor` or `toString` are valid
 * (D31), so a plain `data[name]` could return an inherited Object.prototype member.
 */
export function fieldValue(data: Record<string, unknown>, name: string): unknown {
  return Object.hasOwn(data, name) ? data[name] : undefined;
}

/** True for a value that counts as absent for `required`: undefined, null, '' or []. */
export function isEmptyValue(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

function isValidDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  return isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

function isHttpUrl(text: string): boolean {
  if (text.length > 2048 || /\s/.test(text)) return false;
  try {
    const u = new URL(text);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.length > 0;
  } catch {
    return false;
  }
}

/**
 * Checks a Contentful rich-text document structurally (D33): every node has a known `nodeType`
 * string and, when present, a `data` object; non-text nodes carry a `content` array of nodes;
 * text nodes carry a `value` string and a `marks` array of `{type: string}`. Returns the first
 * problems found (with paths) and the plain-text length (for min_length/max_length).
 */
export function checkRichText(value: unknown, path: string): { errors: ErrorDetail[]; textLength: number } {
  const errors: ErrorDetail[] = [];
  let textLength = 0;
  if (!isPlainObject(value) || value.nodeType !== BLOCKS.DOCUMENT) {
    return { errors: [{ path, message: "must be a rich-text document: an object with nodeType 'document' and a content array" }], textLength };
  }
  const visit = (node: unknown, at: string, depth: number): void => {
    if (errors.length >= 10) return;
    if (depth > MAX_RICH_TEXT_DEPTH) {
      errors.push({ path: at, message: `rich text is nested deeper than ${MAX_RICH_TEXT_DEPTH} levels` });
      return;
    }
    if (!isPlainObject(node)) {
      errors.push({ path: at, message: 'must be a rich-text node object' });
      return;
    }
    const type = node.nodeType;
    if (typeof type !== 'string') {
      errors.push({ path: `${at}.nodeType`, message: 'must be a string' });
      return;
    }
    if (node.data !== undefined && !isPlainObject(node.data)) errors.push({ path: `${at}.data`, message: 'must be an object' });
    if (type === 'text') {
      if (typeof node.value !== 'string') errors.push({ path: `${at}.value`, message: 'must be a string' });
      else textLength += [...node.value].length;
      if (!Array.isArray(node.marks)) errors.push({ path: `${at}.marks`, message: 'must be an array' });
      else
        node.marks.forEach((m, i) => {
          if (!isPlainObject(m) || typeof m.type !== 'string') errors.push({ path: `${at}.marks.${i}`, message: 'must be an object with a type string' });
        });
      return;
    }
    if (!NODE_TYPES.has(type) || (type === BLOCKS.DOCUMENT && depth > 0)) {
      errors.push({ path: `${at}.nodeType`, message: `'${type}' is not a rich-text node type` });
      return;
    }
    if (!Array.isArray(node.content)) {
      errors.push({ path: `${at}.content`, message: 'must be an array of nodes' });
      return;
    }
    node.content.forEach((child, i) => visit(child, `${at}.content.${i}`, depth + 1));
  };
  visit(value, path, 0);
  return { errors, textLength };
}

interface FieldCheck {
  value: unknown;
  errors: ErrorDetail[];
  references: DataReference[];
}

function checkUuidList(field: Field, value: unknown, path: string, kind: 'relation' | 'media', out: FieldCheck): void {
  if (!Array.isArray(value)) {
    out.errors.push({ path, message: `must be an array of ${kind === 'media' ? 'media' : 'entry'} ids (uuids)` });
    return;
  }
  const allowedTypes = kind === 'relation' ? fieldOptions(field) : [];
  const mediaKinds = kind === 'media' ? fieldValidation(field).media_kinds : undefined;
  // Ids are stored lowercase so that they compare equal to the ids Quire generates.
  out.value = value.map((id) => (typeof id === 'string' ? id.toLowerCase() : id));
  value.forEach((id, i) => {
    if (!isUuid(id)) out.errors.push({ path: `${path}.${i}`, message: `must be ${kind === 'media' ? 'a media' : 'an entry'} id (uuid)` });
    else out.references.push({ path: `${path}.${i}`, kind, id: id.toLowerCase(), allowedTypes, ...(mediaKinds ? { mediaKinds } : {}) });
  });
}

/** Checks one non-null value of `field`; returns the value to store (normalized) and findings. */
function checkValue(field: Field, value: unknown, path: string, patterns: Map<string, Pattern | null> | undefined): FieldCheck {
  const out: FieldCheck = { value, errors: [], references: [] };
  const err = (message: string) => out.errors.push({ path, message });
  const rules = fieldValidation(field);
  let length: number | null = null;

  switch (field.field_type) {
    case 'text':
      if (typeof value !== 'string') err('must be a string');
      else if (/[\r\n]/.test(value)) err('must be a single line (no line breaks); use a textarea field for multi-line text');
      break;
    case 'textarea':
      if (typeof value !== 'string') err('must be a string');
      break;
    case 'rich_text': {
      const rt = checkRichText(value, path);
      out.errors.push(...rt.errors);
      length = rt.textLength;
      break;
    }
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) err('must be a number');
      break;
    case 'integer':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) err('must be an integer');
      break;
    case 'boolean':
      if (typeof value !== 'boolean') err('must be true or false');
      break;
    case 'date':
      if (typeof value !== 'string' || !isValidDate(value)) err('must be a date as YYYY-MM-DD');
      break;
    case 'datetime': {
      const d = parseDatetime(value);
      if (!d) err('must be an ISO 8601 date-time with a time zone (Z or an offset such as +02:00) in the years 0001-9999, e.g. 2026-11-21T10:00:00.000+02:00');
      else out.value = d.text;
      break;
    }
    case 'email':
      if (typeof value !== 'string' || value.length > 254 || !EMAIL.test(value)) err('must be an email address');
      break;
    case 'url':
      if (typeof value !== 'string' || !isHttpUrl(value)) err('must be an absolute http or https URL');
      break;
    case 'select': {
      const options = fieldOptions(field);
      if (typeof value !== 'string' || !options.includes(value)) err(`must be one of: ${options.join(', ')}`);
      break;
    }
    case 'multi_select': {
      const options = fieldOptions(field);
      if (!Array.isArray(value)) err(`must be an array of: ${options.join(', ')}`);
      else {
        const seen = new Set<unknown>();
        value.forEach((v, i) => {
          if (typeof v !== 'string' || !options.includes(v)) out.errors.push({ path: `${path}.${i}`, message: `must be one of: ${options.join(', ')}` });
          else if (seen.has(v)) out.errors.push({ path: `${path}.${i}`, message: `'${v}' is listed twice` });
          seen.add(v);
        });
      }
      break;
    }
    case 'tags':
      checkTags(value, path, out);
      break;
    case 'json':
      // Any JSON value (the body was parsed from JSON), within a nesting bound that every
      // database's JSON functions and every reader's recursion handle.
      if (jsonDepth(value) > MAX_JSON_VALUE_DEPTH) err(`must nest objects and arrays at most ${MAX_JSON_VALUE_DEPTH} levels deep`);
      break;
    case 'media':
    case 'relation': {
      const kind = field.field_type;
      if (!isUuid(value)) err(`must be ${kind === 'media' ? 'a media' : 'an entry'} id (uuid)`);
      else {
        out.value = value.toLowerCase();
        const mediaKinds = kind === 'media' ? rules.media_kinds : undefined;
        out.references.push({
          path,
          kind,
          id: value.toLowerCase(),
          allowedTypes: kind === 'relation' ? fieldOptions(field) : [],
          ...(mediaKinds ? { mediaKinds } : {}),
        });
      }
      break;
    }
    case 'media_list':
      checkUuidList(field, value, path, 'media', out);
      break;
    case 'relation_list':
      checkUuidList(field, value, path, 'relation', out);
      break;
    default:
      err(`has an unsupported field type '${String(field.field_type)}'`);
  }
  if (out.errors.length) return out;

  // validation rules (D30)
  if (field.field_type === 'number' || field.field_type === 'integer') {
    const n = value as number;
    if (rules.min !== undefined && n < rules.min) err(`must be at least ${rules.min}`);
    if (rules.max !== undefined && n > rules.max) err(`must be at most ${rules.max}`);
  }
  if (LIST_TYPES.has(field.field_type)) {
    const count = (value as unknown[]).length;
    const min = Math.max(rules.min ?? 0, rules.min_length ?? 0);
    const max = Math.min(rules.max ?? Infinity, rules.max_length ?? Infinity);
    if (count < min) err(`must have at least ${min} item${min === 1 ? '' : 's'}`);
    if (count > max) err(`must have at most ${max} item${max === 1 ? '' : 's'}`);
  }
  if (TEXT_LIKE.has(field.field_type)) length = [...(value as string)].length;
  if (length !== null) {
    if (rules.min_length !== undefined && length < rules.min_length) err(`must be at least ${rules.min_length} characters long`);
    if (rules.max_length !== undefined && length > rules.max_length) err(`must be at most ${rules.max_length} characters long`);
  }
  if (TEXT_LIKE.has(field.field_type) && typeof rules.pattern === 'string') {
    const re = compiledPattern(rules.pattern, patterns);
    if (re && !re.test(value as string)) err(`must match the pattern ${rules.pattern}`);
  }
  return out;
}

/**
 * A `tags` value (D30): a list of at most MAX_TAGS distinct one-line strings of 1 to
 * MAX_TAG_LENGTH characters, any values (no options), kept in the given order.
 */
function checkTags(value: unknown, path: string, out: FieldCheck): void {
  if (!Array.isArray(value)) {
    out.errors.push({ path, message: `must be an array of at most ${MAX_TAGS} strings` });
    return;
  }
  if (value.length > MAX_TAGS) out.errors.push({ path, message: `must have at most ${MAX_TAGS} items` });
  const seen = new Set<string>();
  value.forEach((v, i) => {
    const at = `${path}.${i}`;
    if (typeof v !== 'string') out.errors.push({ path: at, message: 'must be a string' });
    else if (v.length === 0 || [...v].length > MAX_TAG_LENGTH) out.errors.push({ path: at, message: `must be 1 to ${MAX_TAG_LENGTH} characters long` });
    else if (/[\r\n]/.test(v)) out.errors.push({ path: at, message: 'must be a single line (no line breaks)' });
    else if (seen.has(v)) out.errors.push({ path: at, message: `'${v}' is listed twice` });
    if (typeof v === 'string') seen.add(v);
  });
}

/**
 * Validates `input` (an object, or a JSON-encoded object: D2) against `fields`.
 * Absent input counts as an empty object; `null` (or the JSON text `null`) is refused like any
 * other value that is not an object. Errors carry paths under `opts.pathPrefix`.
 */
export function validateData(fields: Field[], input: unknown, opts: ValidateOptions): ValidationResult {
  const result: ValidationResult = { value: {}, errors: [], references: [] };
  const prefix = opts.pathPrefix;
  // Absent data is an empty object (a block written without values); null is a wrong type, not
  // "no values": taking it as {} let a PUT of {"data": null} empty an entry (issue 23).
  let data: unknown = input === undefined ? {} : input;
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data);
    } catch {
      result.errors.push({ path: prefix, message: 'must be an object or a JSON-encoded object (the string is not valid JSON)' });
      return result;
    }
  }
  if (!isPlainObject(data)) {
    result.errors.push({ path: prefix, message: 'must be an object of field values (or a JSON-encoded object)' });
    return result;
  }
  const byName = new Map(fields.map((f) => [f.name, f]));
  for (const [name, value] of Object.entries(data)) {
    const path = `${prefix}.${name}`;
    const field = byName.get(name);
    if (!field) {
      result.errors.push({ path, message: 'is not a field of this content type' });
      continue;
    }
    if (opts.onlyLocalizable && !field.localizable) {
      result.errors.push({ path, message: `field '${name}' is not localizable; translations hold localizable fields only` });
      continue;
    }
    if (value === null) continue;
    const checked = checkValue(field, value, path, opts.patterns);
    result.errors.push(...checked.errors);
    result.references.push(...checked.references);
    if (!checked.errors.length) result.value[name] = checked.value;
  }
  if (opts.requireRequired) {
    for (const f of fields) {
      if (f.required && isEmptyValue(fieldValue(data, f.name)) && !result.errors.some((e) => e.path === `${prefix}.${f.name}`)) {
        result.errors.push({ path: `${prefix}.${f.name}`, message: 'is required' });
      }
    }
  }
  return result;
}

/** The `required` fields an (already validated) value lacks, as errors under `pathPrefix` (D22). */
export function missingRequired(fields: Field[], value: Record<string, unknown>, pathPrefix: string): ErrorDetail[] {
  return fields.filter((f) => f.required && isEmptyValue(fieldValue(value, f.name))).map((f) => ({ path: `${pathPrefix}.${f.name}`, message: 'is required' }));
}

/**
 * The error of media reference `ref` given the MIME type of the live asset it names (undefined:
 * none), or null: the asset must exist and, under a `media_kinds` rule, be of an accepted kind
 * (message `must be an image or a video; media '…' is a PDF`).
 */
export function mediaReferenceError(ref: DataReference, mimeType: string | undefined): ErrorDetail | null {
  if (mimeType === undefined) return { path: ref.path, message: `media '${ref.id}' does not exist in this workspace` };
  const kind = assetKindOf(mimeType);
  if (ref.mediaKinds && !ref.mediaKinds.includes(kind))
    return { path: ref.path, message: `must be ${kindsPhrase(ref.mediaKinds)}; media '${ref.id}' is ${kindNoun(kind)} (${mimeType})` };
  return null;
}

/**
 * Verifies relation and media ids: a related entry must exist in the workspace and, when the
 * field lists content type slugs, be of one of them; a media id must name a non-deleted asset of
 * the workspace and, when the field has a `media_kinds` rule, one of those kinds. One query per
 * kind for all references together. Returns the errors.
 */
export async function checkReferences(db: Db, workspaceId: string, references: DataReference[]): Promise<ErrorDetail[]> {
  const errors: ErrorDetail[] = [];
  const relationIds = [...new Set(references.filter((r) => r.kind === 'relation').map((r) => r.id))];
  const mediaIds = [...new Set(references.filter((r) => r.kind === 'media').map((r) => r.id))];
  // Sequential on purpose: inside a transaction both run on the one connection anyway.
  const types = relationIds.length ? await findEntryTypeSlugs(db, workspaceId, relationIds) : new Map<string, string>();
  const media = mediaIds.length ? await findLiveMediaTypes(db, workspaceId, mediaIds) : new Map<string, string>();
  for (const ref of references) {
    if (ref.kind === 'media') {
      const error = mediaReferenceError(ref, media.get(ref.id));
      if (error) errors.push(error);
      continue;
    }
    const type = types.get(ref.id);
    if (type === undefined) errors.push({ path: ref.path, message: `entry '${ref.id}' does not exist in this workspace` });
    else if (ref.allowedTypes.length && !ref.allowedTypes.includes(type)) {
      errors.push({ path: ref.path, message: `entry '${ref.id}' is of content type '${type}'; this field accepts ${ref.allowedTypes.join(', ')}` });
    }
  }
  return errors;
}
