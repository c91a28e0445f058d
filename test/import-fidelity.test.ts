/**
 * Faithful content (issue 12 item 2): validations carried over where Quire has the rule and
 * named in a warning where not, `in` on a Symbol as a select, date-only Date fields as `date`,
 * field ids renamed by the documented rule with every rename listed, and fields an entry lacks
 * not delivered; entry and asset links inside rich text pointing at the Quire ids of the imported
 * entries and media and rendered by `<rich>_html` (entry hyperlinks as `<a data-entry-…>` around
 * their own text, embedded entries by their display field, embedded images as `<img>`), never as
 * `type: entry-hyperlink id: …`. On the real export in ../shared/data, and on focused export shapes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findContentTypeBySlug } from '../src/modules/content-types/repository.js';
import { fieldValidation } from '../src/modules/content-types/model.js';
import { importContentful, type ImportResult } from '../src/modules/import/operations.js';
import type { ContentfulExport } from '../src/modules/import/contentful/export.js';
import { fieldNameFor, planSchema } from '../src/modules/import/contentful/schema-mapping.js';
import { assetIdFor, entryIdFor, remapRichText } from '../src/modules/import/contentful/content-mapping.js';
import { richTextToHtml } from '../src/modules/richtext/render.js';
import { call, createTestEnv, dialects, type TestEnv } from './helpers.js';

const EXPORT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../shared/data/contentful/marketing-fintech.json');
const present = fs.existsSync(EXPORT);
const skip = !present && !process.env.CI;
const P = '/api/v1/public';

/** A small export with the shapes the real one lacks. */
function shapes(): ContentfulExport {
  return {
    locales: [{ code: 'en-US', default: true }],
    contentTypes: [
      {
        sys: { id: 'event' },
        name: 'Event',
        displayField: 'SEOTitle',
        fields: [
          { id: 'SEOTitle', name: 'SEO title', type: 'Symbol', validations: [{ size: { min: 2, max: 60 } }, { prohibitRegexp: { pattern: 'x' } }] },
          { id: 'URL', name: 'URL', type: 'Symbol', validations: [{ regexp: { pattern: '^https://', flags: 'i' } }] },
          { id: 'day', name: 'Day', type: 'Date' },
          { id: 'startsAt', name: 'Starts at', type: 'Date', validations: [{ dateRange: { min: '2020-01-01' } }] },
          { id: 'seats', name: 'Seats', type: 'Integer', validations: [{ range: { min: 1, max: 500 } }, { in: [10, 20] }] },
          { id: 'level', name: 'Level', type: 'Symbol', validations: [{ in: ['basic', 'pro'] }] },
          { id: 'speakers', name: 'Speakers', type: 'Array', validations: [{ size: { max: 2 } }], items: { type: 'Link', linkType: 'Entry' } },
          { id: 'notes', name: 'Notes', type: 'Text' },
        ],
      },
    ],
    entries: [
      {
        sys: { id: 'E1', contentType: { sys: { id: 'event' } }, publishedVersion: 1, version: 2 },
        fields: {
          SEOTitle: { 'en-US': 'Launch' },
          URL: { 'en-US': 'HTTPS://example.com' },
          day: { 'en-US': '2024-05-01' },
          startsAt: { 'en-US': '2024-05-01T10:00+02:00' },
          seats: { 'en-US': 20 },
          level: { 'en-US': 'pro' },
        },
      },
    ],
    assets: [],
  };
}

const ABOUT_INFO = 'ohspi5gYQSqQdFADFTg6F'; // topicBusinessInfo: its body embeds three people and two components
const PEOPLE = ['1jt29A18iuzzBstXBpZXgL', '2r0v7iZ7SS0khYkCAK82lw', '5YEkWZ4oATSKbR2i7ZUF06'];
const DUPLEX = '768TurwznzU0zJ9P8Uh2Vu'; // componentDuplex: its bodyText links the pricing page

const link = (linkType: 'Entry' | 'Asset', id: string) => ({ target: { sys: { id, type: 'Link', linkType } } });
const text = (value: string) => ({ nodeType: 'text', value, marks: [], data: {} });
const para = (...content: unknown[]) => ({ nodeType: 'paragraph', data: {}, content });

