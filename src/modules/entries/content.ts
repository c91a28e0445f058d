/**
 * The content rules of an entry write, shared by create, update and duplicate:
 *
 * - D2 input forms: `data` as an object or a JSON-encoded object; `translations` as an object
 *   keyed by locale (`{"de": {"data": {...}}}`) or an array of `{locale, data}`.
 * - Data and translation validation (validation.ts), relation/media existence (one query per
 *   kind), translation locales (a workspace locale other than the default one). A translation
 *   left with no values after dropping nulls is not stored.
 * - Uniqueness of `is_unique` fields among the type's entries (default-locale value): 409
 *   UNIQUE_VIOLATION.
 * - Slugs (D31): `^[a-z0-9]+(?:-[a-z0-9]+)*$`, at most 200 characters, unique per content type
 *   (409 SLUG_TAKEN); `bulk` and `reorder` are reserved because they name the bulk and reorder
 *   endpoints. Without a slug, one is derived from the display field's value (`-2`, `-3` … on a
 *   collision), or is the entry id when there is no display value.
 */
import type { Db } from '../../db/types.js';
import { AppError, validationError, type ErrorDetail } from '../../errors.js';
import { isPlainObject } from '../../lib/json.js';
import { firstFreeSlug, slugify, slugProblem as checkSlug } from '../../lib/slugs.js';
import type { ContentType, Field } from '../content-types/model.js';
import type { Workspace } from '../workspaces/repository.js';
import type { EntryData } from './model.js';
import { entryIdBySlug, slugsLike, uniqueValueTaken } from './repository.js';
import { checkReferences, fieldValue, validateData, type DataReference } from './validation.js';
import type { Pattern } from '../../lib/pattern.js';

/** Entry slugs that would be shadowed by the static `/entries/bulk` and `/entries/reorder` routes. */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set(['bulk', 'reorder']);

export interface RawTranslation {
  locale: string;
  data: unknown;
  /** Path of this translation's `data` in the request, for error messages. */
  path: string;
}

/** Reads the D2 forms of `translations` (absent: none; `null` is refused as a wrong type); collects errors instead of throwing. */
export function parseTranslations(input: unknown, path: string, errors: ErrorDetail[]): RawTranslation[] {
  if (input === undefined) return [];
  const out: RawTranslation[] = [];
  const seen = new Set<string>();
  const add = (locale: unknown, value: unknown, at: string, dataAt: string) => {
    if (typeof locale !== 'string' || !locale) {
      errors.push({ path: at, message: 'must name a locale' });
      return;
    }
    if (seen.has(locale)) {
      errors.push({ path: at, message: `locale '${locale}' is given twice` });
      return;
    }
    seen.add(locale);
    out.push({ locale, data: value, path: dataAt });
  };
  if (Array.isArray(input)) {
    input.forEach((item, i) => {
      const at = `${path}.${i}`;
      if (!isPlainObject(item)) return errors.push({ path: at, message: 'must be an object {locale, data}' });
      const extra = Object.keys(item).filter((k) => k !== 'locale' && k !== 'data');
      for (const k of extra) errors.push({ path: `${at}.${k}`, message: 'is not a known key' });
      if (!('data' in item)) errors.push({ path: `${at}.data`, message: 'is required' });
      add(item.locale, item.data, `${at}.locale`, `${at}.data`);
    });
    return out;
  }
  if (!isPlainObject(input)) {
    errors.push({ path, message: 'must be an object keyed by locale ({"de": {"data": {...}}}) or an array of {locale, data}' });
    return out;
  }
  for (const [locale, value] of Object.entries(input)) {
    const at = `${path}.${locale}`;
    if (!isPlainObject(value) || !('data' in value)) {
      errors.push({ path: at, message: 'must be an object {"data": {...}}' });
      continue;
    }
    for (const k of Object.keys(value).filter((k) => k !== 'data')) errors.push({ path: `${at}.${k}`, message: 'is not a known key' });
    add(locale, value.data, at, `${at}.data`);
  }
  return out;
}

export interface ContentInput {
  data: unknown;
  /** undefined keeps the current translations (update); anything else replaces them. */
  translations?: unknown;
}

/** An item's validated values: default-locale `data` and, when the write names them, translations. */
export interface LocalizedValues {
  data: EntryData;
  /** undefined when the input did not mention translations. */
  translations: { locale: string; data: EntryData }[] | undefined;
}

/**
 * Validates the values of one entry or block write against `fields` (docs/api.md "Localization" rule
 * 1): `data` in either D2 form (`required` only with opts.requireRequired), and `translations` in
 * either D2 form, each in a workspace locale other than the default one, with localizable fields
 * only; a translation left with no value is dropped. Paths start at `path` (`<path>.data`,
 * `<path>.translations.<locale>.data`). Collects problems into `errors` and the relation and
 * media ids to check into `references` instead of throwing.
 */
