/**
 * Contentful entries and assets → Quire entries and media records (issue 2 item 10; docs/api.md
 * "Wire format" (D2), "Fields" (D30, D33); docs/cli.md "The `quire` command line" (D61)). Pure
 * functions over the export and the schema plan; the writer
 * (src/modules/import/contentful/writer.ts) turns the result into operations.
 *
 * Entries: ids are derived from the workspace and the Contentful id (`entry:<id>`), so a second
 * import finds the same rows. Values of the export's default locale go to `data`; other locales
 * become translations of localizable fields only (docs/api.md "Localization"). Rich text
 * documents keep their shape, but the entry and asset links inside them (`entry-hyperlink`,
 * `embedded-entry-block`/`-inline`, `asset-hyperlink`, `embedded-asset-block`) point at the Quire
 * ids of their targets, like relation fields (a hyperlink whose target is not imported keeps only
 * its text, an embedded one is removed, each with a warning); a Link becomes the Quire id of its
 * target (a link to something absent from the export is dropped with a warning); Location
 * `{lat, lon}` stays JSON. A Date value of a `datetime` field keeps the export's offset
 * (toIsoDatetime). An entry's publishing state comes from its `sys` (states.ts).
 *
 * Assets: media records pointing at the original file (`https:` + file.url, no download), with
 * the export's content type as mime_type, size, image width/height, title (also as alt_text),
 * description and the original file name. Ids are derived from `asset:<id>`. A Quire asset has one
 * title and one description: those of the export's default locale (else of the first locale that
 * has one); the values of other locales are counted (otherLocaleTexts) and reported in one
 * warning by the caller.
 */
import { derivedId } from '../../../lib/ids.js';
import { isPlainObject } from '../../../lib/json.js';
import { parseDatetime } from '../../../lib/time.js';
import { slugify } from '../../../lib/slugs.js';
import type { EntryData } from '../../entries/model.js';
import { MAX_TAG_LENGTH, MAX_TAGS } from '../../entries/validation.js';
import { MAX_DESCRIPTION, MAX_TITLE } from '../../media/upload-form.js';
import { RICH_TEXT_LINK_NODES } from '../../richtext/render.js';
import type { CfAsset, CfEntry } from './export.js';
import type { PlannedContentType, PlannedField } from './schema-mapping.js';
import { cfState, type CfState } from './states.js';

/** How export locales land in the workspace: the export default becomes the workspace default. */
export interface LocaleMapping {
  exportDefault: string;
  workspaceDefault: string;
  /** Export locale codes other than the default, kept under their own code. */
  others: string[];
}

export interface PlannedEntry {
  cfId: string;
  id: string;
  typeSlug: string;
  /** Slug before per-type de-duplication (see assignSlugs). */
  baseSlug: string;
  data: EntryData;
  /** Translations by workspace locale (localizable fields only). */
  translations: Record<string, EntryData>;
  /** The export's publishing state (states.ts). */
  state: CfState;
  /** Ids of the entries this one links to, in data or translations. */
  references: string[];
}

export interface PlannedAsset {
  cfId: string;
  id: string;
  url: string;
  mime_type: string;
  width: number | null;
  height: number | null;
  alt_text: string | null;
  title: string | null;
  description: string | null;
  filename: string;
  original_name: string;
  size: number;
  /** Non-empty titles and descriptions of other locales than the one taken: not imported. */
  otherLocaleTexts: number;
}

export const entryIdFor = (workspaceId: string, cfId: string) => derivedId(workspaceId, `entry:${cfId}`);
export const assetIdFor = (workspaceId: string, cfId: string) => derivedId(workspaceId, `asset:${cfId}`);

/** The value of a per-locale map for `locale`, else for the first locale that has one. */
function localized<T>(values: Record<string, T> | undefined, locale: string): T | undefined {
  if (!values) return undefined;
  if (values[locale] !== undefined) return values[locale];
  return Object.values(values).find((v) => v !== undefined && v !== null);
}

/**
 * The text of a per-locale map for `locale` (else the first locale that has one: `localized`),
 * null when empty, cut to `max` characters with a warning; and how many non-empty texts of
 * other locales are left out.
 */
