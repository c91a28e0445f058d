/**
 * Content Source Maps and stega (docs/visual-editing.md; D140): where each string of a delivery
 * answer comes from, told once for REST and GraphQL. Every caller that delivers a content value
 * (REST's projectData, relatedObject and page blocks; GraphQL's field resolvers) hands it to
 * traceValue with its origin, and traceValue walks it:
 *
 * - every string the value holds gets a mapping `{kind, id, content_type?, field, locale, path?}`
 *   under its JSONPath (`$[0].data.title`, `$.blocks[0].children[1].data.headline`), where
 *   `locale` is the locale the value came from after fallback (localizedSource);
 * - rich text: each text node's `value` is mapped to the field (not the node types, marks or link
 *   URIs); `<field>_html` and `<field>_text` renderings are one string each;
 * - with stega, text-like strings (`text`, `textarea`, rich text) carry the stega payload
 *   (vercelStegaCombine: zero-width characters appended) `{origin: 'quire', href, ...mapping}`,
 *   `href` being the Studio URL of the item and field; every other string (ids, slugs, URLs,
 *   emails, dates, select values, tags, JSON values, unresolved reference ids) stays
 *   byte-identical, and so do empty strings (nothing to click).
 *
 * Pure: no database, no request. Its input is the trace a request opened (createTrace).
 */
import { vercelStegaCombine } from '@vercel/stega';
import type { FieldType } from '../content-types/model.js';
import { valueLocale, type RequestedLocale } from '../delivery/localization.js';

/** What a mapped string belongs to. */
export type OriginKind = 'entry' | 'page' | 'block' | 'asset';

/** One mapping of a Content Source Map (D140). */
export interface SourceMapping {
  kind: OriginKind;
  /** The entry, page, block or asset id. */
  id: string;
  /** The content type (entries) or block type (blocks) slug. */
  content_type?: string;
  /** The field name; `seo.title` etc. for a page's SEO values. */
  field: string;
  /** The locale the value was read from (after fallback to the default locale). */
  locale: string;
  /** Blocks: the block's place in its page (`blocks.0.children.1`). */
  path?: string;
}

/** The source map of one answer: mappings by JSONPath. */
export interface SourceMap {
  mappings: Record<string, SourceMapping>;
}

/** What a stega string carries: the mapping, where it comes from, and the Studio URL to edit it. */
export interface StegaPayload extends SourceMapping {
  origin: 'quire';
  href: string;
}

/** An item whose values are traced: the mapping's item part and its Studio URL (without field and locale). */
export interface OriginItem {
  kind: OriginKind;
  id: string;
  content_type?: string;
  path?: string;
  /** The Studio URL of the item (absolute). */
  href: string;
}

/** A field as traced: its name and type (the type decides what stega touches). */
export interface TracedField {
  name: string;
  field_type: FieldType;
}

/** The trace of one answer: its mappings, and whether strings carry stega. */
export interface Trace {
  readonly map: boolean;
  readonly stega: boolean;
  readonly mappings: Record<string, SourceMapping>;
  /** `{publicUrl}/studio/{workspace slug}`: Studio URLs start here. */
  readonly studio: string;
  readonly defaultLocale: string;
}

/** A trace for one answer; null when neither source maps nor stega were asked for. */
export function createTrace(options: { sourceMaps: boolean; stega: boolean; publicUrl: string; workspaceSlug: string; defaultLocale: string }): Trace | null {
  if (!options.sourceMaps && !options.stega) return null;
  return {
    map: options.sourceMaps,
    stega: options.stega,
    mappings: {},
    studio: `${options.publicUrl.replace(/\/+$/, '')}/studio/${encodeURIComponent(options.workspaceSlug)}`,
    defaultLocale: options.defaultLocale,
  };
}

/** The source map of a trace (what `meta.source_map` and `extensions.sourceMap` hold). */
export function sourceMapOf(trace: Trace): SourceMap {
  return { mappings: trace.mappings };
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `base` followed by `key` in JSONPath: `.name`, `['odd key']` or `[3]`. */
export function jsonPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  if (IDENTIFIER.test(key)) return `${base}.${key}`;
  return `${base}['${key.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`;
}