export function validateLocalizedValues(
  ws: Pick<Workspace, 'default_locale' | 'locales'>,
  fields: Field[],
  input: { data: unknown; translations?: unknown },
  path: string,
  opts: { requireRequired: boolean; patterns: Map<string, Pattern | null> },
  errors: ErrorDetail[],
  references: DataReference[],
): LocalizedValues {
  const main = validateData(fields, input.data, { requireRequired: opts.requireRequired, pathPrefix: `${path}.data`, patterns: opts.patterns });
  errors.push(...main.errors);
  references.push(...main.references);
  if (input.translations === undefined) return { data: main.value, translations: undefined };
  const translations: { locale: string; data: EntryData }[] = [];
  for (const t of parseTranslations(input.translations, `${path}.translations`, errors)) {
    const localePath = t.path.replace(/\.data$/, '');
    if (t.locale === ws.default_locale) {
      errors.push({ path: localePath, message: `'${t.locale}' is the default locale: its values belong in data` });
      continue;
    }
    if (!ws.locales.includes(t.locale)) {
      errors.push({ path: localePath, message: `locale '${t.locale}' is not a locale of this workspace (${ws.locales.join(', ')})` });
      continue;
    }
    const checked = validateData(fields, t.data, { requireRequired: false, pathPrefix: t.path, onlyLocalizable: true, patterns: opts.patterns });
    errors.push(...checked.errors);
    references.push(...checked.references);
    if (Object.keys(checked.value).length) translations.push({ locale: t.locale, data: checked.value });
  }
  return { data: main.value, translations };
}

export type PreparedContent = LocalizedValues;

/**
 * Validates data and translations of a write and checks their references. Throws one 400
 * VALIDATION_FAILED listing every problem; returns the cleaned values.
 */
export async function prepareContent(
  db: Db,
  ws: Workspace,
  ct: ContentType,
  input: ContentInput,
  opts: { requireRequired: boolean; pathPrefix?: string },
): Promise<PreparedContent> {
  const prefix = opts.pathPrefix ?? 'body';
  const errors: ErrorDetail[] = [];
  const references: DataReference[] = [];
  const { data, translations } = validateLocalizedValues(
    ws,
    ct.fields,
    input,
    prefix,
    { requireRequired: opts.requireRequired, patterns: db.memo.fieldPatterns },
    errors,
    references,
  );
  if (errors.length) throw validationError(errors);
  const refErrors = await checkReferences(db, ws.id, references);
  if (refErrors.length) throw validationError(refErrors);
  return { data, translations };
}

/** 409 UNIQUE_VIOLATION when another entry of the type holds the value of an `is_unique` field. */
export async function assertUniqueValues(db: Db, ct: ContentType, data: EntryData, exceptId: string | null): Promise<void> {
  for (const field of ct.fields) {
    if (!field.is_unique) continue;
    const value = fieldValue(data, field.name);
    if (value === undefined || value === null) continue;
    if (await uniqueValueTaken(db, ct.id, field, value, exceptId)) {
      throw new AppError('UNIQUE_VIOLATION', `value of '${field.name}' is already used by another entry of '${ct.slug}'`);
    }
  }
}

/** The D31 slug rules for a given slug; null when fine. */
export function slugProblem(slug: string): string | null {
  return checkSlug(slug, RESERVED_SLUGS);
}

/** 409 SLUG_TAKEN when another entry of the type uses `slug`. */
export async function assertSlugFree(db: Db, ct: ContentType, slug: string, exceptId: string | null): Promise<void> {
  const owner = await entryIdBySlug(db, ct.id, slug);
  if (owner && owner !== exceptId) throw new AppError('SLUG_TAKEN', `slug '${slug}' is already used by another entry of '${ct.slug}'`);
}

/** `base` if free, else `base-2`, `base-3` … (never a reserved slug). */
export function nextFreeSlug(db: Db, contentTypeId: string, base: string): Promise<string> {
  return firstFreeSlug(base, 'entry', RESERVED_SLUGS, (prefix) => slugsLike(db, contentTypeId, prefix));
}

/** D31: a slug from the display field's value, else the entry id. */
export async function deriveSlug(db: Db, ct: ContentType, data: EntryData, entryId: string): Promise<string> {
  const raw = ct.display_field ? fieldValue(data, ct.display_field) : undefined;
  const text = typeof raw === 'string' || typeof raw === 'number' ? slugify(String(raw)) : '';
  return nextFreeSlug(db, ct.id, text || entryId);
}