function localizedText(
  values: Record<string, unknown> | undefined,
  locale: string,
  max: number,
  warn: (message: string) => void,
): { text: string | null; others: number } {
  const value = localized(values, locale);
  const text = typeof value === 'string' && value ? value : null;
  const others = Object.values(values ?? {}).filter((v) => typeof v === 'string' && v !== '').length - (text === null ? 0 : 1);
  if (text !== null && text.length > max) {
    warn(`is longer than ${max} characters and is cut there`);
    return { text: text.slice(0, max), others };
  }
  return { text, others };
}

function positiveInt(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

/** A media record for an asset, or null (with a warning) when it has no file URL. */
export function planAsset(asset: CfAsset, workspaceId: string, exportDefault: string, warnings: string[]): PlannedAsset | null {
  const file = localized(asset.fields.file, exportDefault);
  if (!isPlainObject(file) || typeof file.url !== 'string' || !file.url) {
    warnings.push(`asset '${asset.sys.id}' has no file URL and is skipped`);
    return null;
  }
  const url = file.url.startsWith('//') ? `https:${file.url}` : /^https?:\/\//.test(file.url) ? file.url : `https://${file.url.replace(/^\/+/, '')}`;
  const fromUrl = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '') || asset.sys.id;
  const name = typeof file.fileName === 'string' && file.fileName ? file.fileName : fromUrl;
  const warn = (what: string) => (message: string) => warnings.push(`asset '${asset.sys.id}': its ${what} ${message}`);
  const title = localizedText(asset.fields.title, exportDefault, MAX_TITLE, warn('title'));
  const description = localizedText(asset.fields.description, exportDefault, MAX_DESCRIPTION, warn('description'));
  const image = isPlainObject(file.details) && isPlainObject(file.details.image) ? file.details.image : {};
  return {
    cfId: asset.sys.id,
    id: assetIdFor(workspaceId, asset.sys.id),
    url,
    mime_type: typeof file.contentType === 'string' && file.contentType ? file.contentType : 'application/octet-stream',
    width: positiveInt(image.width),
    height: positiveInt(image.height),
    alt_text: title.text,
    title: title.text,
    description: description.text,
    filename: name,
    original_name: name,
    size: positiveInt(isPlainObject(file.details) ? file.details.size : undefined) ?? 0,
    otherLocaleTexts: title.others + description.others,
  };
}

/** The warning for `count` asset titles and descriptions of other locales than the default (null for none). */
export function otherLocaleTextsWarning(count: number, exportDefault: string): string | null {
  if (count === 0) return null;
  return `asset titles and descriptions in other locales than '${exportDefault}' are not imported (${count} value${count === 1 ? '' : 's'}): a Quire media asset has one title and one description, those of the default locale`;
}

/** A Contentful Date value without a zone: a date alone, or a local time (`2024-05-01T10:00`). */
const ZONELESS = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?$/;

/** True when `value` is a Contentful Date value without a zone, which toIsoDatetime reads as UTC. */
export function isZonelessDate(value: unknown): boolean {
  return typeof value === 'string' && ZONELESS.test(value.trim());
}

/**
 * A Contentful Date value for a `datetime` field, in Quire's canonical form (lib/time.ts
 * parseDatetime), the export's offset kept: `2024-05-01T10:00+02:00` →
 * `2024-05-01T10:00:00.000+02:00`. A value without a zone (a date alone, or Contentful's local
 * time format) is read as UTC, so the time stays as written: `2024-05-01T10:00` →
 * `2024-05-01T10:00:00.000Z` (planSchema warns about each field holding such values); undefined
 * for anything else.
 */
export function toIsoDatetime(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  let text = value.trim();
  if (ZONELESS.test(text)) text += text.length === 10 ? 'T00:00Z' : 'Z';
  return parseDatetime(text)?.text;
}

/** Quire ids of the export's imported items by Contentful id (entryIdFor, assetIdFor); undefined for one not imported. */
export interface LinkResolver {
  entry(cfId: string): string | undefined;
  asset(cfId: string): string | undefined;
}

