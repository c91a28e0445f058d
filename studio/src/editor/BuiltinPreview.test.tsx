/**
 * The built-in preview: fields in their order under their labels, a page's blocks nested with
 * their type names, images through the media transforms, rich text rendered and sanitized, the
 * editor's locale with fallback to the default locale, and a rendering that follows new values.
 */
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import type { ContentType } from '../api/types';
import { FieldSourcesContext } from '../fields/sources';
import { ENTRIES, MEDIA, fakeSources, makeField } from '../fields/shared/test-utils';
import { BuiltinPreview } from './BuiltinPreview';
import { imageAt, previewBlocks, richTextHtml, valueIn } from './builtin-preview';

const doc = (...content: unknown[]) => ({ nodeType: 'document', data: {}, content });
const para = (text: string, marks: { type: string }[] = []) => ({
  nodeType: 'paragraph',
  data: {},
  content: [{ nodeType: 'text', value: text, marks, data: {} }],
});

function show(element: ReactElement) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrap = (e: ReactElement) => (
    <MantineProvider>
      <QueryClientProvider client={client}>
        <FieldSourcesContext.Provider value={fakeSources()}>{e}</FieldSourcesContext.Provider>
      </QueryClientProvider>
    </MantineProvider>
  );
  const utils = render(wrap(element));
  return { ...utils, update: (e: ReactElement) => utils.rerender(wrap(e)) };
}

const FIELDS = [
  makeField({ name: 'body', label: 'Body', field_type: 'rich_text', sort_order: 2, localizable: true }),
  makeField({ name: 'title', label: 'Title', field_type: 'text', sort_order: 0, localizable: true }),
  makeField({ name: 'cover', label: 'Cover', field_type: 'media', sort_order: 1 }),
  makeField({ name: 'author', label: 'Author', field_type: 'relation', sort_order: 3, options: '["author"]' }),
  makeField({ name: 'featured', label: 'Featured', field_type: 'boolean', sort_order: 4 }),
];

describe('valueIn', () => {
  const title = FIELDS[1];
  const values = { data: { title: 'Hello', cover: 'm1' }, translations: { de: { title: 'Hallo' }, fr: { title: null } } };
  it('takes a translation of a localizable field and falls back to the default locale as delivery does', () => {
    expect(valueIn(title, values, 'de', 'en')).toBe('Hallo');
    expect(valueIn(title, values, 'fr', 'en')).toBe('Hello');
    expect(valueIn(title, values, 'it', 'en')).toBe('Hello');
    expect(valueIn(title, values, 'en', 'en')).toBe('Hello');
  });
  it('gives a field that is not localizable its default-locale value in every locale', () => {
    expect(valueIn(FIELDS[2], { data: { cover: 'm1' }, translations: { de: { cover: 'm2' } } }, 'de', 'en')).toBe('m1');
  });
});

describe('richTextHtml and imageAt', () => {
  it('renders a document with @quire/client and sanitizes what it gives', () => {
    expect(richTextHtml(doc(para('Bold', [{ type: 'bold' }])))).toBe('<p><b>Bold</b></p>');
    const link = { nodeType: 'hyperlink', data: { uri: 'javascript:alert(1)' }, content: [{ nodeType: 'text', value: 'x', marks: [], data: {} }] };
    expect(richTextHtml(doc({ nodeType: 'paragraph', data: {}, content: [link] }))).toBe('<p>x</p>');
    expect(richTextHtml('not a document')).toBe('');
  });
  it('drops what would run script even when the renderer lets it through (an asset URL with javascript:)', () => {
    const link = {
      nodeType: 'asset-hyperlink',
      data: { target: { sys: { id: 'a1', type: 'Link', linkType: 'Asset' } } },
      content: [{ nodeType: 'text', value: 'file', marks: [], data: {} }],
    };
    const html = richTextHtml(doc({ nodeType: 'paragraph', data: {}, content: [link] }), {
      asset: () => ({ id: 'a1', url: 'javascript:alert(1)', mime_type: 'application/pdf' }),
    });
    expect(html).toBe('<p><a data-media-id="a1">file</a></p>');
  });
  it('asks the media transforms for a width in WebP, and leaves SVG alone', () => {
    expect(imageAt('http://x.test/a.png', 'image/png', 800)).toBe('http://x.test/a.png?w=800&fm=webp');
    expect(imageAt('http://x.test/a.svg', 'image/svg+xml', 800)).toBe('http://x.test/a.svg');
  });
});

