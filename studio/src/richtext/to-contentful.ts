/**
 * ProseMirror JSON from the Tiptap editor → Contentful rich-text document (D33), the value a
 * `rich_text` field stores. The inverse of from-contentful.ts:
 *
 * - Contentful has no code block: a code block is written as a paragraph holding one text node
 *   with the `code` mark, tagged `data.codeBlock: true` (and `data.language` when set), so any
 *   Contentful renderer shows it as code and this editor reads it back as a code block.
 * - Link marks become `hyperlink` / `entry-hyperlink` / `asset-hyperlink` nodes around the runs of
 *   text that carry them; hard breaks become "\n" inside text values; adjacent text nodes with
 *   the same marks are merged, so a document read and written unchanged comes out as it went in.
 * - `cfBlock` / `cfInline` atoms give back the Contentful node they hold, untouched.
 * - An empty paragraph holds one empty text node, as Contentful's own editor writes it.
 */
import { CF, MARKS_TO_CF, linkTarget, type CfDocument, type CfNode, type PmMark, type PmNode } from './types';

const LINK_MARKS = new Set(['link', 'entryLink', 'assetLink']);

function text(value: string, marks: PmMark[]): CfNode {
  const cfMarks = marks
    .filter((m) => !LINK_MARKS.has(m.type))
    .map((m) => ({ type: m.type === 'cfMark' ? String(m.attrs?.type ?? '') : (MARKS_TO_CF[m.type] ?? m.type) }));
  return { nodeType: CF.text, value, marks: cfMarks, data: {} };
}

/** The one link mark of an inline node (a run of text can only be inside one hyperlink). */
function linkOf(node: PmNode): PmMark | null {
  return node.marks?.find((m) => LINK_MARKS.has(m.type)) ?? null;
}

function sameLink(a: PmMark | null, b: PmMark | null): boolean {
  if (!a || !b) return a === b;
  return a.type === b.type && (a.type === 'link' ? a.attrs?.href === b.attrs?.href : a.attrs?.id === b.attrs?.id);
}

function hyperlink(link: PmMark, content: CfNode[]): CfNode {
  if (link.type === 'link') return { nodeType: CF.hyperlink, data: { uri: String(link.attrs?.href ?? '') }, content };
  const isEntry = link.type === 'entryLink';
  return { nodeType: isEntry ? CF.entryHyperlink : CF.assetHyperlink, data: linkTarget(String(link.attrs?.id ?? ''), isEntry ? 'Entry' : 'Asset'), content };
}

function inlineNode(node: PmNode): CfNode | null {
  switch (node.type) {
    case 'text':
      return text(node.text ?? '', node.marks ?? []);
    case 'hardBreak':
      return text('\n', node.marks ?? []);
    case 'inlineEntry':
      return { nodeType: CF.embeddedEntryInline, data: linkTarget(String(node.attrs?.id ?? ''), 'Entry'), content: [] };
    case 'cfInline':
      return node.attrs?.node as CfNode;
    default:
      return null;
  }
}

function sameMarks(a: CfNode, b: CfNode): boolean {
  const x = (a.marks ?? []).map((m) => m.type);
  const y = (b.marks ?? []).map((m) => m.type);
  return x.length === y.length && x.every((t, i) => t === y[i]);
}

/** Merges neighbouring text nodes that carry the same marks. */
function merged(nodes: CfNode[]): CfNode[] {
  const out: CfNode[] = [];
  for (const node of nodes) {
    const last = out[out.length - 1];
    if (last && last.nodeType === CF.text && node.nodeType === CF.text && sameMarks(last, node)) {
      out[out.length - 1] = { ...last, value: (last.value ?? '') + (node.value ?? '') };
    } else out.push(node);
  }
  return out;
}