/** Articles whose body links a person (published and draft), an image and a missing entry. */
function linkShapes(): ContentfulExport {
  const body = {
    nodeType: 'document',
    data: {},
    content: [
      para(
        text('See '),
        { nodeType: 'entry-hyperlink', data: link('Entry', 'ada'), content: [text('our <lead>')] },
        text(', '),
        { nodeType: 'entry-hyperlink', data: link('Entry', 'bob'), content: [text('a draft')] },
        text(' and '),
        { nodeType: 'entry-hyperlink', data: link('Entry', 'gone'), content: [text('nobody')] },
        { nodeType: 'embedded-entry-inline', data: link('Entry', 'ada'), content: [] },
        { nodeType: 'asset-hyperlink', data: link('Asset', 'pic'), content: [text('the photo')] },
      ),
      { nodeType: 'embedded-entry-block', data: link('Entry', 'ada'), content: [] },
      { nodeType: 'embedded-entry-block', data: link('Entry', 'gone'), content: [] },
      { nodeType: 'embedded-asset-block', data: link('Asset', 'pic'), content: [] },
    ],
  };
  const published = { publishedVersion: 1, version: 2 };
  return {
    locales: [{ code: 'en-US', default: true }],
    contentTypes: [
      { sys: { id: 'person' }, name: 'Person', displayField: 'name', fields: [{ id: 'name', name: 'Name', type: 'Symbol' }] },
      {
        sys: { id: 'article' },
        name: 'Article',
        displayField: 'title',
        fields: [
          { id: 'title', name: 'Title', type: 'Symbol' },
          { id: 'body', name: 'Body', type: 'RichText' },
        ],
      },
    ],
    entries: [
      { sys: { id: 'ada', contentType: { sys: { id: 'person' } }, ...published }, fields: { name: { 'en-US': 'Ada <Lovelace>' } } },
      { sys: { id: 'bob', contentType: { sys: { id: 'person' } }, version: 1 }, fields: { name: { 'en-US': 'Bob' } } },
      { sys: { id: 'a1', contentType: { sys: { id: 'article' } }, ...published }, fields: { title: { 'en-US': 'Hello' }, body: { 'en-US': body } } },
    ],
    assets: [
      {
        sys: { id: 'pic', ...published },
        fields: {
          title: { 'en-US': 'A "photo"' },
          file: {
            'en-US': {
              url: '//images.example.com/pic.png',
              fileName: 'pic.png',
              contentType: 'image/png',
              details: { size: 10, image: { width: 40, height: 30 } },
            },
          },
        },
      },
    ],
  };
}

describe('rich-text links', () => {
  it('remaps targets and unwraps or removes the ones not imported', () => {
    const doc = linkShapes().entries[2].fields.body['en-US'] as Record<string, unknown>;
    const known: Record<string, string> = { ada: 'q-ada', pic: 'q-pic' };
    const gone: string[] = [];
    const [out] = remapRichText(doc, (id) => known[id] ?? void gone.push(id));
    const json = JSON.stringify(out);
    expect(json).not.toMatch(/"id":"(ada|pic|bob|gone)"/);
    expect(json.match(/"id":"q-ada"/g)).toHaveLength(3);
    expect(gone).toEqual(['bob', 'gone', 'gone']);
    // The unresolved hyperlinks' text stays in the paragraph; the unresolved embedded block is gone.
    expect(json).toContain('"value":"nobody"');
    expect((out.content as unknown[]).length).toBe(3);
  });

  it('renders without resolved targets as text only, never the renderer placeholder', () => {
    const doc = linkShapes().entries[2].fields.body['en-US'];
    const html = richTextToHtml(doc)!;
    expect(html).toBe('<p>See our &lt;lead&gt;, a draft and nobodythe photo</p>');
  });
});

describe('field names for Contentful ids', () => {
  it('keeps valid ids and renames the rest by one rule', () => {
    const used = new Set<string>();
    expect(['title', 'SEOTitle', 'URL', 'Body', 'tag-list', '9lives', 'seoTitle'].map((id) => fieldNameFor(id, used))).toEqual([
      'title',
      'seoTitle',
      'url',
      'body',
      'tag_list',
      'f_9lives',
      'seoTitle_2',
    ]);
  });
});

