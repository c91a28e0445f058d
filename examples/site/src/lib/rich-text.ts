/**
 * Rich-text documents (Contentful's JSON document model, which Quire stores and delivers for
 * `rich_text` fields) as a checked tree for src/components/RichText.astro, which renders it node by
 * node. The delivery API can also return sanitized HTML (`fields=body_html`), but the document is
 * what a preview's working copy and every block field carry, so the site renders documents only.
 */
import { isRecord } from './values.js';

export interface RichTextNode {
  nodeType: string;
  /** Text of a `text` node; '' for other nodes. */
  value: string;
  /** Mark types of a `text` node: bold, italic, underline, code. */
  marks: string[];
  /** The node's `data`: a hyperlink's `uri`, an embedded entry's `target`. */
  data: Record<string, unknown>;
  content: RichTextNode[];
}

function node(value: unknown, depth: number): RichTextNode | null {
  // Quire limits stored JSON to 64 levels; deeper trees are cut rather than recursed into.
  if (!isRecord(value) || typeof value.nodeType !== 'string' || depth > 64) return null;
  const content = Array.isArray(value.content) ? value.content.map((c) => node(c, depth + 1)).filter((c): c is RichTextNode => c !== null) : [];
  const marks = Array.isArray(value.marks) ? value.marks.flatMap((m) => (isRecord(m) && typeof m.type === 'string' ? [m.type] : [])) : [];
  return {
    nodeType: value.nodeType,
    value: typeof value.value === 'string' ? value.value : '',
    marks,
    data: isRecord(value.data) ? value.data : {},
    content,
  };
}

/** The document in `value` (a `document` node), or null when it is none. */
export function toRichText(value: unknown): RichTextNode | null {
  const doc = node(value, 0);
  return doc && doc.nodeType === 'document' ? doc : null;
}

/** The plain text of a node (for excerpts and alt texts). */
export function plainText(n: RichTextNode): string {
  return n.nodeType === 'text' ? n.value : n.content.map(plainText).join(n.nodeType === 'document' ? '\n' : '');
}

export type HeadingTag = 'h2' | 'h3' | 'h4' | 'h5' | 'h6';

/**
 * The HTML element of a heading node, one level down: the page's title is its only h1, so a
 * document's `heading-1` becomes h2 (and `heading-6` stays h6). Null for other nodes.
 */
export function headingTag(nodeType: string): HeadingTag | null {
  switch (nodeType) {
    case 'heading-1':
    case 'heading-2':
      return 'h2';
    case 'heading-3':
      return 'h3';
    case 'heading-4':
      return 'h4';
    case 'heading-5':
      return 'h5';
    case 'heading-6':
      return 'h6';
    default:
      return null;
  }
}