function linkId(value: unknown, linkType: 'Entry' | 'Asset'): string | undefined {
  if (!isPlainObject(value) || !isPlainObject(value.sys)) return undefined;
  const sys = value.sys;
  return sys.type === 'Link' && sys.linkType === linkType && typeof sys.id === 'string' ? sys.id : undefined;
}

/**
 * A copy of a rich-text node with every entry and asset link pointing at the Quire id of its
 * imported target (`data.target.sys.id`; type and linkType kept), as `resolve` gives it (which
 * also reports a target it does not know). Such an unresolved link is taken out: a hyperlink's
 * content replaces it (the text stays), an embedded entry or asset is removed. Returns the
 * node(s) that take the node's place.
 *
 * ### Examples
 * {nodeType:'entry-hyperlink', data:{target:{sys:{id:'cf1',…}}}, content:[text]} → same with id 'entry-uuid'
 */
export function remapRichText(
  node: Record<string, unknown>,
  resolve: (cfId: string, kind: 'Entry' | 'Asset') => string | undefined,
): Record<string, unknown>[] {
  const kind = typeof node.nodeType === 'string' ? RICH_TEXT_LINK_NODES[node.nodeType] : undefined;
  const content = Array.isArray(node.content)
    ? node.content.flatMap((child) => (isPlainObject(child) ? remapRichText(child, resolve) : [child as Record<string, unknown>]))
    : node.content;
  const out: Record<string, unknown> = { ...node, ...(content === undefined ? {} : { content }) };
  if (!kind) return [out];
  const cfId = linkId(isPlainObject(node.data) ? node.data.target : undefined, kind);
  const id = cfId === undefined ? undefined : resolve(cfId, kind);
  if (id === undefined) return String(node.nodeType).endsWith('-hyperlink') && Array.isArray(content) ? (content as Record<string, unknown>[]) : [];
  const data = node.data as Record<string, unknown>;
  const target = data.target as { sys: Record<string, unknown> };
  return [{ ...out, data: { ...data, target: { ...target, sys: { ...target.sys, id } } } }];
}

/**
 * The Quire value of one Contentful field value, or undefined when there is none to store.
 * `onDangling` is told about links whose target is not in the export.
 */
export function mapValue(field: PlannedField, value: unknown, links: LinkResolver, onDangling: (what: string) => void): unknown {
  if (value === null || value === undefined) return undefined;
  const resolve = (v: unknown, kind: 'Entry' | 'Asset'): string | undefined => {
    const cfId = linkId(v, kind);
    if (cfId === undefined) return undefined;
    const id = kind === 'Entry' ? links.entry(cfId) : links.asset(cfId);
    if (id === undefined) onDangling(`${kind.toLowerCase()} '${cfId}'`);
    return id;
  };
  switch (field.input.field_type) {
    case 'text':
      // A Symbol is one line in every Contentful editor; stray line breaks become spaces.
      return typeof value === 'string' ? value.replace(/\s*[\r\n]+\s*/g, ' ') : undefined;
    case 'textarea':
      return typeof value === 'string' ? value : undefined;
    case 'rich_text':
      // Links inside the document point at Quire ids like relation fields do (issue 12 item 2).
      return isPlainObject(value) ? remapRichText(value, (cfId, kind) => resolve({ sys: { type: 'Link', linkType: kind, id: cfId } }, kind))[0] : undefined;
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined;
    case 'datetime':
      return toIsoDatetime(value);
    case 'date':
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value.trim()) ? value.trim().slice(0, 10) : undefined;
    case 'select':
      // A value outside the `in` list (the rule came after it) cannot be stored in a select.
      return typeof value === 'string' && Array.isArray(field.input.options) && field.input.options.includes(value) ? value : undefined;
    case 'json':
      return value;
    case 'relation':
      return resolve(value, 'Entry');
    case 'media':
      return resolve(value, 'Asset');
    case 'multi_select':
      return Array.isArray(value) ? [...new Set(value.filter((s): s is string => typeof s === 'string'))] : undefined;
    case 'tags': {
      // A Symbol is one line of at most 256 characters; a repeated or empty item is left out.
      if (!Array.isArray(value)) return undefined;
      const items = value.filter((s): s is string => typeof s === 'string').map((s) => s.replace(/\s*[\r\n]+\s*/g, ' ').trim());
      return [...new Set(items.filter((s) => s.length > 0 && [...s].length <= MAX_TAG_LENGTH))].slice(0, MAX_TAGS);
    }
    case 'relation_list':
    case 'media_list': {
      if (!Array.isArray(value)) return undefined;
      const kind = field.input.field_type === 'relation_list' ? 'Entry' : 'Asset';
      return [...new Set(value.map((v) => resolve(v, kind)).filter((id): id is string => id !== undefined))];
    }
    default:
      return undefined;
  }
}