describe.skipIf(skip).each(dialects())('faithful content on %s', (dialect) => {
  let env: TestEnv;
  let real: ImportResult;
  let shaped: ImportResult;
  let linked: ImportResult;
  beforeAll(async () => {
    if (!present) throw new Error(`the Contentful export ${EXPORT} is missing`);
    env = await createTestEnv(dialect);
    real = await importContentful(env.ctx, { workspace: 'fintech', file: EXPORT });
    shaped = await importContentful(env.ctx, { workspace: 'events', export: shapes() });
    linked = await importContentful(env.ctx, { workspace: 'links', export: linkShapes() });
  });
  afterAll(async () => env?.close());

  const field = async (ws: string, type: string, name: string) => {
    const ct = await findContentTypeBySlug(env.ctx.db, ws, type);
    return ct!.fields.find((f) => f.name === name)!;
  };

  it('carries regexp, size, range, in and linkContentType of the real export over as Quire rules', async () => {
    const ws = real.workspace.id;
    expect(fieldValidation(await field(ws, 'topic-person', 'website')).pattern).toMatch(/^\^\(ftp\|http\|https\)/);
    expect(fieldValidation(await field(ws, 'component-product-table', 'products'))).toEqual({ min: 1, max: 3 });
    expect(fieldValidation(await field(ws, 'navigation-menu', 'menuItems'))).toEqual({ max: 4 });
    expect(fieldValidation(await field(ws, 'topic-product', 'price'))).toEqual({ min: 0 });
    const palette = await field(ws, 'component-hero-banner', 'colorPalette');
    expect(palette.field_type).toBe('select');
    expect(JSON.parse(palette.options!)).toHaveLength(7);
    expect(JSON.parse((await field(ws, 'menu-group', 'featuredPages')).options!)).toEqual(['post', 'category', 'page']);
    // The Symbol with `in` keeps its values.
    const banner = (await call(env.app, 'GET', `${P}/pages/home`, { key: real.keys!.delivery })).body.data.blocks[0];
    expect(JSON.parse(banner.data).colorPalette).toMatch(/^\d\. /);
  });

  it('names every validation it cannot map in a warning', () => {
    const dropped = real.warnings.filter((w) => w.includes(': validation '));
    // linkMimetypeGroup ["image"] became media_kinds (test/import-media-rules.test.ts).
    expect(dropped.filter((w) => w.includes("'linkMimetypeGroup'"))).toEqual([]);
    expect(dropped.some((w) => w.startsWith("content type 'component-quote': field 'quote': validation 'nodes'"))).toBe(true);
    expect(dropped.every((w) => w.endsWith('has no Quire rule and is not imported'))).toBe(true);
    expect(real.renamed_fields).toEqual([]);
  });

  it('does not deliver fields an entry lacks', async () => {
    // Jesse Ferguson has no `website`: the key is absent, not null.
    const res = await call(env.app, 'GET', `${P}/entries/jesse-ferguson-leadership?type=topic-person`, { key: real.keys!.delivery });
    const data = JSON.parse(res.body.data.entry.data);
    expect(Object.keys(data).sort()).toEqual(['avatar', 'bio', 'cardStyle', 'internalName', 'location', 'name']);
  });

  it('maps focused shapes: renames listed, date-only dates, rules, selects and warnings', async () => {
    const ws = shaped.workspace.id;
    expect(shaped.failures).toEqual([]);
    expect(shaped.renamed_fields).toEqual([
      { content_type: 'event', from: 'SEOTitle', to: 'seoTitle' },
      { content_type: 'event', from: 'URL', to: 'url' },
    ]);
    expect(fieldValidation(await field(ws, 'event', 'seoTitle'))).toEqual({ min_length: 2, max_length: 60 });
    expect(fieldValidation(await field(ws, 'event', 'url'))).toEqual({ pattern: '(?i)^https://' });
    expect(fieldValidation(await field(ws, 'event', 'seats'))).toEqual({ min: 1, max: 500 });
    expect(fieldValidation(await field(ws, 'event', 'speakers'))).toEqual({ max: 2 });
    expect((await field(ws, 'event', 'day')).field_type).toBe('date');
    expect((await field(ws, 'event', 'startsAt')).field_type).toBe('datetime');
    expect((await field(ws, 'event', 'level')).field_type).toBe('select');
    expect(shaped.warnings).toEqual([
      `content type 'event': field 'SEOTitle': validation 'prohibitRegexp' {"pattern":"x"} has no Quire rule and is not imported`,
      `content type 'event': field 'startsAt': validation 'dateRange' {"min":"2020-01-01"} has no Quire rule and is not imported`,
      `content type 'event': field 'seats': validation 'in' [10,20] has no Quire rule and is not imported`,
    ]);
    const res = await call(env.app, 'GET', `${P}/entries/launch?type=event`, { key: shaped.keys!.delivery });
    expect(JSON.parse(res.body.data.entry.data)).toEqual({
      seoTitle: 'Launch',
      url: 'HTTPS://example.com',
      day: '2024-05-01',
      startsAt: '2024-05-01T10:00:00.000+02:00',
      seats: 20,
      level: 'pro',
    });
  });

  it('plans the same schema on every run', async () => {
    const exp = JSON.parse(fs.readFileSync(EXPORT, 'utf8')) as ContentfulExport;
    expect(planSchema(exp).warnings).toEqual(planSchema(exp).warnings);
    const again = await importContentful(env.ctx, { workspace: 'events', export: shapes() });
    expect(again.content_types).toMatchObject({ unchanged: 1 });
    expect(again.entries).toMatchObject({ unchanged: 1 });
  });

  it('points embedded entries of the real export at Quire entries and renders them by display field', async () => {
    const ws = real.workspace.id;
    const key = real.keys!.delivery;
    const res = await call(env.app, 'GET', `${P}/entries/about-us?type=topic-business-info&fields=body,body_html`, { key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = JSON.parse(res.body.data.entry.data);
    const stored = JSON.stringify(data.body);
    for (const cf of PEOPLE) expect(stored).toContain(`"id":"${entryIdFor(ws, cf)}"`);
    expect(stored).not.toMatch(/"id":"[0-9A-Za-z]{20,22}"/);
    const html: string = data.body_html;
    expect(html).not.toContain('type: ');
    const people = await call(env.app, 'GET', `${P}/entries?type=topic-person&fields=internalName`, { key });
    const byId = new Map<string, { slug: string; data: string }>(people.body.data.map((e: { id: string; slug: string; data: string }) => [e.id, e]));
    for (const cf of PEOPLE) {
      const id = entryIdFor(ws, cf);
      const { slug, data: personData } = byId.get(id)!;
      const name = (JSON.parse(personData).internalName as string).replace(/&/g, '&amp;');
      expect(html).toContain(`<div data-entry-id="${id}" data-entry-type="topic-person" data-entry-slug="${slug}">${name}</div>`);
    }
    // Components embedded in the body became page blocks (no single entry to point at): removed, with a warning.
    const dropped = real.warnings.filter((w) => w.startsWith(`entry '${ABOUT_INFO}' (topic-business-info.body`));
    expect(dropped.length).toBeGreaterThan(0);
    expect(dropped.every((w) => w.includes('which is imported as a block, not an entry'))).toBe(true);
    // The duplex component's link to the pricing page (a page, not an entry) keeps its text.
    expect(real.warnings.some((w) => w.startsWith(`entry '${DUPLEX}'`) && w.includes('imported as a page'))).toBe(true);
  });

  it('renders entry hyperlinks, embedded entries and assets of a focused shape', async () => {
    const ws = linked.workspace.id;
    expect(linked.failures).toEqual([]);
    const ada = entryIdFor(ws, 'ada');
    const pic = assetIdFor(ws, 'pic');
    const res = await call(env.app, 'GET', `${P}/entries/hello?type=article&fields=body_html,body_text`, { key: linked.keys!.delivery });
    const data = JSON.parse(res.body.data.entry.data);
    const attrs = `data-entry-id="${ada}" data-entry-type="person" data-entry-slug="ada-lovelace"`;
    expect(data.body_html).toBe(
      `<p>See <a ${attrs}>our &lt;lead&gt;</a>, a draft and nobody<span ${attrs}>Ada &lt;Lovelace&gt;</span>` +
        `<a href="https://images.example.com/pic.png" data-media-id="${pic}">the photo</a></p>` +
        `<div ${attrs}>Ada &lt;Lovelace&gt;</div>` +
        `<img src="https://images.example.com/pic.png" alt="A &quot;photo&quot;" width="40" height="30" loading="lazy" data-media-id="${pic}" />`,
    );
    expect(data.body_text.trim()).toBe('See our <lead>, a draft and nobodythe photo');
    // The preview key sees the draft person: its link renders too.
    const preview = await call(env.app, 'GET', `${P}/entries/hello?type=article&fields=body_html`, { key: linked.keys!.preview });
    expect(JSON.parse(preview.body.data.entry.data).body_html).toContain(`data-entry-id="${entryIdFor(ws, 'bob')}"`);
    expect(linked.warnings.filter((w) => w.includes("links entry 'gone'"))).toHaveLength(2);
  });
});
