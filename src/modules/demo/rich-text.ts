/**
 * A small builder for Contentful rich-text documents (docs/api.md "Fields" (D33)), so the demo content
 * reads as text rather than as nested JSON. Strings stand for plain text nodes.
 *
 * ### Examples
 * doc(h2('Hello'), p('Plain and ', bold('bold'), ' text.'), ul('one', 'two'))
 */

export interface RichTextNode {
  nodeType: string;
  data: Record<string, unknown>;
  content?: RichTextNode[];
  value?: string;
  marks?: { type: string }[];
}

type Inline = string | RichTextNode;

function text(value: string, marks: string[] = []): RichTextNode {
  return { nodeType: 'text', value, marks: marks.map((type) => ({ type })), data: {} };
}

function inlines(parts: Inline[]): RichTextNode[] {
  return parts.map((part) => (typeof part === 'string' ? text(part) : part));
}

export const bold = (value: string): RichTextNode => text(value, ['bold']);
export const italic = (value: string): RichTextNode => text(value, ['italic']);
export const code = (value: string): RichTextNode => text(value, ['code']);

export function link(uri: string, label: string): RichTextNode {
  return { nodeType: 'hyperlink', data: { uri }, content: [text(label)] };
}

export function p(...parts: Inline[]): RichTextNode {
  return { nodeType: 'paragraph', data: {}, content: inlines(parts) };
}

export function h2(title: string): RichTextNode {
  return { nodeType: 'heading-2', data: {}, content: [text(title)] };
}

export function quote(...parts: Inline[]): RichTextNode {
  return { nodeType: 'blockquote', data: {}, content: [p(...parts)] };
}

/** A bulleted list; each item is one paragraph. */
export function ul(...items: (Inline | Inline[])[]): RichTextNode {
  return {
    nodeType: 'unordered-list',
    data: {},
    content: items.map((item) => ({ nodeType: 'list-item', data: {}, content: [p(...(Array.isArray(item) ? item : [item]))] })),
  };
}

export function doc(...blocks: RichTextNode[]): RichTextNode {
  return { nodeType: 'document', data: {}, content: blocks };
}
