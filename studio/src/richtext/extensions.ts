/**
 * The Tiptap schema of the rich-text widget: StarterKit (headings, paragraphs, bold, italic,
 * underline, strike, code, lists, quote, code block, hr, hard break, link) plus the nodes and
 * marks that carry Contentful's references and everything else Contentful has:
 *
 * - marks `entryLink` / `assetLink` ({id}): entry-hyperlink / asset-hyperlink;
 * - atoms `embeddedEntry`, `embeddedAsset` (blocks) and `inlineEntry` (inline), attribute `id`;
 * - atoms `cfBlock` / `cfInline` ({node}): a Contentful node kept verbatim (tables, resource
 *   links, future node types), shown as a labelled box and written back unchanged;
 * - marks `superscript`, `subscript` and `cfMark` ({type}: any other Contentful mark).
 *
 * `code` may combine with other marks here (Contentful allows bold code), unlike Tiptap's default.
 */
import { Mark, Node, mergeAttributes, type AnyExtension } from '@tiptap/core';
import Code from '@tiptap/extension-code';
import StarterKit from '@tiptap/starter-kit';

function idMark(name: string, linkType: string) {
  return Mark.create({
    name,
    inclusive: false,
    addAttributes() {
      return { id: { default: null } };
    },
    parseHTML() {
      return [{ tag: `a[data-${linkType}-id]`, getAttrs: (el) => ({ id: (el as HTMLElement).getAttribute(`data-${linkType}-id`) }) }];
    },
    renderHTML({ mark, HTMLAttributes }) {
      return [
        'a',
        mergeAttributes(HTMLAttributes, {
          [`data-${linkType}-id`]: mark.attrs.id,
          class: `quire-${linkType}-link`,
          title: `Link to ${linkType} ${mark.attrs.id}`,
        }),
        0,
      ];
    },
  });
}

function idAtom(name: string, inline: boolean, label: string) {
  return Node.create({
    name,
    group: inline ? 'inline' : 'block',
    inline,
    atom: true,
    selectable: true,
    draggable: !inline,
    addAttributes() {
      return { id: { default: null } };
    },
    parseHTML() {
      return [{ tag: `${inline ? 'span' : 'div'}[data-${name}]`, getAttrs: (el) => ({ id: (el as HTMLElement).getAttribute(`data-${name}`) }) }];
    },
    renderHTML({ node }) {
      return [
        inline ? 'span' : 'div',
        { [`data-${name}`]: node.attrs.id, class: `quire-embed quire-${name}`, contenteditable: 'false' },
        `${label} ${String(node.attrs.id)}`,
      ];
    },
  });
}

function keptAtom(name: string, inline: boolean) {
  return Node.create({
    name,
    group: inline ? 'inline' : 'block',
    inline,
    atom: true,
    selectable: true,
    addAttributes() {
      return { node: { default: null, rendered: false } };
    },
    parseHTML() {
      return [];
    },
    renderHTML({ node }) {
      const kept = node.attrs.node as { nodeType?: unknown } | null;
      return [
        inline ? 'span' : 'div',
        { class: 'quire-embed quire-kept', contenteditable: 'false', 'data-node-type': String(kept?.nodeType ?? '') },
        `${String(kept?.nodeType ?? 'node')} (kept as is)`,
      ];
    },
  });
}

function simpleMark(name: string, tag: string) {
  return Mark.create({
    name,
    parseHTML() {
      return [{ tag }];
    },
    renderHTML({ HTMLAttributes }) {
      return [tag, HTMLAttributes, 0];
    },
  });
}

/** A Contentful mark Tiptap does not know, kept by its type. Several may sit on one text. */
const CfMark = Mark.create({
  name: 'cfMark',
  excludes: '',
  addAttributes() {
    return { type: { default: '' } };
  },
  parseHTML() {
    return [{ tag: 'span[data-cf-mark]', getAttrs: (el) => ({ type: (el as HTMLElement).getAttribute('data-cf-mark') }) }];
  },
  renderHTML({ mark }) {
    return ['span', { 'data-cf-mark': mark.attrs.type }, 0];
  },
});

/** The extensions of the rich-text editor, also used headless by the conversion tests. */
export function richTextExtensions(): AnyExtension[] {
  return [
    StarterKit.configure({ code: false, link: { openOnClick: false, autolink: true } }),
    Code.extend({ excludes: '' }),
    idMark('entryLink', 'entry'),
    idMark('assetLink', 'asset'),
    idAtom('embeddedEntry', false, 'Embedded entry'),
    idAtom('embeddedAsset', false, 'Embedded asset'),
    idAtom('inlineEntry', true, 'Entry'),
    keptAtom('cfBlock', false),
    keptAtom('cfInline', true),
    simpleMark('superscript', 'sup'),
    simpleMark('subscript', 'sub'),
    CfMark,
  ];
}
