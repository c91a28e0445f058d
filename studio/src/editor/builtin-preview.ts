/**
 * The pure part of the built-in preview (docs/studio.md "Live preview"): which value a field shows
 * in a locale, the sanitized HTML of a rich-text value, the URL of an image at a width, and a
 * page's block tree with its types' names and fields.
 */
import DOMPurify from 'dompurify';
import { renderRichText, type RichTextAssetLink, type RichTextEntryLink } from '../../../packages/client/src/rich-text.js';
import type { ContentType, Field } from '../api/types';
import type { EntryData, Translations } from '../screens/entries/api';

/** The values of an entry or a block: default-locale `data` and per-locale `translations`. */
export interface PreviewValues {
  data: EntryData;
  translations: Translations;
}

/**
 * The value a field shows in `locale`, as delivery gives it: a localizable field's translation
 * when the locale has one (neither absent nor null), else the default-locale value; a field that
 * is not localizable always has its default-locale value.
 */
export function valueIn(field: Pick<Field, 'name' | 'localizable'>, values: PreviewValues, locale: string, defaultLocale: string): unknown {
  if (field.localizable && locale !== defaultLocale) {
    const translated = values.translations[locale]?.[field.name];
    if (translated !== undefined && translated !== null) return translated;
  }
  return values.data[field.name];
}

/** True when a value shows nothing: absent, null, an empty string or an empty list. */
export function isEmptyValue(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);
}

/**
 * The HTML of a rich-text document, rendered by @quire/client's renderer (the same HTML as the
 * delivery API's `_html` fields) and sanitized with DOMPurify before anyone inserts it; '' for a
 * value that is not a document. `entry` and `asset` resolve linked ids (unresolved links keep
 * their text, unresolved embeds render nothing).
 */
export function richTextHtml(
  document: unknown,
  resolve: { entry?: (id: string) => RichTextEntryLink | undefined; asset?: (id: string) => RichTextAssetLink | undefined } = {},
): string {
  return DOMPurify.sanitize(renderRichText(document, resolve));
}

/**
 * The URL of an image at `width` pixels, through the media transforms (`w`, and `fm=webp`);
 * SVG as stored (it has no pixels to resize).
 */
export function imageAt(url: string, mimeType: string, width: number): string {
  if (mimeType === 'image/svg+xml') return url;
  return `${url}${url.includes('?') ? '&' : '?'}w=${width}&fm=webp`;
}

/** A block of a page as the preview draws it: its type's name and fields, its values, its children. */
export interface PreviewBlock {
  id: string;
  /** the block type's slug */
  type: string;
  /** the block type's name; null when the type is not known */
  typeName: string | null;
  fields: Field[];
  values: PreviewValues;
  children: PreviewBlock[];
}

/**
 * A page's block tree as the preview draws it: each block with its type's name and fields (a
 * block of a type not in `types` keeps its slug and shows no fields).
 */
export function previewBlocks(
  nodes: readonly { id: string; type: string; data: EntryData; translations: Translations; children: readonly unknown[] }[],
  types: readonly ContentType[],
): PreviewBlock[] {
  return nodes.map((node) => {
    const type = types.find((t) => t.slug === node.type);
    return {
      id: node.id,
      type: node.type,
      typeName: type?.name ?? null,
      fields: type?.fields ?? [],
      values: { data: node.data, translations: node.translations },
      children: previewBlocks(node.children as typeof nodes, types),
    };
  });
}