/** The JSONPath of a request-style path (`blocks.0.children.1` → `$.blocks[0].children[1]`). */
export function jsonPathOfDotted(dotted: string, base = '$'): string {
  return dotted.split('.').reduce<string>((at, part) => jsonPath(at, /^\d+$/.test(part) ? Number(part) : part), base);
}

/** The Studio URL of an entry (its editor), a page (its editor) or an asset (the media library). */
export function entryOrigin(trace: Trace, e: { id: string; type: string; slug: string }): OriginItem {
  return { kind: 'entry', id: e.id, content_type: e.type, href: `${trace.studio}/content/${encodeURIComponent(e.type)}/${encodeURIComponent(e.slug)}` };
}

export function pageOrigin(trace: Trace, p: { id: string; slug: string }): OriginItem {
  return { kind: 'page', id: p.id, href: `${trace.studio}/pages/${encodeURIComponent(p.slug)}` };
}

/** A block of page `page` at `path` (`blocks.0.children.1`). */
export function blockOrigin(trace: Trace, b: { id: string; type: string; path: string }, page: { slug: string }): OriginItem {
  return { kind: 'block', id: b.id, content_type: b.type, path: b.path, href: `${trace.studio}/pages/${encodeURIComponent(page.slug)}` };
}

export function assetOrigin(trace: Trace, a: { id: string }): OriginItem {
  return { kind: 'asset', id: a.id, href: `${trace.studio}/media?asset=${encodeURIComponent(a.id)}` };
}

/** Field types whose strings carry stega: text a reader sees. Everything else is data and stays byte-identical. */
const STEGA_TYPES: ReadonlySet<FieldType> = new Set<FieldType>(['text', 'textarea', 'rich_text']);

/** Whether strings of `fieldType` carry stega (D140: not ids, slugs, URLs, dates, select values). */
export function stegaApplies(fieldType: FieldType): boolean {
  return STEGA_TYPES.has(fieldType);
}

/** The mapping of `field` of `item` read in `locale`. */
function mappingOf(item: OriginItem, field: string, locale: string): SourceMapping {
  const m: SourceMapping = { kind: item.kind, id: item.id, field, locale };
  if (item.content_type !== undefined) m.content_type = item.content_type;
  if (item.path !== undefined) m.path = item.path;
  return m;
}

/**
 * The Studio URL opening `mapping`: the item's URL with `field`, `locale` and, for a block, its
 * `block` id and `path` as query parameters (what a click-to-edit module opens).
 */
export function studioHref(item: OriginItem, mapping: SourceMapping): string {
  const params = new URLSearchParams();
  if (item.kind === 'block') {
    params.set('block', item.id);
    if (item.path !== undefined) params.set('path', item.path);
  }
  params.set('field', mapping.field);
  params.set('locale', mapping.locale);
  return `${item.href}${item.href.includes('?') ? '&' : '?'}${params.toString()}`;
}

/** Records `text` at `at` and returns it, with the stega payload appended when it applies. */
function traceString(trace: Trace, at: string, item: OriginItem, field: string, locale: string, text: string, encode: boolean): string {
  const mapping = mappingOf(item, field, locale);
  if (trace.map) trace.mappings[at] = mapping;
  if (!trace.stega || !encode || text === '') return text;
  const payload: StegaPayload = { origin: 'quire', href: studioHref(item, mapping), ...mapping };
  return vercelStegaCombine(text, payload, false);
}

/** A rich-text document: its text nodes' `value` traced, everything else (node types, marks, link data) as it is. */
function traceRichText(trace: Trace, at: string, item: OriginItem, field: string, locale: string, node: unknown): unknown {
  if (Array.isArray(node)) return node.map((n, i) => traceRichText(trace, jsonPath(at, i), item, field, locale, n));
  if (node === null || typeof node !== 'object') return node;
  const record = node as Record<string, unknown>;
  if (record.nodeType === 'text' && typeof record.value === 'string') {
    return { ...record, value: traceString(trace, jsonPath(at, 'value'), item, field, locale, record.value, true) };
  }
  if (!Array.isArray(record.content)) return node;
  return { ...record, content: traceRichText(trace, jsonPath(at, 'content'), item, field, locale, record.content) };
}

