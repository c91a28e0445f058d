/**
 * A synthetic Contentful export with many landing pages, for the pages step's batches
 * (test/import-pages-batches.test.ts). Every value is derived from the numbers given, so the same
 * shape always gives the same export.
 *
 * Entries in file order: articles (imported as entries), pages, then the components the pages
 * link (so every block link points forward, and a component shared by pages far apart is read
 * by several batches) and last the SEO entries. Page `i` links `blocks` components, number
 * `(i * blocks + j) % components` for j = 0 … blocks-1: text blocks with a body of `text`
 * characters, and every fourth a teaser linking an article (a relation from a block to an entry).
 *
 * With `quirks`, the export also holds what the import reports: page slugs that collide with
 * earlier pages (`page-{i-3}` for i % 7 == 3) and pages without a slug titled `Home`; drafts,
 * archived pages and pages with unpublished changes; a missing component and a missing SEO entry;
 * an archived and a draft component; a published component lacking its required heading (the
 * pages using it cannot be published) and an article that cannot be published (links to it are
 * left out). Without quirks every page and component is a plain draft.
 */
import type { ContentfulExport } from '../src/modules/import/contentful/export.js';

export interface PagesExportShape {
  pages: number;
  /** Block links per page. */
  blocks: number;
  /** Component entries the pages share. */
  components: number;
  /** Characters of each text block's body. */
  text: number;
  quirks?: boolean;
}

const ARTICLES = 6;
const link = (id: string) => ({ sys: { type: 'Link', linkType: 'Entry', id } });
const type = (id: string, fields: unknown[], displayField: string | null = null) => ({ sys: { id }, name: id, displayField, fields });
const published = { version: 4, publishedVersion: 3 };
const draft = { version: 1 };
const archived = { version: 5, publishedVersion: 3, archivedVersion: 4 };
const changed = { version: 7, publishedVersion: 3 };
const entry = (id: string, contentType: string, state: object, fields: Record<string, unknown>) => ({
  sys: { id, type: 'Entry', contentType: { sys: { type: 'Link', linkType: 'ContentType', id: contentType } }, ...state },
  fields,
});

// Łódź is beyond Latin-1: V8 holds such a text with two bytes a character (a heavier plan for the
// same bytes written).
const WORDS = 'landing page block stream batch memory slug export component teaser section body Łódź'.split(' ');
/** `length` characters of words, different for each `seed`. */
function prose(seed: number, length: number): string {
  let out = `${seed}:`;
  for (let i = 0; out.length < length; i++) out += ` ${WORDS[(seed * 5 + i * 7) % WORDS.length]}`;
  return out.slice(0, length);
}

export const pageCfId = (i: number) => `page${i}`;
export const componentCfId = (j: number) => `component${j}`;
export const articleCfId = (k: number) => `article${k}`;
export const seoCfId = (i: number) => `seo${i}`;

/** The Contentful entry ids a page links, in link order (missing ones included). */
export function pageLinks(i: number, shape: PagesExportShape): string[] {
  const links = Array.from({ length: shape.blocks }, (_, j) => componentCfId((i * shape.blocks + j) % shape.components));
  if (shape.quirks && i % 9 === 4) links.splice(1, 0, 'missing-component');
  return links;
}

function pageState(i: number, quirks: boolean): object {
  if (!quirks) return draft;
  if (i % 10 === 9) return draft;
  if (i % 17 === 16) return archived;
  if (i % 19 === 18) return changed;
  return published;
}

function componentState(j: number, quirks: boolean): object {
  if (!quirks) return draft;
  if (j % 23 === 22) return archived;
  if (j % 29 === 28) return draft;
  return published;
}

/** The export of `shape` (see the module comment). */
export function pagesExport(shape: PagesExportShape): ContentfulExport {
  const quirks = shape.quirks ?? false;
  const entries: unknown[] = [];
  for (let k = 0; k < ARTICLES; k++) {
    // With quirks, article 1 is published without its required lead: it fails, and teasers lose the link.
    const lead = quirks && k === 1 ? {} : { lead: { 'en-US': `Lead ${k}` } };
    entries.push(entry(articleCfId(k), 'article', published, { title: { 'en-US': `Article ${k}`, 'de-DE': `Artikel ${k}` }, ...lead }));
  }
  for (let i = 0; i < shape.pages; i++) {
    const slug = quirks && i % 11 === 5 ? {} : { slug: { 'en-US': quirks && i % 7 === 3 ? `page-${i - 3}` : `page-${i}` } };
    const seo = i % 3 === 0 ? { seo: { 'en-US': link(quirks && i % 13 === 12 ? 'missing-seo' : seoCfId(i)) } } : {};
    entries.push(
      entry(pageCfId(i), 'page', pageState(i, quirks), {
        title: { 'en-US': quirks && i % 11 === 5 ? 'Home' : `Page ${i}` },
        ...slug,
        ...seo,
        sections: { 'en-US': pageLinks(i, shape).map(link) },
      }),
    );
  }
  for (let j = 0; j < shape.components; j++) {
    const state = componentState(j, quirks);
    if (j % 4 === 3) {
      entries.push(entry(componentCfId(j), 'teaser', state, { heading: { 'en-US': `Teaser ${j}` }, article: { 'en-US': link(articleCfId(j % ARTICLES)) } }));
    } else {
      // With quirks, component 5 has no heading in the default locale: published pages using it are refused.
      const heading = quirks && j === 5 ? { 'de-DE': 'Nur Deutsch' } : { 'en-US': `Heading ${j}`, 'de-DE': `Überschrift ${j}` };
      entries.push(entry(componentCfId(j), 'textBlock', state, { heading, body: { 'en-US': prose(j, shape.text) } }));
    }
  }
  for (let i = 0; i < shape.pages; i += 3) {
    entries.push(
      entry(seoCfId(i), 'seo', published, {
        title: { 'en-US': `Page ${i} title`, 'de-DE': `Seite ${i}` },
        description: { 'en-US': `About page ${i}` },
      }),
    );
  }
  return {
    locales: [
      { code: 'en-US', name: 'English', default: true },
      { code: 'de-DE', name: 'German', default: false },
    ],
    contentTypes: [
      type(
        'article',
        [
          { id: 'title', name: 'Title', type: 'Symbol', localized: true },
          { id: 'lead', name: 'Lead', type: 'Symbol', required: true },
        ],
        'title',
      ),
      type(
        'page',
        [
          { id: 'title', name: 'Title', type: 'Symbol' },
          { id: 'slug', name: 'Slug', type: 'Symbol' },
          { id: 'seo', name: 'SEO', type: 'Link', linkType: 'Entry', validations: [{ linkContentType: ['seo'] }] },
          { id: 'sections', name: 'Sections', type: 'Array', items: { type: 'Link', linkType: 'Entry' } },
        ],
        'title',
      ),
      type('textBlock', [
        { id: 'heading', name: 'Heading', type: 'Symbol', localized: true, required: true },
        { id: 'body', name: 'Body', type: 'Text' },
      ]),
      type('teaser', [
        { id: 'heading', name: 'Heading', type: 'Symbol' },
        { id: 'article', name: 'Article', type: 'Link', linkType: 'Entry', validations: [{ linkContentType: ['article'] }] },
      ]),
      type('seo', [
        { id: 'title', name: 'Title', type: 'Symbol', localized: true },
        { id: 'description', name: 'Description', type: 'Text' },
      ]),
    ],
    entries,
    assets: [],
  } as unknown as ContentfulExport;
}
