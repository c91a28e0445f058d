#!/usr/bin/env node
/**
 * A synthetic Contentful space export of N entries, written as a stream (the file is never held
 * in memory), for the import benchmark (bench/import.js) and the streaming import suite
 * (test/import-streaming.test.ts). `node bench/contentful-export.js FILE N` writes one.
 *
 * Shaped like a real export (`contentful space export`): the top-level keys in Contentful's order
 * (contentTypes, tags, editorInterfaces, entries, assets, locales, webhooks, roles; the locales
 * come after the entries), two locales (en-US default, de-DE), and three content types:
 *
 * - `author` (one per 50 articles): name, a localized bio, an avatar asset;
 * - `category` (20): title and a unique slug;
 * - `article` (the rest): a localized title, a unique slug, a localized rich-text body with an
 *   embedded entry and an entry hyperlink, a date-time, integer, number, boolean, tags, a select
 *   (`in` validation), a location, an author and a category link, a hero asset and a list of
 *   related articles, one of them far ahead in the file (in a later write batch) and one behind.
 *
 * States: most entries published, about 1 in 10 a draft, 1 in 33 with unpublished changes and 1
 * in 50 archived. One asset per 20 articles. Every value is derived from the entry's number, so
 * the same N always gives the same file.
 */
import fs from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const LOCALES = [
  { code: 'en-US', name: 'English (United States)', default: true, fallbackCode: null, sys: { id: 'locEn', type: 'Locale', version: 1 } },
  { code: 'de-DE', name: 'German (Germany)', default: false, fallbackCode: 'en-US', sys: { id: 'locDe', type: 'Locale', version: 1 } },
];

const link = (linkType, id) => ({ sys: { type: 'Link', linkType, id } });
const ctSys = (id) => ({ id, type: 'ContentType', version: 3, publishedVersion: 2 });

const CONTENT_TYPES = [
  {
    sys: ctSys('author'),
    name: 'Author',
    displayField: 'name',
    fields: [
      { id: 'name', name: 'Name', type: 'Symbol', required: true },
      { id: 'bio', name: 'Bio', type: 'Text', localized: true },
      { id: 'avatar', name: 'Avatar', type: 'Link', linkType: 'Asset' },
    ],
  },
  {
    sys: ctSys('category'),
    name: 'Category',
    displayField: 'title',
    fields: [
      { id: 'title', name: 'Title', type: 'Symbol', required: true },
      { id: 'slug', name: 'Slug', type: 'Symbol', validations: [{ unique: true }] },
    ],
  },
  {
    sys: ctSys('article'),
    name: 'Article',
    displayField: 'title',
    fields: [
      { id: 'title', name: 'Title', type: 'Symbol', localized: true, required: true },
      { id: 'slug', name: 'Slug', type: 'Symbol', required: true, validations: [{ unique: true }] },
      { id: 'body', name: 'Body', type: 'RichText', localized: true },
      { id: 'publishDate', name: 'Publish date', type: 'Date' },
      { id: 'readingMinutes', name: 'Reading minutes', type: 'Integer' },
      { id: 'score', name: 'Score', type: 'Number' },
      { id: 'featured', name: 'Featured', type: 'Boolean' },
      { id: 'tags', name: 'Tags', type: 'Array', items: { type: 'Symbol' } },
      { id: 'kind', name: 'Kind', type: 'Symbol', validations: [{ in: ['news', 'guide', 'opinion', 'review'] }] },
      { id: 'place', name: 'Place', type: 'Location' },
      { id: 'author', name: 'Author', type: 'Link', linkType: 'Entry', validations: [{ linkContentType: ['author'] }] },
      { id: 'category', name: 'Category', type: 'Link', linkType: 'Entry', validations: [{ linkContentType: ['category'] }] },
      { id: 'hero', name: 'Hero image', type: 'Link', linkType: 'Asset' },
      { id: 'related', name: 'Related', type: 'Array', items: { type: 'Link', linkType: 'Entry', validations: [{ linkContentType: ['article'] }] } },
    ],
  },
];

const WORDS = 'quire content export stream batch index entry asset locale field value title body reading guide review news opinion data model page'.split(' ');
const words = (seed, n) => Array.from({ length: n }, (_, i) => WORDS[(seed * 7 + i * 13) % WORDS.length]).join(' ');
const CATEGORIES = 20;

/** How many entries of each type an export of `total` entries has. */
export function syntheticCounts(total) {
  const authors = Math.max(1, Math.floor(total / 50));
  const categories = Math.min(CATEGORIES, Math.max(1, total - authors - 1));
  const articles = Math.max(0, total - authors - categories);
  return { authors, categories, articles, assets: Math.max(1, Math.ceil(articles / 20)) };
}

const timeOf = (n) => new Date(Date.UTC(2024, 0, 1) + n * 60_000).toISOString();

/** sys of an entry: every 10th a draft, every 33rd changed since its publication, every 50th archived. */
function entrySys(id, type, n) {
  const base = { id, type: 'Entry', createdAt: timeOf(n), updatedAt: timeOf(n + 1), contentType: { sys: { type: 'Link', linkType: 'ContentType', id: type } } };
  if (n % 50 === 49) return { ...base, version: 5, publishedVersion: 3, archivedVersion: 4 };
  if (n % 10 === 9) return { ...base, version: 2 };
  if (n % 33 === 32) return { ...base, version: 6, publishedVersion: 3 };
  return { ...base, version: 4, publishedVersion: 3 };
}

const authorId = (i) => `author${i}`;
const categoryId = (i) => `category${i}`;
const articleId = (i) => `article${i}`;
const assetId = (i) => `asset${i}`;