function inlines(nodes: PmNode[] | undefined): CfNode[] {
  const out: CfNode[] = [];
  let group: { link: PmMark; content: CfNode[] } | null = null;
  const flush = () => {
    if (group) out.push(hyperlink(group.link, merged(group.content)));
    group = null;
  };
  for (const node of nodes ?? []) {
    const cf = inlineNode(node);
    if (!cf) continue;
    const link = node.type === 'text' || node.type === 'hardBreak' ? linkOf(node) : null;
    if (link && group && sameLink(group.link, link)) group.content.push(cf);
    else {
      flush();
      if (link) group = { link, content: [cf] };
      else out.push(cf);
    }
  }
  flush();
  const result = merged(out);
  return result.length ? result : [text('', [])];
}

function plainText(node: PmNode): string {
  if (node.type === 'text') return node.text ?? '';
  if (node.type === 'hardBreak') return '\n';
  return (node.content ?? []).map(plainText).join('');
}

function block(node: PmNode): CfNode | null {
  switch (node.type) {
    case 'paragraph':
      return { nodeType: CF.paragraph, data: {}, content: inlines(node.content) };
    case 'heading':
      return { nodeType: `heading-${Number(node.attrs?.level ?? 1)}`, data: {}, content: inlines(node.content) };
    case 'bulletList':
      return { nodeType: CF.ul, data: {}, content: blocks(node.content) };
    case 'orderedList':
      return { nodeType: CF.ol, data: {}, content: blocks(node.content) };
    case 'listItem':
      return { nodeType: CF.li, data: {}, content: blocks(node.content) };
    case 'blockquote':
      return { nodeType: CF.quote, data: {}, content: blocks(node.content) };
    case 'horizontalRule':
      return { nodeType: CF.hr, data: {}, content: [] };
    case 'codeBlock': {
      const language = typeof node.attrs?.language === 'string' && node.attrs.language ? { language: node.attrs.language } : {};
      return { nodeType: CF.paragraph, data: { codeBlock: true, ...language }, content: [text(plainText(node), [{ type: 'code' }])] };
    }
    case 'embeddedEntry':
      return { nodeType: CF.embeddedEntryBlock, data: linkTarget(String(node.attrs?.id ?? ''), 'Entry'), content: [] };
    case 'embeddedAsset':
      return { nodeType: CF.embeddedAssetBlock, data: linkTarget(String(node.attrs?.id ?? ''), 'Asset'), content: [] };
    case 'cfBlock':
      return node.attrs?.node as CfNode;
    default:
      // A node this converter does not know (none in the editor's schema): keep its text.
      return { nodeType: CF.paragraph, data: {}, content: [text(plainText(node), [])] };
  }
}

function blocks(nodes: PmNode[] | undefined): CfNode[] {
  return (nodes ?? []).map(block).filter((n): n is CfNode => n !== null);
}

function isEmptyParagraph(n: CfNode): boolean {
  return n.nodeType === CF.paragraph && !n.data?.codeBlock && (n.content ?? []).every((c) => c.nodeType === CF.text && !c.value);
}

/**
 * The Contentful document for the editor's ProseMirror JSON (`editor.getJSON()`). Empty
 * paragraphs at the end are left out: the editor keeps one after a block it cannot type into
 * (Tiptap's trailing node, after an embed or a list), and readers would get it as a blank line.
 * A document of empty paragraphs only keeps its first, as Contentful writes an empty document;
 * isEmptyDocument tells the widget to store no value then.
 */
export function pmToContentful(doc: PmNode): CfDocument {
  const content = blocks(doc.content);
  let end = content.length;
  while (end > 1 && isEmptyParagraph(content[end - 1])) end -= 1;
  return { nodeType: 'document', data: {}, content: content.slice(0, end) };
}

/**
 * True when a document holds nothing a reader would see: only empty paragraphs. The widget stores
 * no value then (null), so `required` treats an emptied editor as missing.
 */
export function isEmptyDocument(doc: CfDocument): boolean {
  return doc.content.every(isEmptyParagraph);
}
