/**
 * Rendering rich text in a front end, with your own renderers (`@quire/client/rich-text`).
 *
 * The delivery API renders a rich-text field as sanitized HTML (`fields=body_html`). When a front
 * end needs another rendering (its own components for embedded entries, links to its own routes,
 * extra classes), it reads the document itself (`fields=body`, or any delivered entry's `data`)
 * and renders it here: `renderRichText(document, options)` gives the same HTML as `body_html` by
 * default and lets `renderNode` / `renderMark` replace the rendering of any node type or mark.
 *
 * Links to entries and assets carry only Quire ids (`data.target.sys.id`); `entry(id)` and
 * `asset(id)` resolve them from what the front end loaded (e.g. the entries of a relation field,
 * or `quire.media.get(id)`). By default, as in `body_html`: an `entry-hyperlink` becomes `<a
 * data-entry-id data-entry-type data-entry-slug>` without `href`; embedded entries a `<div>` /
 * `<span>` with the entry's display text; asset links and embedded images point at the media URL;
 * an unresolved link keeps only its text and an unresolved embed renders nothing. A `hyperlink`
 * keeps its `href` only for http, https, mailto, tel and relative addresses. Text is escaped;
 * what custom renderers return is used as is (escape what you interpolate: `escapeHtml`).
 */
import { documentToHtmlString, type Next, type RenderMark, type RenderNode } from '@contentful/rich-text-html-renderer';
import type { Block, Document, Inline } from '@contentful/rich-text-types';
import type { RichTextDocument, RichTextNode } from './types.js';

/** A linked entry as a rendering needs it: its id, content type slug, slug and display text. */
export interface RichTextEntryLink {
  id: string;
  type: string;
  slug: string;
  /** the text shown for an embedded entry (its slug when absent) */
  display?: string | null;
}

/** A linked asset as a rendering needs it (a delivery media object fits). */
export interface RichTextAssetLink {
  id: string;
  url: string;
  mime_type: string;
  alt_text?: string | null;
  width?: number | null;
  height?: number | null;
}

/** Renders one node; `next` renders a list of child nodes with the same options. */
export type RichTextNodeRenderer = (node: RichTextNode, next: (nodes: RichTextNode[] | undefined) => string) => string;

export interface RenderRichTextOptions {
  /** by node type (`paragraph`, `heading-2`, `embedded-entry-block`, `hyperlink`, …) */
  renderNode?: Partial<Record<string, RichTextNodeRenderer>>;
  /** by mark (`bold`, `italic`, `underline`, `code`, …): receives the escaped text */
  renderMark?: Partial<Record<string, (text: string) => string>>;
  /** resolves a linked entry by Quire id; undefined or null: not available */
  entry?: (id: string) => RichTextEntryLink | null | undefined;
  /** resolves a linked asset by Quire id; undefined or null: not available */
  asset?: (id: string) => RichTextAssetLink | null | undefined;
}

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The Quire id a link node targets (`data.target.sys.id`), or undefined. */
export function richTextTargetId(node: RichTextNode | Block | Inline): string | undefined {
  const target = isRecord(node.data) ? node.data.target : undefined;
  const sys = isRecord(target) ? target.sys : undefined;
  return isRecord(sys) && typeof sys.id === 'string' ? sys.id : undefined;
}

/** True for a rich-text document (`nodeType: 'document'` with a content array). */
export function isRichTextDocument(value: unknown): value is RichTextDocument {
  return isRecord(value) && value.nodeType === 'document' && Array.isArray(value.content);
}

/** http(s), mailto, tel, or relative (a path, a query, a fragment); never `//host` or another scheme. */
const SAFE_HREF = /^(?:https?:|mailto:|tel:|\/(?!\/)|[#?]|[^:/?#]+(?:[/?#]|$))/i;

function defaultRenderers(options: RenderRichTextOptions): RenderNode {
  const entry = (node: Block | Inline) => {
    const id = richTextTargetId(node);
    return id === undefined ? undefined : (options.entry?.(id) ?? undefined);
  };
  const asset = (node: Block | Inline) => {
    const id = richTextTargetId(node);
    return id === undefined ? undefined : (options.asset?.(id) ?? undefined);
  };
  const entryAttrs = (t: RichTextEntryLink) =>
    `data-entry-id="${escapeHtml(t.id)}" data-entry-type="${escapeHtml(t.type)}" data-entry-slug="${escapeHtml(t.slug)}"`;
  return {
    hyperlink: (node, next: Next) => {
      const uri = isRecord(node.data) && typeof node.data.uri === 'string' ? node.data.uri.trim() : '';
      return uri && SAFE_HREF.test(uri) ? `<a href="${escapeHtml(uri)}">${next(node.content)}</a>` : next(node.content);
    },
    'entry-hyperlink': (node, next: Next) => {
      const t = entry(node);
      return t ? `<a ${entryAttrs(t)}>${next(node.content)}</a>` : next(node.content);
    },
    'embedded-entry-inline': (node) => {
      const t = entry(node);
      return t ? `<span ${entryAttrs(t)}>${escapeHtml(t.display ?? t.slug)}</span>` : '';
    },
    'embedded-entry-block': (node) => {
      const t = entry(node);
      return t ? `<div ${entryAttrs(t)}>${escapeHtml(t.display ?? t.slug)}</div>` : '';
    },
    'asset-hyperlink': (node, next: Next) => {
      const a = asset(node);
      return a ? `<a href="${escapeHtml(a.url)}" data-media-id="${escapeHtml(a.id)}">${next(node.content)}</a>` : next(node.content);
    },
    'embedded-asset-block': (node) => {
      const a = asset(node);
      if (!a) return '';
      if (a.mime_type.startsWith('image/')) {
        const size = (a.width ? ` width="${a.width}"` : '') + (a.height ? ` height="${a.height}"` : '');
        return `<img src="${escapeHtml(a.url)}" alt="${escapeHtml(a.alt_text ?? '')}"${size} loading="lazy" data-media-id="${escapeHtml(a.id)}" />`;
      }
      const name = a.alt_text || a.url.split('/').pop() || a.id;
      return `<p><a href="${escapeHtml(a.url)}" data-media-id="${escapeHtml(a.id)}">${escapeHtml(name)}</a></p>`;
    },
  };
}

/**
 * HTML of a rich-text document with the default renderers (as `body_html`) and yours on top;
 * '' for anything that is not a document (null, a string, a damaged value).
 *
 * ### Example
 * renderRichText(post.data.body, {
 *   renderNode: { 'embedded-entry-block': (node) => `<product-card id="${escapeHtml(richTextTargetId(node) ?? '')}"></product-card>` },
 *   entry: (id) => related.get(id),
 * })
 */
export function renderRichText(document: unknown, options: RenderRichTextOptions = {}): string {
  if (!isRichTextDocument(document)) return '';
  const renderNode: RenderNode = defaultRenderers(options);
  for (const [type, render] of Object.entries(options.renderNode ?? {})) {
    if (render) renderNode[type] = (node, next: Next) => render(node as RichTextNode, (nodes) => next((nodes ?? []) as (Block | Inline)[]));
  }
  const renderMark: RenderMark = {};
  for (const [mark, render] of Object.entries(options.renderMark ?? {})) if (render) renderMark[mark] = render;
  // The document was checked to be a document node; its children are the renderer's own concern.
  return documentToHtmlString(document as unknown as Document, { renderNode, renderMark });
}
