/**
 * Rich text for the delivery API (docs/api.md "Fields" (D33), "Field selection, sorting and filters"): a
 * stored Contentful rich-text document is returned as is by default, as sanitized HTML for
 * `fields=<name>_html` and as plain text for `fields=<name>_text`.
 *
 * HTML comes from the official client's renderer (`@quire/client/rich-text`, on
 * @contentful/rich-text-html-renderer), so a front end that renders a document itself with its
 * own renderers starts from exactly these rules, and then passes sanitize-html with a strict
 * allowlist, because stored documents are client input: only the tags the renderer emits for
 * Contentful block and inline nodes are kept; links keep `href` with the http, https, mailto and
 * tel schemes only (the renderer already keeps only the text of other hyperlinks).
 *
 * Links to entries and assets (issue 12 item 2) render from `links`, the targets the caller
 * resolved (delivery: visible to the key, for the requested locale):
 * - `entry-hyperlink` → `<a data-entry-id data-entry-type data-entry-slug>` around the node's own
 *   text, without `href`: Quire knows no public URL of an entry (the front end maps type and slug
 *   to its route);
 * - `embedded-entry-inline` → `<span data-entry-…>` and `embedded-entry-block` → `<div
 *   data-entry-…>` holding the target's display-field value (its slug when that is empty);
 * - `asset-hyperlink` → `<a href="media URL" data-media-id>` around the node's text;
 * - `embedded-asset-block` → `<img src alt width height data-media-id>` for an image, else a link
 *   to the file named by its alt text.
 * A hyperlink whose target is not resolved (missing, deleted, not visible) keeps only its text;
 * an embedded one renders to nothing.
 */
import { createRequire } from 'node:module';
import { renderRichText } from '@quire/client/rich-text';
import { documentToPlainTextString } from '@contentful/rich-text-plain-text-renderer';
import type { Document } from '@contentful/rich-text-types';
import type sanitizeHtml from 'sanitize-html';
import { isPlainObject } from '../../lib/json.js';

const require = createRequire(import.meta.url);
let sanitizer: typeof sanitizeHtml | undefined;

/**
 * sanitize-html, loaded (synchronously, it is CommonJS) on the first HTML rendering rather than
 * at start: with its parsers it holds about 1 MiB that a process never asked for `_html` does not
 * need (docs/scaling.md "Memory").
 */
function loadSanitizer(): typeof sanitizeHtml {
  sanitizer ??= require('sanitize-html') as typeof sanitizeHtml;
  return sanitizer;
}

const ENTRY_ATTRS = ['data-entry-id', 'data-entry-type', 'data-entry-slug'];

/** A linked entry as rendered: its id, content type slug, slug and display-field value (null: none). */
export interface RichTextEntryTarget {
  id: string;
  type: string;
  slug: string;
  display: string | null;
}

/** A linked media asset as rendered. */
export interface RichTextAssetTarget {
  id: string;
  url: string;
  mime_type: string;
  alt_text: string | null;
  width: number | null;
  height: number | null;
}

/** The link targets a rendering may use, by Quire id; undefined: not resolved. */
export interface RichTextLinks {
  entry(id: string): RichTextEntryTarget | undefined;
  asset(id: string): RichTextAssetTarget | undefined;
}

const NO_LINKS: RichTextLinks = { entry: () => undefined, asset: () => undefined };

/** Node types whose `data.target` links an entry or an asset. */
export const RICH_TEXT_LINK_NODES: Readonly<Record<string, 'Entry' | 'Asset'>> = {
  'entry-hyperlink': 'Entry',
  'embedded-entry-block': 'Entry',
  'embedded-entry-inline': 'Entry',
  'asset-hyperlink': 'Asset',
  'embedded-asset-block': 'Asset',
};

/** The target id of a link node, or undefined. */
export function richTextTargetId(node: unknown): string | undefined {
  if (!isPlainObject(node) || !isPlainObject(node.data) || !isPlainObject(node.data.target)) return undefined;
  const sys = node.data.target.sys;
  return isPlainObject(sys) && typeof sys.id === 'string' ? sys.id : undefined;
}

/** Every entry and asset id a rich-text value links to (any depth). */
export function richTextTargets(value: unknown, into: { entries: Set<string>; media: Set<string> }): void {
  const stack: unknown[] = [value];
  while (stack.length) {
    const node = stack.pop();
    if (!isPlainObject(node)) continue;
    const kind = typeof node.nodeType === 'string' ? RICH_TEXT_LINK_NODES[node.nodeType] : undefined;
    const id = kind ? richTextTargetId(node) : undefined;
    if (id !== undefined) (kind === 'Entry' ? into.entries : into.media).add(id);
    if (Array.isArray(node.content)) stack.push(...node.content);
  }
}

const SANITIZE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'ul',
    'ol',
    'li',
    'blockquote',
    'hr',
    'br',
    'b',
    'strong',
    'i',
    'em',
    'u',
    'code',
    'pre',
    'sub',
    'sup',
    'a',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'div',
    'span',
    'img',
  ],
  allowedAttributes: {
    a: ['href', ...ENTRY_ATTRS, 'data-media-id'],
    div: ENTRY_ATTRS,
    span: ENTRY_ATTRS,
    img: ['src', 'alt', 'width', 'height', 'loading', 'data-media-id'],
    th: ['colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
};

/** True for a value shaped like a rich-text document (`nodeType: 'document'` with content). */
export function isRichTextDocument(value: unknown): value is Document {
  return isPlainObject(value) && value.nodeType === 'document' && Array.isArray(value.content);
}

/**
 * Sanitized HTML of a rich-text document, or null when `value` is not one. Entry and asset links
 * render from `links` (none resolved when omitted: hyperlinks keep their text only).
 *
 * ### Examples
 * richTextToHtml({nodeType: 'document', content: [paragraph "a <b>"]}) → `<p>a &lt;b&gt;</p>`
 */
export function richTextToHtml(value: unknown, links: RichTextLinks = NO_LINKS): string | null {
  if (!isRichTextDocument(value)) return null;
  const sanitize = loadSanitizer();
  try {
    return sanitize(renderRichText(value, { entry: (id) => links.entry(id), asset: (id) => links.asset(id) }), SANITIZE_OPTIONS);
  } catch {
    // A structurally odd document (accepted before validation existed) yields no HTML, not a 500.
    return null;
  }
}

/** Plain text of a rich-text document (blocks separated by a space), or null when not one. */
export function richTextToText(value: unknown): string | null {
  if (!isRichTextDocument(value)) return null;
  try {
    return documentToPlainTextString(value, ' ');
  } catch {
    return null;
  }
}
