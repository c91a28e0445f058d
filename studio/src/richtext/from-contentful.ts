/**
 * Contentful rich-text document → ProseMirror JSON for the Tiptap editor (D33).
 *
 * Known nodes map to StarterKit nodes and the Quire extensions of ./extensions.ts: headings,
 * paragraphs, lists, quotes, hr, code blocks (a paragraph marked `data.codeBlock`, see
 * to-contentful.ts), hyperlinks (the `link` mark), entry and asset hyperlinks (`entryLink`,
 * `assetLink` marks), embedded entries and assets (block and inline atoms). A "\n" inside a text
 * value becomes a hard break. Every other node — tables, resource links, node types added to
 * Contentful later — is kept whole in a `cfBlock` or `cfInline` atom and written back as it was.
 */
import { CF, MARKS_TO_PM, targetId, type CfDocument, type CfNode, type PmMark, type PmNode } from './types';

const HEADING = /^heading-([1-6])$/;

function marksOf(node: CfNode): PmMark[] {
  return (node.marks ?? []).map((m) => (MARKS_TO_PM[m.type] ? { type: MARKS_TO_PM[m.type] } : { type: 'cfMark', attrs: { type: m.type } }));
}

function withMarks(node: PmNode, marks: PmMark[]): PmNode {
  return marks.length ? { ...node, marks } : node;
}

function inlines(nodes: CfNode[] | undefined, outer: PmMark[]): PmNode[] {
  const out: PmNode[] = [];
  for (const node of nodes ?? []) {
    switch (node.nodeType) {
      case CF.text: {
        const marks = [...marksOf(node), ...outer];
        (node.value ?? '').split('\n').forEach((piece, i) => {
          if (i > 0) out.push(withMarks({ type: 'hardBreak' }, marks));
          if (piece) out.push(withMarks({ type: 'text', text: piece }, marks));
        });
        break;
      }
      case CF.hyperlink:
        out.push(...inlines(node.content, [...outer, { type: 'link', attrs: { href: String(node.data?.uri ?? '') } }]));
        break;
      case CF.entryHyperlink:
      case CF.assetHyperlink: {
        const id = targetId(node);
        if (id === null) out.push({ type: 'cfInline', attrs: { node } });
        else out.push(...inlines(node.content, [...outer, { type: node.nodeType === CF.entryHyperlink ? 'entryLink' : 'assetLink', attrs: { id } }]));
        break;
      }
      case CF.embeddedEntryInline: {
        const id = targetId(node);
        out.push(id === null ? { type: 'cfInline', attrs: { node } } : withMarks({ type: 'inlineEntry', attrs: { id } }, outer));
        break;
      }
      default:
        out.push(withMarks({ type: 'cfInline', attrs: { node } }, outer));
    }
  }
  return out;
}

function withContent(node: PmNode, content: PmNode[]): PmNode {
  return content.length ? { ...node, content } : node;
}

function block(node: CfNode): PmNode {
  const heading = HEADING.exec(node.nodeType);
  if (heading) return withContent({ type: 'heading', attrs: { level: Number(heading[1]) } }, inlines(node.content, []));
  switch (node.nodeType) {
    case CF.paragraph:
      if (node.data?.codeBlock === true) {
        const text = (node.content ?? []).map((c) => c.value ?? '').join('');
        const language = typeof node.data.language === 'string' ? node.data.language : null;
        return withContent({ type: 'codeBlock', attrs: { language } }, text ? [{ type: 'text', text }] : []);
      }
      return withContent({ type: 'paragraph' }, inlines(node.content, []));
    case CF.ul:
      return { type: 'bulletList', content: (node.content ?? []).map(listItem) };
    case CF.ol:
      return { type: 'orderedList', attrs: { start: 1 }, content: (node.content ?? []).map(listItem) };
    case CF.li:
      return listItem(node);
    case CF.quote:
      return { type: 'blockquote', content: blocks(node.content) };
    case CF.hr:
      return { type: 'horizontalRule' };
    case CF.embeddedEntryBlock:
    case CF.embeddedAssetBlock: {
      const id = targetId(node);
      if (id === null) return { type: 'cfBlock', attrs: { node } };
      return { type: node.nodeType === CF.embeddedEntryBlock ? 'embeddedEntry' : 'embeddedAsset', attrs: { id } };
    }
    default:
      return { type: 'cfBlock', attrs: { node } };
  }
}

function listItem(node: CfNode): PmNode {
  if (node.nodeType !== CF.li) return { type: 'listItem', content: [{ type: 'paragraph' }, block(node)] };
  const content = blocks(node.content);
  // A ProseMirror list item starts with a paragraph; Contentful's do too, except hand-made ones.
  if (content[0]?.type !== 'paragraph') content.unshift({ type: 'paragraph' });
  return { type: 'listItem', content };
}

function blocks(nodes: CfNode[] | undefined): PmNode[] {
  const out = (nodes ?? []).map(block);
  return out.length ? out : [{ type: 'paragraph' }];
}

/** True when `value` has the shape of a Contentful document (nodeType 'document', content array). */
export function isContentfulDocument(value: unknown): value is CfDocument {
  return typeof value === 'object' && value !== null && (value as CfNode).nodeType === CF.document && Array.isArray((value as CfNode).content);
}

/**
 * The ProseMirror document for a Contentful document; null or a non-document gives an empty
 * document (one empty paragraph).
 */
export function contentfulToPm(doc: CfDocument | null | undefined): PmNode {
  if (!isContentfulDocument(doc)) return { type: 'doc', content: [{ type: 'paragraph' }] };
  return { type: 'doc', content: blocks(doc.content) };
}
