/**
 * The two shapes the rich-text widget converts between: Contentful rich-text documents (what a
 * `rich_text` field stores, DECISIONS D33; node types of @contentful/rich-text-types) and the
 * ProseMirror JSON that Tiptap edits. Both are plain JSON, so these are structural types only.
 */

/** A mark of a Contentful text node (`bold`, `italic`, `underline`, `code`, …). */
export interface CfMark {
  type: string;
}

/** Any node of a Contentful rich-text document. */
export interface CfNode {
  nodeType: string;
  data?: Record<string, unknown>;
  content?: CfNode[];
  /** text nodes only */
  value?: string;
  /** text nodes only */
  marks?: CfMark[];
}

export interface CfDocument extends CfNode {
  nodeType: 'document';
  data: Record<string, unknown>;
  content: CfNode[];
}

export interface PmMark {
  type: string;
  attrs?: Record<string, unknown>;
}

/** ProseMirror/Tiptap JSON of a node (`editor.getJSON()`). */
export interface PmNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: PmNode[];
  marks?: PmMark[];
  text?: string;
}

/** Contentful node types the converter maps to dedicated Tiptap nodes and marks. */
export const CF = {
  document: 'document',
  paragraph: 'paragraph',
  ul: 'unordered-list',
  ol: 'ordered-list',
  li: 'list-item',
  quote: 'blockquote',
  hr: 'hr',
  embeddedEntryBlock: 'embedded-entry-block',
  embeddedAssetBlock: 'embedded-asset-block',
  embeddedEntryInline: 'embedded-entry-inline',
  hyperlink: 'hyperlink',
  entryHyperlink: 'entry-hyperlink',
  assetHyperlink: 'asset-hyperlink',
  text: 'text',
} as const;

/** Contentful mark type → Tiptap mark name; other marks travel as `cfMark` with their type. */
export const MARKS_TO_PM: Record<string, string> = {
  bold: 'bold',
  italic: 'italic',
  underline: 'underline',
  code: 'code',
  strikethrough: 'strike',
  superscript: 'superscript',
  subscript: 'subscript',
};

export const MARKS_TO_CF: Record<string, string> = Object.fromEntries(Object.entries(MARKS_TO_PM).map(([cf, pm]) => [pm, cf]));

/** A Contentful link to an entry or asset, as `data.target` of embeds and entry/asset hyperlinks. */
export function linkTarget(id: string, linkType: 'Entry' | 'Asset'): Record<string, unknown> {
  return { target: { sys: { id, type: 'Link', linkType } } };
}

/** The id of `data.target.sys.id`, or null when the node names none. */
export function targetId(node: CfNode): string | null {
  const target = node.data?.target as { sys?: { id?: unknown } } | undefined;
  return typeof target?.sys?.id === 'string' ? target.sys.id : null;
}
