/**
 * Faithful content (issue 12 item 2): validations carried over where Quire has the rule and
 * named in a warning where not, `in` on a Symbol as a select, date-only Date fields as `date`,
 * field ids renamed by the documented rule with every rename listed, and fields an entry lacks
 * not delivered. On the real export in ../shared/data, and on focused export shapes.
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
  beforeAll(async () => {
    if (!present) throw new Error(`the Contentful export ${EXPORT} is missing`);
    env = await createTestEnv(dialect);
    real = await importContentful(env.ctx, { workspace: 'fintech', file: EXPORT });
    shaped = await importContentful(env.ctx, { workspace: 'events', export: shapes() });
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
    expect(dropped.filter((w) => w.includes("'linkMimetypeGroup'"))).toHaveLength(5);
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
      startsAt: '2024-05-01T08:00:00.000Z',
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
});