/** The workspace locale for an export locale, or null when it must be left out. */
function targetLocale(code: string, locales: LocaleMapping): string | null {
  if (code === locales.exportDefault) return locales.workspaceDefault;
  if (code === locales.workspaceDefault) return null;
  return locales.others.includes(code) ? code : null;
}

/** A slug candidate: the `slug` field, else the display field's value, else the Contentful id. */
function baseSlug(ct: PlannedContentType, data: EntryData, cfId: string): string {
  for (const name of [ct.slugField, ct.display_field]) {
    const v = name ? data[name] : undefined;
    const s = typeof v === 'string' || typeof v === 'number' ? slugify(String(v)) : '';
    if (s) return s;
  }
  return (
    cfId
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'entry'
  );
}

/** Plans one entry; null when its content type is not part of the plan. */
export function planEntry(
  entry: CfEntry,
  ct: PlannedContentType,
  workspaceId: string,
  locales: LocaleMapping,
  links: LinkResolver,
  warnings: string[],
): PlannedEntry {
  const data: EntryData = {};
  const translations: Record<string, EntryData> = {};
  const references = new Set<string>();
  for (const field of ct.fields) {
    const perLocale = entry.fields[field.cfId];
    if (!isPlainObject(perLocale)) continue;
    for (const [code, raw] of Object.entries(perLocale)) {
      const locale = targetLocale(code, locales);
      if (locale === null) continue;
      const isDefault = locale === locales.workspaceDefault;
      // Only localizable fields have translations (docs/api.md "Localization").
      if (!isDefault && !field.input.localizable) continue;
      const value = mapValue(field, raw, links, (what) =>
        warnings.push(`entry '${entry.sys.id}' (${ct.slug}.${field.input.name}, ${code}) links ${what}, which is not in the export; the link is dropped`),
      );
      if (value === undefined) continue;
      if (field.input.field_type === 'relation') references.add(value as string);
      if (field.input.field_type === 'relation_list') for (const id of value as string[]) references.add(id);
      if (isDefault) data[field.input.name] = value;
      else (translations[locale] ??= {})[field.input.name] = value;
    }
  }
  return {
    cfId: entry.sys.id,
    // The resolver has the id of every imported entry: one hash less per read of the entry.
    id: links.entry(entry.sys.id) ?? entryIdFor(workspaceId, entry.sys.id),
    typeSlug: ct.slug,
    baseSlug: baseSlug(ct, data, entry.sys.id),
    data,
    translations,
    state: cfState(entry.sys),
    references: [...references],
  };
}

/**
 * Final slugs, unique per content type (D31): `base`, then `base-2`, `base-3` … in export order,
 * never one of `reserved` (slugs held by other entries of the type, and route names). The same
 * inputs give the same slugs, so a second import keeps them.
 */
export function assignSlugs(
  entries: Iterable<Pick<PlannedEntry, 'id' | 'typeSlug' | 'baseSlug'>>,
  reserved: (typeSlug: string) => ReadonlySet<string>,
  maxLength = 200,
): Map<string, string> {
  const out = new Map<string, string>();
  const used = new Map<string, Set<string>>();
  for (const e of entries) {
    let taken = used.get(e.typeSlug);
    if (!taken) used.set(e.typeSlug, (taken = new Set(reserved(e.typeSlug))));
    const base = e.baseSlug.slice(0, maxLength - 8).replace(/-+$/, '') || 'entry';
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    taken.add(slug);
    out.set(e.id, slug);
  }
  return out;
}
