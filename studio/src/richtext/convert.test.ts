import { Editor } from '@tiptap/core';
import { afterEach, describe, expect, it } from 'vitest';
import { richTextExtensions } from './extensions';
import { contentfulToPm } from './from-contentful';
import { isEmptyDocument, pmToContentful } from './to-contentful';
import type { CfDocument, CfNode } from './types';

const t = (value: string, ...marks: string[]): CfNode => ({ nodeType: 'text', value, marks: marks.map((type) => ({ type })), data: {} });
const n = (nodeType: string, content: CfNode[], data: Record<string, unknown> = {}): CfNode => ({ nodeType, data, content });
const p = (...content: CfNode[]) => n('paragraph', content);
const doc = (...content: CfNode[]): CfDocument => ({ nodeType: 'document', data: {}, content });
const link = (id: string, linkType: 'Entry' | 'Asset') => ({ target: { sys: { id, type: 'Link', linkType } } });
const ENTRY = '01a1fd32-3bbe-76dd-9adf-83dbe35a5661';
const ASSET = '01a1fd32-cf02-72ed-90f0-d4c74bef4579';

const editors: Editor[] = [];
afterEach(() => editors.splice(0).forEach((e) => e.destroy()));

/** Through a real Tiptap editor: the schema must accept the JSON, and give it back the same. */
function throughEditor(d: CfDocument): CfDocument {
  const editor = new Editor({ extensions: richTextExtensions(), content: contentfulToPm(d) });
  editors.push(editor);
  return pmToContentful(editor.getJSON());
}

/** Marks in a stable order: ProseMirror orders a text's marks by schema rank. */
function sortedMarks(node: CfNode): CfNode {
  return {
    ...node,
    ...(node.marks ? { marks: [...node.marks].sort((a, b) => a.type.localeCompare(b.type)) } : {}),
    ...(node.content ? { content: node.content.map(sortedMarks) } : {}),
  } as CfNode;
}

const cases: Record<string, CfDocument> = {
  headings: doc(n('heading-1', [t('One')]), n('heading-2', [t('Two')]), n('heading-3', [t('Three')]), n('heading-6', [t('Six')])),
  'paragraph with marks': doc(
    p(t('plain '), t('bold', 'bold'), t(' '), t('italic', 'italic'), t(' '), t('under', 'underline'), t(' '), t('x = 1', 'code'), t('both', 'bold', 'italic')),
  ),
  'bold code and unknown marks': doc(p(t('bold code', 'bold', 'code'), t('sup', 'superscript'), t('gone', 'strikethrough'), t('odd', 'highlight'))),
  lists: doc(
    n('unordered-list', [n('list-item', [p(t('a'))]), n('list-item', [p(t('b')), n('ordered-list', [n('list-item', [p(t('b.1'))])])])]),
    n('ordered-list', [n('list-item', [p(t('first'))]), n('list-item', [p(t('second'))])]),
  ),
  'quote and hr': doc(n('blockquote', [p(t('Quoted')), p(t('twice'))]), n('hr', []), p(t('after'))),
  'code block': doc(n('paragraph', [t('const a = 1;\nconst b = 2;', 'code')], { codeBlock: true, language: 'ts' }), p(t('text'))),
  'line breaks': doc(p(t('line one\nline two'), t('\nbold line', 'bold'))),
  hyperlinks: doc(p(t('see '), n('hyperlink', [t('the '), t('docs', 'bold')], { uri: 'https://example.com/docs' }), t(' now'))),
  'entry and asset hyperlinks': doc(
    p(n('entry-hyperlink', [t('an entry')], link(ENTRY, 'Entry')), t(' and '), n('asset-hyperlink', [t('a file')], link(ASSET, 'Asset'))),
  ),
  'embedded entries and assets': doc(
    n('embedded-entry-block', [], link(ENTRY, 'Entry')),
    p(t('inline '), n('embedded-entry-inline', [], link(ENTRY, 'Entry')), t(' here')),
    n('embedded-asset-block', [], link(ASSET, 'Asset')),
  ),
  'empty paragraph': doc(p(t('')), p(t('x'))),
};

const table = n('table', [n('table-row', [n('table-header-cell', [p(t('H'))]), n('table-cell', [p(t('C'))])])]);
const unknownBlock = {
  nodeType: 'embedded-resource-block',
  data: { target: { sys: { urn: 'crn:contentful:::content:spaces/x/entries/y', type: 'ResourceLink', linkType: 'Contentful:Entry' } } },
  content: [],
};
const unknownInline = n('resource-hyperlink', [t('elsewhere')], { target: { sys: { urn: 'crn:x', type: 'ResourceLink', linkType: 'Contentful:Entry' } } });
cases['unknown nodes kept'] = doc(table, unknownBlock, p(t('a '), unknownInline, t(' b')), n('future-node', [p(t('?'))], { x: 1 }));