describe('BuiltinPreview', () => {
  const values = {
    data: {
      title: 'Hello',
      cover: MEDIA[0].id,
      body: doc(para('Plain text'), {
        nodeType: 'paragraph',
        data: {},
        content: [{ nodeType: 'text', value: '<script>alert(1)</script>', marks: [], data: {} }],
      }),
      author: ENTRIES[0].id,
      featured: true,
    },
    translations: { de: { title: 'Hallo' } },
  };

  it('shows the fields in their order with their labels, the image, the rich text and the linked entry', async () => {
    const { container } = show(<BuiltinPreview title="Hello" locale="en" defaultLocale="en" fields={FIELDS} values={values} />);
    const order = [...container.querySelectorAll('[data-preview-field]')].map((e) => e.getAttribute('data-preview-field'));
    expect(order).toEqual(['title', 'cover', 'body', 'author', 'featured']);
    const image = await screen.findByRole('img', { name: 'Team photo' });
    expect(image.getAttribute('src')).toBe('http://x.test/a.png?w=800&fm=webp');
    expect(await screen.findByText('Ada Lovelace')).toBeTruthy();
    expect(screen.getByText('Plain text').tagName).toBe('P');
    // Text that looks like markup stays text.
    expect(screen.getByText('<script>alert(1)</script>')).toBeTruthy();
    expect(container.querySelector('script')).toBeNull();
    expect(screen.getByText('Yes')).toBeTruthy();
  });

  it('shows the selected locale with fallback, and follows new values', () => {
    const { update } = show(<BuiltinPreview title="Hallo" locale="de" defaultLocale="en" fields={FIELDS} values={values} />);
    const title = () => document.querySelector('[data-preview-field="title"]')!.textContent;
    expect(title()).toBe('TitleHallo');
    expect(document.querySelector('[data-builtin-preview]')!.getAttribute('lang')).toBe('de');
    update(<BuiltinPreview title="Hallo" locale="de" defaultLocale="en" fields={FIELDS} values={{ ...values, translations: {} }} />);
    expect(title()).toBe('TitleHello');
    update(
      <BuiltinPreview title="Hallo" locale="de" defaultLocale="en" fields={FIELDS} values={{ ...values, translations: { de: { title: 'Hallo Welt' } } }} />,
    );
    expect(title()).toBe('TitleHallo Welt');
  });

  it('nests blocks with their type names', () => {
    const type = (slug: string, name: string, fields: ContentType['fields']) => ({ slug, name, fields }) as ContentType;
    const types = [
      type('section', 'Section', [makeField({ name: 'heading', label: 'Heading', field_type: 'text' })]),
      type('quote', 'Quote', [makeField({ name: 'text', label: 'Quote text', field_type: 'textarea', localizable: true })]),
    ];
    const blocks = previewBlocks(
      [
        {
          id: 'b1',
          type: 'section',
          data: { heading: 'About us' },
          translations: {},
          children: [{ id: 'b2', type: 'quote', data: { text: 'Simple.' }, translations: { de: { text: 'Einfach.' } }, children: [] }],
        },
        { id: 'b3', type: 'gone', data: { x: 1 }, translations: {}, children: [] },
      ],
      types,
    );
    show(<BuiltinPreview title="About" locale="de" defaultLocale="en" blocks={blocks} />);
    const section = screen.getByRole('region', { name: 'Block Section' });
    expect(within(section).getByText('About us')).toBeTruthy();
    const quote = within(section).getByRole('region', { name: 'Block Quote' });
    expect(within(quote).getByText('Einfach.')).toBeTruthy();
    expect(within(quote).getByText('Quote text')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Block gone' })).toBeTruthy();
  });
});