/** Any JSON value: every string inside traced alike (`encode` for all or none). */
function traceAny(trace: Trace, at: string, item: OriginItem, field: string, locale: string, value: unknown, encode: boolean): unknown {
  if (typeof value === 'string') return traceString(trace, at, item, field, locale, value, encode);
  if (Array.isArray(value)) return value.map((v, i) => traceAny(trace, jsonPath(at, i), item, field, locale, v, encode));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = traceAny(trace, jsonPath(at, k), item, field, locale, v, encode);
  return out;
}

/**
 * The one walker (D140): records a mapping for every string of `value`, the value of `field` of
 * `item` read in `locale`, delivered at JSONPath `at`, and returns the value as delivered (strings
 * with stega where it applies; the same value when the trace carries no stega).
 * `render`: the value is the field's `_html` or `_text` rendering (one string) rather than the
 * field itself. A rich-text document maps its text nodes only.
 */
export function traceValue(
  trace: Trace,
  at: string,
  item: OriginItem,
  field: TracedField,
  locale: string,
  value: unknown,
  render: 'html' | 'text' | null = null,
): unknown {
  if (render !== null) return typeof value === 'string' ? traceString(trace, at, item, field.name, locale, value, true) : value;
  if (field.field_type === 'rich_text') return traceRichText(trace, at, item, field.name, locale, value);
  return traceAny(trace, at, item, field.name, locale, value, stegaApplies(field.field_type));
}

/** A field as traceField needs it: traced, and whether it is localizable. */
export interface LocalizedField extends TracedField {
  localizable: boolean;
}

/**
 * traceValue for the value of `field` of a localized item (`translation`: its translation in the
 * requested `locale`, null without one): the mapping's locale is where localizedValue took it
 * from (valueLocale, D40's per-field fallback).
 */
export function traceField(
  trace: Trace,
  at: string,
  item: OriginItem,
  field: LocalizedField,
  translation: Record<string, unknown> | null,
  locale: RequestedLocale,
  value: unknown,
  render: 'html' | 'text' | null = null,
): unknown {
  return traceValue(trace, at, item, field, valueLocale(field, translation, locale, trace.defaultLocale), value, render);
}

/** The text fields of a delivered asset (not localized: their locale is the default one); `url`, ids and numbers are not content strings. */
export const ASSET_FIELDS = {
  alt_text: { name: 'alt_text', field_type: 'text' },
  title: { name: 'title', field_type: 'text' },
  description: { name: 'description', field_type: 'textarea' },
} as const satisfies Record<string, TracedField>;

/** A delivered asset object at `at` with its text fields traced (a copy: asset objects are shared within an answer). */
export function traceAsset<A extends { id: string; alt_text: string | null; title: string | null; description: string | null }>(
  trace: Trace,
  at: string,
  asset: A,
): A {
  const item = assetOrigin(trace, asset);
  const out = { ...asset };
  for (const field of Object.values(ASSET_FIELDS)) {
    const key = field.name;
    if (typeof asset[key] === 'string') out[key] = traceValue(trace, jsonPath(at, key), item, field, trace.defaultLocale, asset[key]) as string;
  }
  return out;
}

/**
 * A page's delivered SEO object at `at`, each key traced as field `seo.<key>` of the page, in the
 * locale it came from: `translation` (the SEO translation in `locale`) when it overrides that key,
 * else the default. `fields`: the SEO keys and their field types (src/modules/pages/seo.ts).
 */
export function traceSeo<S extends object>(
  trace: Trace,
  at: string,
  page: OriginItem,
  seo: S,
  fields: readonly TracedField[],
  translation: Record<string, unknown> | null,
  locale: RequestedLocale,
): S {
  const out = { ...seo } as unknown as Record<string, unknown>;
  const values = seo as unknown as Record<string, unknown>;
  for (const f of fields) {
    const v = values[f.name];
    if (v === undefined || v === null) continue;
    const from = valueLocale({ name: f.name, localizable: true }, translation, locale, trace.defaultLocale);
    out[f.name] = traceValue(trace, jsonPath(at, f.name), page, { name: `seo.${f.name}`, field_type: f.field_type }, from, v);
  }
  return out as S;
}
