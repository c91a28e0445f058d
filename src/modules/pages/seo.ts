/**
 * The SEO object of pages and its translations (docs/pages.md "SEO object", "Translations and localization";
 * docs/pages.md "The model" (D25)).
 *
 * SEO values: `title` (one line, at most 300 characters), `description` (at most 1,000),
 * `keywords` (at most 50 distinct strings of 1 to 100 characters), `og_image` and `canonical`
 * (absolute http or https URLs). Unknown keys answer 400; null means "no value". The text and URL
 * rules are those of the `text`, `textarea` and `url` field types, checked by the same validator
 * as entry data (validateData).
 *
 * Translations (D25): `seo_translations` is an object keyed by locale, each value the overriding
 * SEO values (`{"de": {"title": "…"}}`, also accepted as `{"de": {"seo": {…}}}`), or an array of
 * `{locale, seo}`. Locales must be workspace locales other than the default one; a translation
 * left with no value is not stored. The page's `seo` keeps every key (null when absent); a
 * translation keeps only the keys it overrides.
 */
import type { ErrorDetail } from '../../errors.js';
import { isPlainObject } from '../../lib/json.js';
import type { Field, FieldType } from '../content-types/model.js';
import { validateData } from '../entries/validation.js';
import type { Workspace } from '../workspaces/repository.js';
import { EMPTY_SEO, SEO_KEYS, type Seo, type SeoOverrides } from './model.js';

export const MAX_KEYWORDS = 50;
const MAX_KEYWORD_LENGTH = 100;

function seoField(name: string, fieldType: FieldType, maxLength: number | null): Field {
  return {
    id: `seo-${name}`,
    content_type_id: 'seo',
    name,
    label: name,
    field_type: fieldType,
    required: false,
    is_unique: false,
    localizable: true,
    filterable: false,
    sortable: false,
    sort_order: 0,
    options: null,
    validation: maxLength === null ? null : JSON.stringify({ max_length: maxLength }),
    created_at: '',
    updated_at: '',
    index_build: null,
  };
}

/** The scalar SEO keys as field definitions, so validateData applies the field-type rules. */
const SCALAR_FIELDS: Field[] = [
  seoField('title', 'text', 300),
  seoField('description', 'textarea', 1000),
  seoField('og_image', 'url', null),
  seoField('canonical', 'url', null),
];

/** Every SEO key with the field type its values follow (`keywords` as tags): what source maps and stega go by (D140). */
export const SEO_TRACED_FIELDS: readonly { name: string; field_type: FieldType }[] = [
  ...SCALAR_FIELDS.map((f) => ({ name: f.name, field_type: f.field_type })),
  { name: 'keywords', field_type: 'tags' },
];

function checkKeywords(value: unknown, path: string, errors: ErrorDetail[]): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) {
    errors.push({ path, message: 'must be an array of strings' });
    return undefined;
  }
  if (value.length > MAX_KEYWORDS) errors.push({ path, message: `must have at most ${MAX_KEYWORDS} keywords` });
  const out: string[] = [];
  value.forEach((k, i) => {
    if (typeof k !== 'string' || !k.trim() || k.length > MAX_KEYWORD_LENGTH || /[\r\n]/.test(k)) {
      errors.push({ path: `${path}.${i}`, message: `must be a non-empty single-line string of at most ${MAX_KEYWORD_LENGTH} characters` });
    } else if (out.includes(k)) errors.push({ path: `${path}.${i}`, message: `'${k}' is listed twice` });
    else out.push(k);
  });
  return out;
}

/** Checks SEO values; returns the keys given with a value (nulls dropped). Errors go to `errors`. */
export function parseSeoValues(input: unknown, path: string, errors: ErrorDetail[]): SeoOverrides {
  if (input === undefined || input === null) return {};
  if (!isPlainObject(input)) {
    errors.push({ path, message: `must be an object with ${SEO_KEYS.join(', ')}` });
    return {};
  }
  const { keywords, ...scalars } = input;
  const before = errors.length;
  const checked = validateData(SCALAR_FIELDS, scalars, { requireRequired: false, pathPrefix: path });
  for (const e of checked.errors) {
    errors.push(e.message === 'is not a field of this content type' ? { path: e.path, message: `is not an SEO key; use ${SEO_KEYS.join(', ')}` } : e);
  }
  const kw = checkKeywords(keywords, `${path}.keywords`, errors);
  if (errors.length > before) return {};
  const out: SeoOverrides = { ...(checked.value as SeoOverrides) };
  if (kw !== undefined) out.keywords = kw;
  return out;
}

