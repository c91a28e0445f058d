import { vercelStegaClean, vercelStegaDecode, vercelStegaSplit } from '@vercel/stega';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  assetOrigin,
  blockOrigin,
  createTrace,
  entryOrigin,
  jsonPath,
  jsonPathOfDotted,
  studioHref,
  traceAsset,
  traceField,
  traceSeo,
  traceValue,
  type Trace,
} from './source-map.js';

const base = { publicUrl: 'https://cms.example/', workspaceSlug: 'demo', defaultLocale: 'en' };
const mapOnly = () => createTrace({ ...base, sourceMaps: true, stega: false })!;
const both = () => createTrace({ ...base, sourceMaps: true, stega: true })!;
const post = (t: Trace) => entryOrigin(t, { id: 'e1', type: 'post', slug: 'hello world' });
const de = { locale: 'de', requested: 'de', isDefault: false };

describe('jsonPath', () => {
  it('writes identifiers with a dot, other keys quoted, indexes in brackets', () => {
    expect(jsonPath('$', 'title')).toBe('$.title');
    expect(jsonPath('$', 3)).toBe('$[3]');
    expect(jsonPath('$.a', 'my-key')).toBe("$.a['my-key']");
    expect(jsonPath('$', "it's\\")).toBe("$['it\\'s\\\\']");
    expect(jsonPathOfDotted('blocks.0.children.12')).toBe('$.blocks[0].children[12]');
  });
});

describe('createTrace', () => {
  it('is null unless source maps or stega are asked for, and builds Studio URLs from PUBLIC_URL', () => {
    expect(createTrace({ ...base, sourceMaps: false, stega: false })).toBeNull();
    const t = mapOnly();
    expect(t.studio).toBe('https://cms.example/studio/demo');
    expect(post(t).href).toBe('https://cms.example/studio/demo/content/post/hello%20world');
  });
});

describe('traceValue', () => {
  it('maps every string of a value at its path and leaves it unchanged without stega', () => {
    const t = mapOnly();
    const value = ['a', 'b'];
    expect(traceValue(t, '$.tags', post(t), { name: 'tags', field_type: 'tags' }, 'en', value)).toEqual(value);
    expect(t.mappings).toEqual({
      '$.tags[0]': { kind: 'entry', id: 'e1', content_type: 'post', field: 'tags', locale: 'en' },
      '$.tags[1]': { kind: 'entry', id: 'e1', content_type: 'post', field: 'tags', locale: 'en' },
    });
  });

  it('maps the text nodes of a rich-text document only', () => {
    const t = mapOnly();
    const doc = {
      nodeType: 'document',
      data: {},
      content: [{ nodeType: 'hyperlink', data: { uri: 'https://x.test' }, content: [{ nodeType: 'text', value: 'Hi', marks: [{ type: 'bold' }], data: {} }] }],
    };
    expect(traceValue(t, '$.body', post(t), { name: 'body', field_type: 'rich_text' }, 'de', doc)).toEqual(doc);
    expect(Object.keys(t.mappings)).toEqual(['$.body.content[0].content[0].value']);
  });

  it('encodes text-like strings with a payload naming the item, field, locale and Studio link; leaves data types byte-identical', () => {
    const t = both();
    const item = post(t);
    const title = traceValue(t, '$.title', item, { name: 'title', field_type: 'text' }, 'de', 'Hallo') as string;
    expect(vercelStegaSplit(title).cleaned).toBe('Hallo');
    expect(vercelStegaDecode(title)).toEqual({
      origin: 'quire',
      href: 'https://cms.example/studio/demo/content/post/hello%20world?field=title&locale=de',
      kind: 'entry',
      id: 'e1',
      content_type: 'post',
      field: 'title',
      locale: 'de',
    });
    for (const [field_type, v] of [
      ['url', 'https://x.test/a'],
      ['date', '2026-01-01'],
      ['datetime', '2026-01-01T00:00:00.000Z'],
      ['select', 'news'],
      ['email', 'a@b.test'],
      ['relation', '0190d1a2-0000-7000-8000-000000000000'],
      ['json', { a: ['x'] }],
    ] as const) {
      expect(traceValue(t, `$.${field_type}`, item, { name: field_type, field_type }, 'en', v)).toEqual(v);
    }
    expect(traceValue(t, '$.empty', item, { name: 'empty', field_type: 'text' }, 'en', '')).toBe('');
    expect(t.mappings['$.json.a[0]']).toMatchObject({ field: 'json' });
    const html = traceValue(t, '$.body_html', item, { name: 'body', field_type: 'rich_text' }, 'en', '<p>x</p>', 'html') as string;
    expect(vercelStegaDecode(html)).toMatchObject({ field: 'body' });
  });

  it('names a block by its path and its page in the Studio link', () => {
    const t = both();
    const block = blockOrigin(t, { id: 'b1', type: 'hero', path: 'blocks.1.children.0' }, { slug: 'home' });
    const v = traceValue(t, '$.blocks[1].children[0].data.headline', block, { name: 'headline', field_type: 'text' }, 'en', 'Hi') as string;
    const payload = vercelStegaDecode<{ href: string; path: string }>(v)!;
    expect(payload.path).toBe('blocks.1.children.0');
    expect(payload.href).toBe('https://cms.example/studio/demo/pages/home?block=b1&path=blocks.1.children.0&field=headline&locale=en');
    expect(studioHref(assetOrigin(t, { id: 'a1' }), { kind: 'asset', id: 'a1', field: 'alt_text', locale: 'en' })).toBe(
      'https://cms.example/studio/demo/media?asset=a1&field=alt_text&locale=en',
    );
  });

  it('property: cleaning a traced value gives the value back', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom('text', 'textarea', 'rich_text', 'json', 'tags', 'url'), (value, field_type) => {
        fc.pre(vercelStegaSplit(JSON.stringify(value) ?? '').encoded === '');
        const t = both();
        const traced = traceValue(t, '$.v', post(t), { name: 'v', field_type }, 'en', value);
        // As JSON, as answers are sent (vercelStegaClean round-trips through JSON: -0 reads as 0).
        expect(JSON.stringify(vercelStegaClean(traced))).toBe(JSON.stringify(value));
      }),
    );
  });
});

