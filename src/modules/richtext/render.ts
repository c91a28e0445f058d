/**
 * Rich text for the delivery API (DECISIONS.md D33; api.md "Sorting and field selection"): a
 * stored Contentful rich-text document is returned as is by default, as sanitized HTML for
 * `fields=<name>_html` and as plain text for `fields=<name>_text`.
 *
 * HTML comes from @contentful/rich-text-html-renderer and then passes sanitize-html with a strict
 * allowlist, because stored documents are client input: the renderer escapes text values, but a
 * hyperlink's `uri` is copied into `href` verbatim (a `javascript:` link would survive). Only the
 * tags the renderer emits for Contentful block and inline nodes are kept; links keep `href` with
 * the http, https, mailto and tel schemes only. Embedded entries and assets render to nothing.
 */
import { documentToHtmlString } from '@contentful/rich-text-html-renderer';
import { documentToPlainTextString } from '@contentful/rich-text-plain-text-renderer';
import type { Document } from '@contentful/rich-text-types';
import sanitizeHtml from 'sanitize-html';
import { isPlainObject } from '../../lib/json.js';

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
  ],
  allowedAttributes: { a: ['href'], th: ['colspan', 'rowspan'], td: ['colspan', 'rowspan'] },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
};

/** True for a value shaped like a rich-text document (`nodeType: 'document'` with content). */
export function isRichTextDocument(value: unknown): value is Document {
  return isPlainObject(value) && value.nodeType === 'document' && Array.isArray(value.content);
}

/**
 * Sanitized HTML of a rich-text document, or null when `value` is not one.
 *
 * ### Examples
 * richTextToHtml({nodeType: 'document', content: [paragraph "a <b>"]}) → `<p>a &lt;b&gt;</p>`
 */
export function richTextToHtml(value: unknown): string | null {
  if (!isRichTextDocument(value)) return null;
  try {
    return sanitizeHtml(documentToHtmlString(value), SANITIZE_OPTIONS);
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
