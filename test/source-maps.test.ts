/**
 * Content Source Maps and stega (docs/visual-editing.md; D140) through REST and GraphQL, on every
 * dialect: every mapped JSONPath resolves in the answer to a string (a JSON-encoded `data` read as
 * the object it encodes) and names the item, field and locale it came from (after fallback);
 * stega strings decode to their mapping; ids, slugs, dates, URLs and select values stay
 * byte-identical; production keys are refused (400); stega-cleaned answers equal plain ones
 * (property test); the delivery cache never serves one kind of answer for the other.
 */
import { vercelStegaClean, vercelStegaDecode, vercelStegaSplit } from '@vercel/stega';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestEnv, dialects, expectError, type Res, type TestEnv } from './helpers.js';
import { createPageWorld, doc, P, type PageWorld } from './pages-fixtures.js';

const POST_TYPE = {
  name: 'Post',
  slug: 'post',
  fields: [
    { name: 'title', field_type: 'text', localizable: true },
    { name: 'body', field_type: 'rich_text', localizable: true },
    { name: 'published_on', field_type: 'date' },
    { name: 'link', field_type: 'url' },
    { name: 'category', field_type: 'select', options: '["news","howto"]' },
    { name: 'tags', field_type: 'tags' },
    { name: 'author', field_type: 'relation', options: '["article"]' },
    { name: 'cover', field_type: 'media' },
  ],
};

type Mapping = { kind: string; id: string; content_type?: string; field: string; locale: string; path?: string };

/** The value at a JSONPath of ours (`$`, `.name`, `['key']`, `[n]`) in `root`, a JSON-encoded string read as what it encodes. */
function at(root: unknown, path: string): unknown {
  const tokens = path.slice(1).match(/\.[A-Za-z_$][A-Za-z0-9_$]*|\[\d+\]|\['(?:[^'\\]|\\.)*'\]/g) ?? [];
  expect(tokens.join('')).toBe(path.slice(1));
  let v: unknown = root;
  for (const t of tokens) {
    if (typeof v === 'string') v = JSON.parse(v);
    const key = t.startsWith('.') ? t.slice(1) : t.startsWith("['") ? t.slice(2, -2).replace(/\\(.)/g, '$1') : Number(t.slice(1, -1));
    v = (v as Record<string | number, unknown>)[key];
  }
  return v;
}

/** Every mapping resolves to a string of `data`. */
function expectResolves(data: unknown, mappings: Record<string, Mapping>): void {
  const paths = Object.keys(mappings);
  expect(paths.length).toBeGreaterThan(0);
  for (const p of paths) expect(typeof at(data, p), p).toBe('string');
}

/** Keys whose strings are not content: a resolved relation's or asset's system values, rich-text node and mark types. */
const NOT_CONTENT = new Set(['id', 'slug', 'type', 'url', 'mime_type', 'nodeType']);

/** The JSONPath of every content string in `value` (a JSON-encoded string read as what it encodes). */
function contentStrings(value: unknown, path: string, out: string[] = []): string[] {
  if (typeof value === 'string' && path.endsWith('.data')) return contentStrings(JSON.parse(value), path, out);
  if (typeof value === 'string') out.push(path);
  else if (Array.isArray(value)) value.forEach((v, i) => contentStrings(v, `${path}[${i}]`, out));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value))
      if (!NOT_CONTENT.has(k)) contentStrings(v, /^[A-Za-z_$][\w$]*$/.test(k) ? `${path}.${k}` : `${path}['${k}']`, out);
  }
  return out;
}

