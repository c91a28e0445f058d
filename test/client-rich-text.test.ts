/**
 * `@quire/client/rich-text`: the default rendering is the server's `body_html` (same renderer,
 * same link rules), custom renderers replace node and mark renderings, unsafe hyperlinks keep only
 * their text, and anything that is not a document renders to ''.
 */
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { escapeHtml, renderRichText, richTextTargetId } from '../packages/client/src/rich-text.js';
import { richTextToHtml, type RichTextLinks } from '../src/modules/richtext/render.js';

const text = (value: string, marks: string[] = []) => ({ nodeType: 'text', value, marks: marks.map((type) => ({ type })), data: {} });
const link = (nodeType: string, linkType: 'Entry' | 'Asset', id: string, content: unknown[] = []) => ({
  nodeType,
  data: { target: { sys: { id, type: 'Link', linkType } } },
  content,
});
const doc = {
  nodeType: 'document',
  data: {},
  content: [
    { nodeType: 'heading-2', data: {}, content: [text('A <title>')] },
    {
      nodeType: 'paragraph',
      data: {},
      content: [
        text('Bold ', ['bold']),
        text('and '),
        link('entry-hyperlink', 'Entry', 'e1', [text('an entry')]),
        text(', '),
        link('asset-hyperlink', 'Asset', 'm1', [text('a file')]),
        text(', '),
        { nodeType: 'hyperlink', data: { uri: 'https://example.com/?a=1&b=2' }, content: [text('a site')] },
        text(', '),
        link('entry-hyperlink', 'Entry', 'missing', [text('a lost link')]),
        link('embedded-entry-inline', 'Entry', 'e1'),
      ],
    },
    {
      nodeType: 'unordered-list',
      data: {},
      content: [{ nodeType: 'list-item', data: {}, content: [{ nodeType: 'paragraph', data: {}, content: [text('one')] }] }],
    },
    link('embedded-entry-block', 'Entry', 'e1'),
    link('embedded-asset-block', 'Asset', 'm1'),
    link('embedded-asset-block', 'Asset', 'm2'),
    link('embedded-entry-block', 'Entry', 'missing'),
    { nodeType: 'blockquote', data: {}, content: [{ nodeType: 'paragraph', data: {}, content: [text('quoted', ['italic'])] }] },
    { nodeType: 'hr', data: {}, content: [] },
  ],
};
const entries = { e1: { id: 'e1', type: 'post', slug: 'hello', display: 'Hello & welcome' } };
const media = {
  m1: { id: 'm1', url: 'https://cdn.example/m1.png', mime_type: 'image/png', alt_text: 'A "sun"', width: 40, height: 30 },
  m2: { id: 'm2', url: 'https://cdn.example/m2.pdf', mime_type: 'application/pdf', alt_text: null, width: null, height: null },
};
/** The HTML as a browser reads it (entities and void elements written one way), to compare renderings. */
const dom = (html: string | null) => new JSDOM(`<body>${html ?? ''}</body>`).window.document.body.innerHTML;
const entry = (id: string) => entries[id as keyof typeof entries];
const asset = (id: string) => media[id as keyof typeof media];

describe('@quire/client rich text', () => {
  it('renders by default what the server renders as body_html (the same elements, attributes and text)', () => {
    const links: RichTextLinks = { entry, asset };
    const client = renderRichText(doc, { entry, asset });
    // The server's HTML passes sanitize-html, which writes entities and <hr /> its own way.
    expect(dom(client)).toBe(dom(richTextToHtml(doc, links)));
    expect(client).toContain('<a data-entry-id="e1" data-entry-type="post" data-entry-slug="hello">an entry</a>');
    expect(client).toContain('<div data-entry-id="e1" data-entry-type="post" data-entry-slug="hello">Hello &#38; welcome</div>');
    expect(client).toContain('a lost link');
    expect(client).not.toContain('missing');
    // Without resolvers, links keep their text and embeds render nothing, as on the server.
    expect(dom(renderRichText(doc))).toBe(dom(richTextToHtml(doc)));
  });

  it('lets custom renderers replace nodes and marks', () => {
    const html = renderRichText(doc, {
      entry,
      asset,
      renderNode: {
        'embedded-entry-block': (node) => `<post-card id="${escapeHtml(richTextTargetId(node) ?? '')}"></post-card>`,
        'entry-hyperlink': (node, next) => `<a href="/blog/${entry(richTextTargetId(node) ?? '')?.slug ?? ''}">${next(node.content)}</a>`,
        'heading-2': (node, next) => `<h2 class="title">${next(node.content)}</h2>`,
      },
      renderMark: { bold: (t) => `<b class="strong">${t}</b>` },
    });
    expect(html).toContain('<post-card id="e1"></post-card>');
    expect(html).toContain('<a href="/blog/hello">an entry</a>');
    expect(html).toContain('<h2 class="title">A &lt;title&gt;</h2>');
    expect(html).toContain('<b class="strong">Bold </b>');
    // Nodes without a custom renderer keep the default.
    expect(html).toContain('<img src="https://cdn.example/m1.png" alt="A &#34;sun&#34;" width="40" height="30" loading="lazy" data-media-id="m1" />');
  });

  it('keeps only the text of hyperlinks to other schemes', () => {
    const hyperlink = (uri: string) =>
      renderRichText({
        nodeType: 'document',
        data: {},
        content: [{ nodeType: 'paragraph', data: {}, content: [{ nodeType: 'hyperlink', data: { uri }, content: [text('x')] }] }],
      });
    for (const bad of ['javascript:alert(1)', ' JavaScript:alert(1)', 'data:text/html,x', '//evil.example/', 'vbscript:x'])
      expect(hyperlink(bad), bad).toBe('<p>x</p>');
    for (const good of ['https://a.example/', 'http://a.example', 'mailto:a@b.example', 'tel:+4912', '/blog/x', '#top', '?q=1', 'page.html'])
      expect(hyperlink(good), good).toBe(`<p><a href="${escapeHtml(good)}">x</a></p>`);
  });

  it('renders nothing for what is not a document', () => {
    for (const value of [null, undefined, 'text', 42, {}, { nodeType: 'paragraph', content: [] }, { nodeType: 'document' }])
      expect(renderRichText(value)).toBe('');
  });
});