/** The page's SEO object: every key, null (or an empty keyword list) where nothing was given. */
export function completeSeo(values: SeoOverrides): Seo {
  return { ...EMPTY_SEO, keywords: [], ...values };
}

/** Reads a stored SEO object (older rows may miss keys). */
export function seoFromColumn(value: unknown): Seo {
  return isPlainObject(value) ? completeSeo(pickSeo(value)) : completeSeo({});
}

/** The SEO keys of a stored translation object. */
export function pickSeo(value: Record<string, unknown>): SeoOverrides {
  const out: Record<string, unknown> = {};
  for (const k of SEO_KEYS) if (value[k] !== undefined && value[k] !== null) out[k] = value[k];
  return out as SeoOverrides;
}

/**
 * docs/pages.md "Translations and localization" rule 1 for SEO: each key of the translation that holds a value overrides the
 * default one; keys it lacks fall back to `page.seo`.
 */
export function overlaySeo(seo: Seo, translation: SeoOverrides | null): Seo {
  if (!translation) return seo;
  const out: Seo = { ...seo };
  for (const k of SEO_KEYS) {
    const v = translation[k];
    if (v !== undefined && v !== null) (out as unknown as Record<string, unknown>)[k] = v;
  }
  return out;
}

/** Keys of an item of the array form: `id` and `page_id` are read-only keys a page read returns. */
const SEO_TRANSLATION_KEYS: ReadonlySet<string> = new Set(['locale', 'seo', 'id', 'page_id']);

/**
 * Reads `seo_translations` in its D25 forms and checks locales and values. Problems go to
 * `errors`; translations without a value are left out. The array form takes the items a page read
 * returns as they are (their `id` and `page_id` are ignored).
 */
export function parseSeoTranslations(input: unknown, path: string, ws: Workspace, errors: ErrorDetail[]): { locale: string; seo: SeoOverrides }[] {
  if (input === undefined || input === null) return [];
  const raw: { locale: unknown; seo: unknown; at: string; seoAt: string }[] = [];
  if (Array.isArray(input)) {
    input.forEach((item, i) => {
      const at = `${path}.${i}`;
      if (!isPlainObject(item)) return errors.push({ path: at, message: 'must be an object {locale, seo}' });
      for (const k of Object.keys(item)) if (!SEO_TRANSLATION_KEYS.has(k)) errors.push({ path: `${at}.${k}`, message: 'is not a known key' });
      raw.push({ locale: item.locale, seo: item.seo, at: `${at}.locale`, seoAt: `${at}.seo` });
    });
  } else if (isPlainObject(input)) {
    for (const [locale, value] of Object.entries(input)) {
      const at = `${path}.${locale}`;
      // Both {"de": {...seo}} and {"de": {"seo": {...}}} are accepted: `seo` is not an SEO key.
      const wrapped = isPlainObject(value) && Object.keys(value).length === 1 && isPlainObject(value.seo);
      raw.push({ locale, seo: wrapped ? (value as { seo: unknown }).seo : value, at, seoAt: wrapped ? `${at}.seo` : at });
    }
  } else {
    errors.push({ path, message: 'must be an object keyed by locale ({"de": {"title": "..."}}) or an array of {locale, seo}' });
    return [];
  }
  const out: { locale: string; seo: SeoOverrides }[] = [];
  const seen = new Set<string>();
  for (const r of raw) {
    if (typeof r.locale !== 'string' || !r.locale) {
      errors.push({ path: r.at, message: 'must name a locale' });
      continue;
    }
    if (seen.has(r.locale)) {
      errors.push({ path: r.at, message: `locale '${r.locale}' is given twice` });
      continue;
    }
    seen.add(r.locale);
    if (r.locale === ws.default_locale) {
      errors.push({ path: r.at, message: `'${r.locale}' is the default locale: its values belong in seo` });
      continue;
    }
    if (!ws.locales.includes(r.locale)) {
      errors.push({ path: r.at, message: `locale '${r.locale}' is not a locale of this workspace (${ws.locales.join(', ')})` });
      continue;
    }
    if (!isPlainObject(r.seo)) {
      errors.push({ path: r.seoAt, message: `must be an object with ${SEO_KEYS.join(', ')}` });
      continue;
    }
    const seo = parseSeoValues(r.seo, r.seoAt, errors);
    if (Object.keys(seo).length) out.push({ locale: r.locale, seo });
  }
  return out;
}
