import { describe, expect, it } from 'vitest';
import type { ContentType } from '../../api/types';
import { makeField } from '../../fields/shared/test-utils';
import { blockLineage, pageErrorTargets } from './page-errors';
import type { BlockNode } from './tree';

const node = (id: string, type: string, data: Record<string, unknown>, children: BlockNode[] = []): BlockNode => ({
  id,
  type,
  data,
  translations: {},
  children,
});
const blocks = [node('a', 'section', { heading: 'Intro' }, [node('b', 'card', {}), node('c', 'card', { title: 'Two' })]), node('d', 'card', {})];
const types = [
  { slug: 'section', name: 'Section', fields: [makeField({ field_type: 'text', name: 'heading', label: 'Heading', sort_order: 0 })] },
  {
    slug: 'card',
    name: 'Card',
    fields: [
      makeField({ field_type: 'text', name: 'title', label: 'Title', sort_order: 0, localizable: true }),
      makeField({ field_type: 'media', name: 'image', label: 'Image', sort_order: 1 }),
    ],
  },
] as ContentType[];
const labelOf = (n: BlockNode) => `${n.type}:${n.id}`;

describe('a page’s refused fields', () => {
  it('lists SEO fields first, then block fields in tree order, each block by position and type, fields in form order', () => {
    const targets = pageErrorTargets({
      seoErrors: new Map([['seo_translations.de.title', 'is too long']]),
      byBlock: new Map([
        ['d', [{ path: 'data.title', message: 'is required' }]],
        [
          'b',
          [
            { path: 'data.image', message: 'must be an image' },
            { path: 'translations.de.data.title', message: 'is too long' },
            { path: 'data.title', message: 'is required' },
          ],
        ],
        ['c', [{ path: 'position', message: 'is odd' }]],
      ]),
      blocks,
      types,
      defaultLocale: 'en',
      labelOf,
    });
    expect(targets.map((t) => [t.label, t.message, t.locale, t.field, t.blockId])).toEqual([
      ['SEO title (de)', 'is too long', 'de', 'seo.title', null],
      ['Block 1.1: card:b › Title', 'is required', 'en', 'title', 'b'],
      ['Block 1.1: card:b › Title (de)', 'is too long', 'de', 'title', 'b'],
      ['Block 1.1: card:b › Image', 'must be an image', 'en', 'image', 'b'],
      ['Block 1.2: card:c', 'position: is odd', 'en', null, 'c'],
      ['Block 2: card:d › Title', 'is required', 'en', 'title', 'd'],
    ]);
    expect(new Set(targets.map((t) => t.key)).size).toBe(targets.length);
  });

  it('names a block’s lineage, outermost first', () => {
    expect(blockLineage(blocks, 'c')).toEqual(['a', 'c']);
    expect(blockLineage(blocks, 'd')).toEqual(['d']);
    expect(blockLineage(blocks, 'zz')).toEqual([]);
  });
});