/** Every stega-encoded mapped string decodes to its mapping (plus origin and a Studio link); returns how many carried stega. */
function expectStegaDecodes(data: unknown, mappings: Record<string, Mapping>): number {
  let encoded = 0;
  for (const [p, mapping] of Object.entries(mappings)) {
    const text = at(data, p) as string;
    if (vercelStegaSplit(text).encoded === '') continue;
    encoded++;
    const payload = vercelStegaDecode<Record<string, unknown>>(text)!;
    const { origin, href, ...rest } = payload;
    expect(origin).toBe('quire');
    expect(rest, p).toEqual(mapping);
    expect(String(href)).toMatch(/^http:\/\/quire\.test\/studio\//);
    expect(String(href)).toContain(`field=${encodeURIComponent(mapping.field)}`);
  }
  return encoded;
}

describe.each(dialects())('source maps and stega on %s', (dialect) => {
  let env: TestEnv;
  let w: PageWorld;
  const ids: Record<string, string> = {};

  const get = (url: string, key = w.keys.preview) => call(env.app, 'GET', `${P}${url}`, { key });
  const gql = (query: string, extensions?: Record<string, unknown>, key = w.keys.preview) =>
    call(env.app, 'POST', `${P}/graphql`, { key, body: { query, ...(extensions ? { extensions } : {}) } });

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    w = await createPageWorld(env.ctx, env.app);
    const type = await w.req('POST', '/content-types', POST_TYPE);
    if (type.status !== 201) throw new Error(JSON.stringify(type.body));
    ids.article = await w.article('first', 'First article', 'Erster Artikel');
    ids.cover = await w.media({ alt_text: 'A cover', title: 'Cover', description: 'The cover image' });
    const post = (slug: string, title: string, extra: Record<string, unknown> = {}) =>
      w.req('POST', '/content-types/post/entries', {
        slug,
        data: {
          title,
          body: doc(`Body of ${title}`),
          published_on: '2026-05-01',
          link: 'https://example.com/a',
          category: 'news',
          tags: ['one', 'two'],
          author: ids.article,
          cover: ids.cover,
        },
        ...extra,
      });
    const p1 = await post('p1', 'Hello', { translations: { de: { data: { title: 'Hallo' } } } });
    if (p1.status !== 201) throw new Error(JSON.stringify(p1.body));
    ids.p1 = p1.body.data.id;
    ids.p2 = (await post('p2', 'Second')).body.data.id;
    const home = await w.req('POST', '/pages', {
      slug: 'home',
      seo: { title: 'Home', description: 'Welcome', keywords: ['home'], canonical: 'https://example.com/' },
      seo_translations: { de: { title: 'Startseite' } },
      blocks: [
        {
          type: 'hero',
          data: { headline: 'Hi', subline: 'Sub', image: ids.cover, featured: ids.article },
          translations: { de: { data: { headline: 'Servus' } } },
        },
        {
          type: 'feature-grid',
          data: { title: 'Features', columns: 2 },
          children: [
            { type: 'feature-item', data: { label: 'Fast', articles: [ids.article] } },
            { type: 'rich-text', data: { body: doc('Nested text') } },
          ],
        },
      ],
    });
    if (home.status !== 201) throw new Error(JSON.stringify(home.body));
    ids.home = home.body.data.page?.id ?? home.body.data.id;
  });
  afterAll(async () => env?.close());

  it('maps every string of a list to its entry, field and locale; rich text by its text nodes', async () => {
    const res = await get('/entries?type=post&sort=slug:asc&source_maps=true');
    expect(res.status).toBe(200);
    const mappings: Record<string, Mapping> = res.body.meta.source_map.mappings;
    expectResolves(res.body.data, mappings);
    expect(mappings['$[0].data.title']).toEqual({ kind: 'entry', id: ids.p1, content_type: 'post', field: 'title', locale: 'en' });
    expect(mappings['$[0].data.body.content[0].content[0].value']).toMatchObject({ id: ids.p1, field: 'body' });
    expect(at(res.body.data, '$[1].data.body.content[0].content[0].value')).toBe('Body of Second');
    // The related entry's fields are its own; the asset's text fields are the asset's.
    expect(mappings['$[0].data.author.title']).toEqual({ kind: 'entry', id: ids.article, content_type: 'article', field: 'title', locale: 'en' });
    expect(mappings['$[0].data.cover.alt_text']).toEqual({ kind: 'asset', id: ids.cover, field: 'alt_text', locale: 'en' });
    // System values are not content: not mapped.
    expect(mappings['$[0].data.author.id']).toBeUndefined();
    // And every content string is mapped.
    const strings = (res.body.data as { data: string }[]).flatMap((e, i) => contentStrings(e.data, `$[${i}].data`));
    expect(strings.length).toBeGreaterThan(20);
    expect(strings.filter((p) => !mappings[p])).toEqual([]);
    expect(mappings['$[0].data.cover.url']).toBeUndefined();
    // The plain answer has no source map and the same data.
    const plain = await get('/entries?type=post&sort=slug:asc');
    expect(plain.body.meta.source_map).toBeUndefined();
    expect(plain.body.data).toEqual(res.body.data);
  });

  it('gives the locale a value came from after fallback, relations included, and maps renderings', async () => {
    const res = await get('/entries/p1?type=post&locale=de&source_maps=true&fields=title,body_html,body_text,author,category');
    expect(res.status).toBe(200);
    const mappings: Record<string, Mapping> = res.body.meta.source_map.mappings;
    expectResolves(res.body.data, mappings);
    expect(mappings['$.entry.data.title'].locale).toBe('de');
    expect(mappings['$.entry.data.body_html']).toEqual({ kind: 'entry', id: ids.p1, content_type: 'post', field: 'body', locale: 'en' });
    expect(mappings['$.entry.data.body_text'].field).toBe('body');
    expect(mappings['$.entry.data.author.title']).toMatchObject({ id: ids.article, locale: 'de' });
    expect(mappings['$.entry.data.author.summary']).toMatchObject({ id: ids.article, locale: 'en' });
    expect(mappings['$.entry.data.category']).toMatchObject({ field: 'category' });
  });

  it('maps a page: SEO as seo.<key>, blocks nested in blocks with their path, translations', async () => {
    const res = await get('/pages/home?locale=de&source_maps=true');
    expect(res.status).toBe(200);
    const mappings: Record<string, Mapping> = res.body.meta.source_map.mappings;
    expectResolves(res.body.data, mappings);
    expect(mappings['$.page.seo.title']).toEqual({ kind: 'page', id: ids.home, field: 'seo.title', locale: 'de' });
    expect(mappings['$.page.seo.description']).toMatchObject({ field: 'seo.description', locale: 'en' });
    const hero = res.body.data.blocks[0];
    expect(mappings['$.blocks[0].data.headline']).toEqual({
      kind: 'block',
      id: hero.id,
      content_type: 'hero',
      field: 'headline',
      locale: 'de',
      path: 'blocks.0',
    });
    expect(mappings['$.blocks[0].data.subline']).toMatchObject({ locale: 'en' });
    const item = res.body.data.blocks[1].children[0];
    expect(mappings['$.blocks[1].children[0].data.label']).toEqual({
      kind: 'block',
      id: item.id,
      content_type: 'feature-item',
      field: 'label',
      locale: 'en',
      path: 'blocks.1.children.0',
    });
    expect(mappings['$.blocks[1].children[0].data.articles[0].title']).toMatchObject({ kind: 'entry', id: ids.article, locale: 'de' });
    expect(mappings['$.blocks[1].children[1].data.body.content[0].content[0].value']).toMatchObject({ field: 'body', path: 'blocks.1.children.1' });
    const strings = (res.body.data.blocks as unknown[]).flatMap((b, i) => contentStrings(b, `$.blocks[${i}]`)).filter((p) => p.includes('.data'));
    expect(strings.filter((p) => !mappings[p])).toEqual([]);
    expect(mappings['$.block_translations[0].data.headline']).toMatchObject({ kind: 'block', id: hero.id, locale: 'de', path: 'blocks.0' });
    // Without a locale every translation is listed, each in its own locale.
    const all = await get('/pages/home?source_maps=true');
    expectResolves(all.body.data, all.body.meta.source_map.mappings);
    expect(all.body.meta.source_map.mappings['$.seo_translations[0].seo.title']).toEqual({ kind: 'page', id: ids.home, field: 'seo.title', locale: 'de' });
    const list = await get('/pages?source_maps=true');
    expectResolves(list.body.data, list.body.meta.source_map.mappings);
    expect(list.body.meta.source_map.mappings['$[0].seo.title']).toMatchObject({ kind: 'page', field: 'seo.title' });
  });

  it('stega: text strings decode to their mapping; ids, slugs, dates, URLs and select values stay byte-identical', async () => {
    const both = await get('/entries/p1?type=post&locale=de&source_maps=true&stega=true');
    const plain = await get('/entries/p1?type=post&locale=de');
    const mappings: Record<string, Mapping> = both.body.meta.source_map.mappings;
    expectResolves(both.body.data, mappings);
    expect(expectStegaDecodes(both.body.data, mappings)).toBeGreaterThanOrEqual(5);
    const data = JSON.parse(both.body.data.entry.data);
    const plainData = JSON.parse(plain.body.data.entry.data);
    expect(data.title).not.toBe(plainData.title);
    expect(vercelStegaSplit(data.title).cleaned).toBe('Hallo');
    for (const key of ['published_on', 'link', 'category', 'tags']) expect(data[key], key).toEqual(plainData[key]);
    expect(data.author.id).toBe(plainData.author.id);
    expect(data.author.slug).toBe(plainData.author.slug);
    expect(data.cover.url).toBe(plainData.cover.url);
    expect(vercelStegaSplit(data.cover.alt_text).encoded).not.toBe('');
    const { entry, ...rest } = both.body.data;
    const { entry: plainEntry, ...plainRest } = plain.body.data;
    expect(rest).toEqual(plainRest);
    expect({ ...entry, data: '' }).toEqual({ ...plainEntry, data: '' });
    // Stega alone: no source map, the same strings.
    const stegaOnly = await get('/entries/p1?type=post&locale=de&stega=true');
    expect(stegaOnly.body.meta).toBeNull();
    expect(stegaOnly.body.data).toEqual(both.body.data);
    // A page: block strings carry their block and path, its URL stays plain.
    const page = await get('/pages/home?source_maps=true&stega=true');
    expect(expectStegaDecodes(page.body.data, page.body.meta.source_map.mappings)).toBeGreaterThanOrEqual(5);
    expect(page.body.data.page.seo.canonical).toBe('https://example.com/');
  });

  it('refuses source maps and stega to a production key with 400 VALIDATION_FAILED, REST and GraphQL', async () => {
    const live = w.keys.delivery;
    const body = expectError(await get('/entries?type=post&source_maps=true', live), 400, 'VALIDATION_FAILED');
    expect(body.errors).toEqual([{ path: 'query.source_maps', message: expect.stringContaining('preview keys') }]);
    expect(expectError(await get('/entries/p1?stega=true', live), 400, 'VALIDATION_FAILED').errors[0].path).toBe('query.stega');
    expectError(await get('/pages/home?stega=true', live), 400, 'VALIDATION_FAILED');
    expectError(await get('/pages?source_maps=true', live), 400, 'VALIDATION_FAILED');
    // Before anything is read: an unknown type still answers 400.
    expectError(await get('/entries?type=nope&source_maps=true', live), 400, 'VALIDATION_FAILED');
    const g = await gql('{ postCollection { nodes { title } } }', { sourceMaps: true }, live);
    expect(g.status).toBe(400);
    expect(g.body.data).toBeUndefined();
    expect(g.body.errors[0].extensions).toMatchObject({ code: 'BAD_REQUEST', errors: [{ path: 'extensions.sourceMaps' }] });
    expect((await gql('{ postCollection { nodes { title } } }', { stega: true }, live)).status).toBe(400);
    expect((await gql('{ postCollection { nodes { title } } }', undefined, live)).status).toBe(200);
  });

  const QUERY = `{
    one: post(slug: "p1", locale: "de") {
      sys { id slug publishedAt }
      heading: title
      body { json html text }
      published_on link category tags
      author { title summary }
      cover { id url altText title }
    }
    list: postCollection(first: 2, order: [sys_slug_ASC]) { nodes { title writer: author { title } } }
    page(slug: "home", locale: "de") {
      slug
      seo { title description canonical keywords }
      blocks { ... on HeroBlock { headline featured { title } } children { id ... on FeatureItemBlock { label articles { title } } ... on RichTextBlock { body { text } } } }
    }
  }`;

  it('GraphQL: extensions.sourceMap maps aliases, nested relations and blocks; stega decodes; plain answers unchanged', async () => {
    const res = await gql(QUERY, { sourceMaps: true });
    expect(res.status, JSON.stringify(res.body.errors)).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const mappings: Record<string, Mapping> = res.body.extensions.sourceMap.mappings;
    expectResolves(res.body.data, mappings);
    expect(mappings['$.one.heading']).toEqual({ kind: 'entry', id: ids.p1, content_type: 'post', field: 'title', locale: 'de' });
    expect(mappings['$.one.body.json.content[0].content[0].value']).toMatchObject({ field: 'body', locale: 'en' });
    expect(mappings['$.one.body.html']).toMatchObject({ field: 'body' });
    expect(mappings['$.one.author.title']).toMatchObject({ id: ids.article, locale: 'de' });
    expect(mappings['$.one.cover.altText']).toEqual({ kind: 'asset', id: ids.cover, field: 'alt_text', locale: 'en' });
    expect(mappings['$.one.tags[1]']).toMatchObject({ field: 'tags' });
    expect(mappings['$.list.nodes[1].writer.title']).toMatchObject({ kind: 'entry', id: ids.article, locale: 'en' });
    expect(mappings['$.page.seo.title']).toEqual({ kind: 'page', id: ids.home, field: 'seo.title', locale: 'de' });
    expect(mappings['$.page.blocks[0].headline']).toMatchObject({ kind: 'block', content_type: 'hero', locale: 'de', path: 'blocks.0' });
    expect(mappings['$.page.blocks[1].children[0].label']).toMatchObject({ kind: 'block', content_type: 'feature-item', path: 'blocks.1.children.0' });
    expect(mappings['$.page.blocks[1].children[0].articles[0].title']).toMatchObject({ kind: 'entry', id: ids.article });
    expect(mappings['$.one.sys.id']).toBeUndefined();
    // The same paths as REST for the same values.
    const rest = await get('/pages/home?locale=de&source_maps=true');
    expect(rest.body.meta.source_map.mappings['$.blocks[1].children[0].data.label']).toEqual(mappings['$.page.blocks[1].children[0].label']);

    const plain = await gql(QUERY);
    expect(plain.body.extensions).toBeUndefined();
    expect(plain.body.data).toEqual(res.body.data);
    const stega = await gql(QUERY, { sourceMaps: true, stega: true });
    expect(expectStegaDecodes(stega.body.data, stega.body.extensions.sourceMap.mappings)).toBeGreaterThanOrEqual(8);
    expect(vercelStegaClean(stega.body.data)).toEqual(plain.body.data);
    const s = stega.body.data.one;
    const p = plain.body.data.one;
    expect([s.sys, s.published_on, s.link, s.category, s.tags, s.cover.id, s.cover.url]).toEqual([
      p.sys,
      p.published_on,
      p.link,
      p.category,
      p.tags,
      p.cover.id,
      p.cover.url,
    ]);
    expect(stega.body.data.page.slug).toBe('home');
    expect(stega.body.data.page.seo.canonical).toBe('https://example.com/');
  });

  it('the delivery cache keeps traced and plain answers apart (REST by URL, GraphQL GET by extensions)', async () => {
    const url = '/entries?type=post&sort=slug:asc&limit=1';
    const first = await get(url);
    const traced = await get(`${url}&stega=true`);
    const again = await get(url);
    expect(again.body).toEqual(first.body);
    expect(traced.body.data).not.toEqual(first.body.data);
    const q = encodeURIComponent('{ postCollection(first: 1, order: [sys_slug_ASC]) { nodes { title } } }');
    const ext = encodeURIComponent(JSON.stringify({ sourceMaps: true, stega: true }));
    const g1 = await get(`/graphql?query=${q}`);
    const g2 = await get(`/graphql?query=${q}&extensions=${ext}`);
    const g3 = await get(`/graphql?query=${q}`);
    expect(g1.body.extensions).toBeUndefined();
    expect(g2.body.extensions.sourceMap.mappings['$.postCollection.nodes[0].title']).toMatchObject({ id: ids.p1 });
    expect(vercelStegaSplit(g2.body.data.postCollection.nodes[0].title).encoded).not.toBe('');
    expect(g3.body).toEqual(g1.body);
    const g4 = await get(`/graphql?query=${q}&extensions=${ext}`);
    expect(g4.body).toEqual(g2.body);
  });

  it('property: a stega answer cleaned is the plain answer, for any text content, locale and selection', async () => {
    // Text without the characters @vercel/stega encodes with (they would be cleaned out of content too).
    const text = fc.string({ unit: 'grapheme', maxLength: 40 }).filter((s) => vercelStegaSplit(s).encoded === '' && s === s.trim() && s.length > 0);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        text,
        text,
        fc.constantFrom(undefined, 'de', 'fr'),
        fc.constantFrom(undefined, 'title,body_text', 'title,author.title,cover', 'body,body_html'),
        async (title, paragraph, locale, fields) => {
          const slug = `prop-${n++}`;
          const created = await w.req('POST', '/content-types/post/entries', {
            slug,
            data: { title, body: doc(paragraph), author: ids.article, cover: ids.cover, link: 'https://example.com/x' },
            translations: { de: { data: { title: `${title} (de)` } } },
          });
          expect(created.status).toBe(201);
          const query = `type=post${locale ? `&locale=${locale}` : ''}${fields ? `&fields=${fields}` : ''}`;
          const plain: Res = await get(`/entries/${slug}?${query}`);
          const stega: Res = await get(`/entries/${slug}?${query}&stega=true`);
          expect(stega.status).toBe(200);
          expect(vercelStegaClean(stega.body)).toEqual(plain.body);
          const g = `{ post(slug: ${JSON.stringify(slug)}${locale ? `, locale: "${locale}"` : ''}) { title body { text json } author { title } } }`;
          const gPlain = await gql(g);
          const gStega = await gql(g, { stega: true });
          expect(vercelStegaClean(gStega.body)).toEqual(gPlain.body);
        },
      ),
      { numRuns: 12 },
    );
  });
});