describe('Contentful ⇄ ProseMirror', () => {
  for (const [name, d] of Object.entries(cases)) {
    it(`round trip: ${name}`, () => {
      expect(pmToContentful(contentfulToPm(d))).toEqual(d);
    });
    it(`round trip through a Tiptap editor: ${name}`, () => {
      expect(sortedMarks(throughEditor(d))).toEqual(sortedMarks(d));
    });
  }

  it('maps Contentful nodes to the Tiptap nodes and marks the toolbar edits', () => {
    const pm = contentfulToPm(
      doc(
        n('heading-2', [t('H')]),
        p(n('hyperlink', [t('x', 'bold')], { uri: 'https://a.example' }), n('entry-hyperlink', [t('e')], link(ENTRY, 'Entry'))),
        n('embedded-asset-block', [], link(ASSET, 'Asset')),
        n('paragraph', [t('code', 'code')], { codeBlock: true }),
      ),
    );
    expect(pm).toEqual({
      type: 'doc',
      content: [
        { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'H' }] },
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'x', marks: [{ type: 'bold' }, { type: 'link', attrs: { href: 'https://a.example' } }] },
            { type: 'text', text: 'e', marks: [{ type: 'entryLink', attrs: { id: ENTRY } }] },
          ],
        },
        { type: 'embeddedAsset', attrs: { id: ASSET } },
        { type: 'codeBlock', attrs: { language: null }, content: [{ type: 'text', text: 'code' }] },
      ],
    });
  });

  it('keeps an unknown node whole, data included', () => {
    const pm = contentfulToPm(doc(table));
    expect(pm.content?.[0]).toEqual({ type: 'cfBlock', attrs: { node: table } });
  });

  it('writes what the editor typed as a Contentful document', () => {
    const editor = new Editor({
      extensions: richTextExtensions(),
      content: '<h2>Title</h2><p>Hello <strong>world</strong> <a href="https://quire.dev">link</a></p><ul><li><p>one</p></li></ul><pre><code>x</code></pre>',
    });
    editors.push(editor);
    const out = pmToContentful(editor.getJSON());
    expect(out.content.map((c) => c.nodeType)).toEqual(['heading-2', 'paragraph', 'unordered-list', 'paragraph']);
    expect(out.content[1].content).toEqual([t('Hello '), t('world', 'bold'), t(' '), n('hyperlink', [t('link')], { uri: 'https://quire.dev' })]);
    expect(out.content[3]).toEqual(n('paragraph', [t('x', 'code')], { codeBlock: true }));
  });

  it('leaves out empty paragraphs at the end, the one Tiptap keeps after an embed included', () => {
    expect(
      pmToContentful({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'a' }] }, { type: 'paragraph' }, { type: 'paragraph' }] }),
    ).toEqual(doc(p(t('a'))));
    const editor = new Editor({
      extensions: richTextExtensions(),
      content: contentfulToPm(doc(p(t('see below')), n('embedded-asset-block', [], link(ASSET, 'Asset')))),
    });
    editors.push(editor);
    // Any edit lets the trailing-node plugin add its empty paragraph after the embed.
    editor.commands.insertContentAt(1, 'Please ');
    expect(editor.getJSON().content?.at(-1)).toEqual({ type: 'paragraph' });
    expect(pmToContentful(editor.getJSON())).toEqual(doc(p(t('Please see below')), n('embedded-asset-block', [], link(ASSET, 'Asset'))));
  });

  it('keeps a document of empty paragraphs as one empty paragraph, which the widget stores as no value', () => {
    const only = pmToContentful({ type: 'doc', content: [{ type: 'paragraph' }, { type: 'paragraph' }] });
    expect(only).toEqual(doc(p(t(''))));
    expect(isEmptyDocument(only)).toBe(true);
  });

  it('reads null and non-documents as one empty paragraph, and knows an empty document', () => {
    expect(contentfulToPm(null)).toEqual({ type: 'doc', content: [{ type: 'paragraph' }] });
    expect(pmToContentful(contentfulToPm(null))).toEqual(doc(p(t(''))));
    expect(isEmptyDocument(doc(p(t('')), p(t(''))))).toBe(true);
    expect(isEmptyDocument(doc(p(t('a'))))).toBe(false);
    expect(isEmptyDocument(doc(n('hr', [])))).toBe(false);
    expect(isEmptyDocument(doc(n('paragraph', [t('', 'code')], { codeBlock: true })))).toBe(false);
  });
});
