/**
 * The content model the client's type tests are written against (client.test-d.ts): quire.d.ts
 * beside it is what typegen renders for it, and test/client-typegen.test.ts fails when the two
 * drift apart, so the type tests always exercise the generator's real output.
 */
import type { ModelType } from '../src/typegen.js';

const field = (name: string, type: string, more: Partial<ModelType['fields'][number]> = {}): ModelType['fields'][number] => ({
  name,
  type,
  required: false,
  options: [],
  filterable: false,
  sortable: false,
  ...more,
});

export const TYPE_TEST_MODEL: ModelType[] = [
  {
    slug: 'post',
    name: 'Post',
    is_block: false,
    orderable: false,
    fields: [
      field('title', 'text', { required: true, filterable: true, sortable: true }),
      field('summary', 'textarea'),
      field('body', 'rich_text'),
      field('rank', 'integer', { filterable: true, sortable: true }),
      field('price', 'number', { filterable: true }),
      field('category', 'select', { options: ['news', 'howto'], filterable: true }),
      field('featured', 'boolean', { filterable: true }),
      field('published_on', 'date', { sortable: true }),
      field('author', 'relation', { options: ['author'], filterable: true }),
      field('related', 'relation_list', { options: ['post'] }),
      field('cover', 'media'),
      field('tags', 'tags'),
    ],
  },
  {
    slug: 'author',
    name: 'Author',
    is_block: false,
    orderable: true,
    fields: [field('name', 'text', { required: true }), field('bio', 'rich_text'), field('website', 'url', { filterable: true })],
  },
  { slug: 'memo', name: 'Memo', is_block: false, orderable: false, fields: [field('text', 'text')] },
  {
    slug: 'hero',
    name: 'Hero',
    is_block: true,
    fields: [field('headline', 'text', { required: true }), field('image', 'media'), field('featured_post', 'relation', { options: ['post'] })],
  },
  { slug: 'card', name: 'Card', is_block: true, fields: [field('label', 'text', { required: true })] },
];
