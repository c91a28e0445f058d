import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiFieldSources, entryLabel, thumbnailOf } from './api-sources';

const envelope = (data: unknown, meta: unknown = null) => new Response(JSON.stringify({ success: true, message: 'Success', data, meta }), { status: 200 });

afterEach(() => vi.unstubAllGlobals());

describe('API-backed field sources', () => {
  it('labels entries by their display field, else the slug', () => {
    expect(entryLabel({ slug: 'ada', data: '{"name":"Ada Lovelace"}' }, 'name')).toBe('Ada Lovelace');
    expect(entryLabel({ slug: 'ada', data: '{"name":"  "}' }, 'name')).toBe('ada');
    expect(entryLabel({ slug: 'ada', data: '{}' }, null)).toBe('ada');
  });
  it('asks the server for small thumbnails of raster images only', () => {
    expect(thumbnailOf({ url: 'http://x.test/a.png', mime_type: 'image/png' })).toBe('http://x.test/a.png?w=128&h=128&fit=cover');
    expect(thumbnailOf({ url: 'http://x.test/a.svg', mime_type: 'image/svg+xml' })).toBe('http://x.test/a.svg');
    expect(thumbnailOf({ url: 'http://x.test/a.pdf', mime_type: 'application/pdf' })).toBeNull();
  });
  it('searches each allowed entry type with the search text and labels the results', async () => {
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        urls.push(url);
        if (url.startsWith('/api/v1/manage/content-types?'))
          return envelope([
            { slug: 'author', display_field: 'name' },
            { slug: 'post', display_field: 'title' },
          ]);
        return envelope([{ id: 'e1', slug: 'ada', status: 'draft', data: '{"name":"Ada Lovelace"}' }]);
      }),
    );
    const found = await apiFieldSources().searchEntries(['author'], ' ada ');
    expect(found).toEqual([{ id: 'e1', slug: 'ada', type: 'author', label: 'Ada Lovelace', status: 'draft' }]);
    expect(urls[1]).toBe('/api/v1/manage/content-types/author/entries?limit=20&sort=updated_at%3Adesc&search=ada');
    expect(urls).toHaveLength(2);
  });
});