function paragraph(text, extra = []) {
  return { nodeType: 'paragraph', data: {}, content: [{ nodeType: 'text', value: text, marks: [], data: {} }, ...extra] };
}

function article(i, c) {
  const n = c.authors + c.categories + i;
  const ahead = articleId((i + Math.floor(c.articles / 2) + 1) % c.articles);
  const behind = articleId((i + c.articles - 3) % c.articles);
  const hyperlink = {
    nodeType: 'entry-hyperlink',
    data: { target: link('Entry', behind) },
    content: [{ nodeType: 'text', value: 'an older one', marks: [], data: {} }],
  };
  const body = (lang) => ({
    nodeType: 'document',
    data: {},
    content: [
      paragraph(`${lang} ${words(i, 16)}.`, [hyperlink]),
      { nodeType: 'embedded-entry-block', data: { target: link('Entry', ahead) }, content: [] },
      paragraph(`${lang} ${words(i + 1, 8)}.`),
    ],
  });
  return {
    sys: entrySys(articleId(i), 'article', n),
    fields: {
      title: { 'en-US': `Article ${i}: ${words(i, 5)}`, 'de-DE': `Artikel ${i}: ${words(i + 2, 5)}` },
      slug: { 'en-US': `article-${i}` },
      body: i % 4 === 0 ? { 'en-US': body('EN'), 'de-DE': body('DE') } : { 'en-US': body('EN') },
      publishDate: { 'en-US': timeOf(n) },
      readingMinutes: { 'en-US': 1 + (i % 30) },
      score: { 'en-US': (i % 1000) / 10 },
      featured: { 'en-US': i % 7 === 0 },
      tags: { 'en-US': [WORDS[i % WORDS.length], WORDS[(i + 3) % WORDS.length]] },
      kind: { 'en-US': ['news', 'guide', 'opinion', 'review'][i % 4] },
      place: { 'en-US': { lat: 48 + (i % 100) / 100, lon: 11 + (i % 100) / 100 } },
      author: { 'en-US': link('Entry', authorId(i % c.authors)) },
      category: { 'en-US': link('Entry', categoryId(i % c.categories)) },
      hero: { 'en-US': link('Asset', assetId(i % c.assets)) },
      related: { 'en-US': c.articles > 1 ? [link('Entry', ahead), link('Entry', behind)] : [] },
    },
  };
}

function author(i, c) {
  return {
    sys: entrySys(authorId(i), 'author', i),
    fields: {
      name: { 'en-US': `Author ${i}` },
      bio: { 'en-US': `Writes about ${words(i, 6)}.`, 'de-DE': `Schreibt über ${words(i, 6)}.` },
      avatar: { 'en-US': link('Asset', assetId(i % c.assets)) },
    },
  };
}

function category(i, c) {
  // Categories are never drafts: every article links one.
  return {
    sys: { ...entrySys(categoryId(i), 'category', c.authors + i), version: 4, publishedVersion: 3, archivedVersion: undefined },
    fields: { title: { 'en-US': `Category ${i}` }, slug: { 'en-US': `category-${i}` } },
  };
}

function asset(i) {
  const id = assetId(i);
  return {
    sys: { id, type: 'Asset', version: 3, publishedVersion: 2 },
    fields: {
      title: { 'en-US': `Picture ${i}` },
      file: {
        'en-US': {
          url: `//images.ctfassets.net/space/${id}/0123456789abcdef/picture-${i}.jpg`,
          fileName: `picture-${i}.jpg`,
          contentType: 'image/jpeg',
          details: { size: 10_000 + i, image: { width: 1200, height: 800 } },
        },
      },
    },
  };
}

/** Every entry of the export in file order: authors, categories, then articles. */
export function* syntheticEntries(total) {
  const c = syntheticCounts(total);
  for (let i = 0; i < c.authors; i++) yield author(i, c);
  for (let i = 0; i < c.categories; i++) yield category(i, c);
  for (let i = 0; i < c.articles; i++) yield article(i, c);
}

/**
 * Writes the export of `total` entries to `file` as a stream; resolves with its size in bytes
 * and the counts of entries per type and of assets.
 */
export async function writeSyntheticExport(file, total) {
  const c = syntheticCounts(total);
  const out = fs.createWriteStream(file);
  const write = async (text) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  const list = async (key, items, last = false) => {
    await write(`  "${key}": [`);
    let first = true;
    for (const item of items) {
      await write(`${first ? '\n' : ',\n'}    ${JSON.stringify(item)}`);
      first = false;
    }
    await write(`${first ? '' : '\n  '}]${last ? '\n' : ',\n'}`);
  };
  await write('{\n');
  await list('contentTypes', CONTENT_TYPES);
  await list('tags', []);
  await list(
    'editorInterfaces',
    CONTENT_TYPES.map((ct) => ({ sys: { id: 'default', contentType: link('ContentType', ct.sys.id) }, controls: ct.fields.map((f) => ({ fieldId: f.id })) })),
  );
  await list('entries', syntheticEntries(total));
  await list(
    'assets',
    (function* () {
      for (let i = 0; i < c.assets; i++) yield asset(i);
    })(),
  );
  await list('locales', LOCALES);
  await list('webhooks', []);
  await list('roles', [], true);
  await write('}\n');
  out.end();
  await once(out, 'finish');
  return { bytes: fs.statSync(file).size, entries: c.authors + c.categories + c.articles, ...c };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [file, n] = process.argv.slice(2);
  if (!file || !Number.isSafeInteger(Number(n)) || Number(n) < 1) {
    console.error('usage: node bench/contentful-export.js FILE ENTRIES');
    process.exit(2);
  }
  const made = await writeSyntheticExport(file, Number(n));
  console.log(JSON.stringify(made));
}