describe('traceField, traceAsset, traceSeo', () => {
  it('takes the locale a localizable value came from, the default for the rest', () => {
    const t = mapOnly();
    const item = post(t);
    traceField(t, '$.a', item, { name: 'title', field_type: 'text', localizable: true }, { title: 'Hallo' }, de, 'Hallo');
    traceField(t, '$.b', item, { name: 'summary', field_type: 'text', localizable: true }, { title: 'Hallo' }, de, 'Sum');
    traceField(t, '$.c', item, { name: 'title', field_type: 'text', localizable: false }, { title: 'Hallo' }, de, 'Hello');
    expect([t.mappings['$.a'].locale, t.mappings['$.b'].locale, t.mappings['$.c'].locale]).toEqual(['de', 'en', 'en']);
  });

  it('traces an asset copy (the shared object untouched) and SEO keys as seo.<key>', () => {
    const t = both();
    const asset = { id: 'a1', url: 'https://x.test/a.png', alt_text: 'Alt', title: null, description: 'D' };
    const traced = traceAsset(t, '$.cover', asset);
    expect(asset.alt_text).toBe('Alt');
    expect(traced.url).toBe(asset.url);
    expect(vercelStegaDecode(traced.alt_text!)).toMatchObject({ kind: 'asset', id: 'a1', field: 'alt_text' });
    expect(t.mappings['$.cover.title']).toBeUndefined();
    const seo = { title: 'Start', description: 'Welcome', keywords: ['k'], og_image: null, canonical: 'https://x.test/' };
    const fields = [
      { name: 'title', field_type: 'text' },
      { name: 'description', field_type: 'textarea' },
      { name: 'keywords', field_type: 'tags' },
      { name: 'og_image', field_type: 'url' },
      { name: 'canonical', field_type: 'url' },
    ] as const;
    const page = { kind: 'page' as const, id: 'p1', href: 'https://cms.example/studio/demo/pages/home' };
    const out = traceSeo(t, '$.page.seo', page, seo, fields, { title: 'Start' }, de);
    expect(out.canonical).toBe('https://x.test/');
    expect(out.keywords).toEqual(['k']);
    expect(t.mappings['$.page.seo.title']).toEqual({ kind: 'page', id: 'p1', field: 'seo.title', locale: 'de' });
    expect(t.mappings['$.page.seo.description'].locale).toBe('en');
    expect(t.mappings['$.page.seo.keywords[0]'].field).toBe('seo.keywords');
  });
});
