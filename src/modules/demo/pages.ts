/**
 * The demo workspace's pages (issue 3 item 5; images: issue 27 item 2): a home page and an about
 * page built from five block types, in English (default) and German, published.
 *
 * - `hero`: headline, subline (localizable), image (media, images only), featured post
 *   (relation to `post`);
 * - `rich-text`: body (rich text, localizable);
 * - `feature-grid`: title (localizable), columns, holding `feature-item` children: title and
 *   text (localizable), icon (select);
 * - `gallery`: title and caption (localizable), images (media list, images only, 1 to 12);
 * - `call-to-action`: label (localizable), url.
 *
 * Seeded by seed.ts through the ordinary operations (createContentType, createPage, publishPage),
 * so every value here passes the same validation as an API write.
 */
import type { Context } from '../../context.js';
import type { Actor } from '../auth/permissions.js';
import { createContentType, type CreateContentTypeInput } from '../content-types/operations.js';
import { createPage } from '../pages/operations.js';
import { publishPage } from '../pages/publishing.js';
import { bold, doc, h2, p, ul } from './rich-text.js';

export const ICONS = ['bolt', 'globe', 'layers', 'lock', 'pen', 'people'] as const;

export const DEMO_BLOCK_TYPES: CreateContentTypeInput[] = [
  {
    name: 'Hero',
    slug: 'hero',
    description: 'The big opening of a page',
    is_block: true,
    display_field: 'headline',
    fields: [
      { name: 'headline', label: 'Headline', field_type: 'text', required: true, localizable: true, validation: { max_length: 120 } },
      { name: 'subline', label: 'Subline', field_type: 'textarea', localizable: true },
      { name: 'image', label: 'Image', field_type: 'media', validation: { media_kinds: ['image'] } },
      { name: 'featured_post', label: 'Featured post', field_type: 'relation', options: ['post'] },
    ],
  },
  {
    name: 'Rich text',
    slug: 'rich-text',
    description: 'A section of formatted text',
    is_block: true,
    fields: [{ name: 'body', label: 'Body', field_type: 'rich_text', required: true, localizable: true }],
  },
  {
    name: 'Feature grid',
    slug: 'feature-grid',
    description: 'A titled grid; its children are feature items',
    is_block: true,
    display_field: 'title',
    fields: [
      { name: 'title', label: 'Title', field_type: 'text', localizable: true },
      { name: 'columns', label: 'Columns', field_type: 'integer', validation: { min: 1, max: 4 } },
    ],
  },
  {
    name: 'Feature item',
    slug: 'feature-item',
    description: 'One cell of a feature grid',
    is_block: true,
    display_field: 'title',
    fields: [
      { name: 'title', label: 'Title', field_type: 'text', required: true, localizable: true },
      { name: 'text', label: 'Text', field_type: 'textarea', localizable: true },
      { name: 'icon', label: 'Icon', field_type: 'select', options: [...ICONS] },
    ],
  },
  {
    name: 'Gallery',
    slug: 'gallery',
    description: 'A row of images with a title and a caption',
    is_block: true,
    display_field: 'title',
    fields: [
      { name: 'title', label: 'Title', field_type: 'text', localizable: true },
      { name: 'images', label: 'Images', field_type: 'media_list', required: true, validation: { media_kinds: ['image'], min: 1, max: 12 } },
      { name: 'caption', label: 'Caption', field_type: 'textarea', localizable: true },
    ],
  },
  {
    name: 'Call to action',
    slug: 'call-to-action',
    description: 'A button leading somewhere',
    is_block: true,
    display_field: 'label',
    fields: [
      { name: 'label', label: 'Label', field_type: 'text', required: true, localizable: true },
      { name: 'url', label: 'URL', field_type: 'url', required: true },
    ],
  },
];

/** A block of a demo page: default values, German overrides, children. */
interface DemoBlock {
  type: string;
  data: Record<string, unknown>;
  de?: Record<string, unknown>;
  children?: DemoBlock[];
}

export interface DemoPage {
  slug: string;
  seo: { title: string; description: string; keywords: string[] };
  seoDe: { title: string; description: string };
  /** `featured_post` values name a post slug, `image` and `images` values demo image file names (images.ts); seeding turns them into ids. */
  blocks: DemoBlock[];
}

const item = (icon: (typeof ICONS)[number], en: [string, string], de: [string, string]): DemoBlock => ({
  type: 'feature-item',
  data: { title: en[0], text: en[1], icon },
  de: { title: de[0], text: de[1] },
});

export const DEMO_PAGES: DemoPage[] = [
  {
    slug: 'home',
    seo: {
      title: 'Quire demo',
      description: 'A headless CMS demo: a localized blog and pages built from blocks.',
      keywords: ['quire', 'headless cms', 'demo'],
    },
    seoDe: { title: 'Quire-Demo', description: 'Eine Headless-CMS-Demo: ein lokalisierter Blog und Seiten aus Blöcken.' },
    blocks: [
      {
        type: 'hero',
        data: {
          headline: 'Content for every channel',
          subline: 'Model it once, write it in every language, deliver it anywhere.',
          image: 'home-hero.jpg',
          featured_post: 'welcome-to-quire',
        },
        de: { headline: 'Inhalte für jeden Kanal', subline: 'Einmal modellieren, in jeder Sprache schreiben, überall ausliefern.' },
      },
      {
        type: 'feature-grid',
        data: { title: 'What you can try here', columns: 3 },
        de: { title: 'Was Sie hier ausprobieren können' },
        children: [
          item(
            'layers',
            ['Pages from blocks', 'This page is a tree of blocks; the grid you are reading holds three children.'],
            ['Seiten aus Blöcken', 'Diese Seite ist ein Baum aus Blöcken; das Raster hier enthält drei Kinder.'],
          ),
          item(
            'globe',
            ['Two languages', 'Ask for locale=de and every block comes back in German, field by field.'],
            ['Zwei Sprachen', 'Fragen Sie nach locale=de, und jeder Block kommt Feld für Feld auf Deutsch.'],
          ),
          item(
            'bolt',
            ['Fast delivery', 'One request returns the page, its blocks and the posts they point to.'],
            ['Schnelle Auslieferung', 'Eine Anfrage liefert die Seite, ihre Blöcke und die Beiträge, auf die sie zeigen.'],
          ),
        ],
      },
      {
        type: 'rich-text',
        data: {
          body: doc(
            h2('Start with the blog'),
            p('Five posts by three authors show entries, relations and rich text. Read them at ', bold('/api/v1/public/entries?type=post'), '.'),
          ),
        },
        de: {
          body: doc(
            h2('Beginnen Sie mit dem Blog'),
            p(
              'Fünf Beiträge von drei Autorinnen und Autoren zeigen Einträge, Relationen und Rich Text. Lesen Sie sie unter ',
              bold('/api/v1/public/entries?type=post'),
              '.',
            ),
          ),
        },
      },
      { type: 'call-to-action', data: { label: 'Read the API guide', url: 'https://quire.local/docs/pages' }, de: { label: 'Zur API-Anleitung' } },
    ],
  },
  {
    slug: 'about',
    seo: { title: 'About Quire', description: 'Who builds Quire and why.', keywords: ['quire', 'about'] },
    seoDe: { title: 'Über Quire', description: 'Wer Quire baut und warum.' },
    blocks: [
      {
        type: 'hero',
        data: { headline: 'About this demo', subline: 'A small team, a small CMS, a lot of care for content.', image: 'about-hero.jpg' },
        de: { headline: 'Über diese Demo', subline: 'Ein kleines Team, ein kleines CMS, viel Sorgfalt für Inhalte.' },
      },
      {
        type: 'rich-text',
        data: {
          body: doc(
            p('Quire keeps content structured and localized, and hands it to any front end over two APIs:'),
            ul('the management API, for editors and tools;', 'the delivery API, for websites and apps.'),
          ),
        },
        de: {
          body: doc(
            p('Quire hält Inhalte strukturiert und lokalisiert und gibt sie über zwei APIs an jedes Frontend weiter:'),
            ul('die Management-API für Redaktion und Werkzeuge;', 'die Delivery-API für Websites und Apps.'),
          ),
        },
      },
      {
        type: 'feature-grid',
        data: { title: 'What we care about', columns: 2 },
        de: { title: 'Was uns wichtig ist' },
        children: [
          item(
            'pen',
            ['Editors first', 'Drafts, scheduling and previews before anything goes live.'],
            ['Redaktion zuerst', 'Entwürfe, Zeitplanung und Vorschau, bevor etwas live geht.'],
          ),
          item(
            'lock',
            ['Safe by default', 'Scoped keys, optimistic locking and idempotent writes.'],
            ['Sicher von Anfang an', 'Schlüssel mit Berechtigungen, optimistisches Sperren und idempotente Schreibvorgänge.'],
          ),
        ],
      },
      {
        type: 'gallery',
        data: {
          title: 'From the blog',
          images: ['welcome-to-quire.jpg', 'many-languages.jpg', 'scheduling.jpg'],
          caption: 'Every post has a cover image; a gallery block shows several images in a row.',
        },
        de: { title: 'Aus dem Blog', caption: 'Jeder Beitrag hat ein Titelbild; ein Galerie-Block zeigt mehrere Bilder in einer Reihe.' },
      },
      { type: 'call-to-action', data: { label: 'Back to the home page', url: 'https://quire.local/' }, de: { label: 'Zurück zur Startseite' } },
    ],
  },
];

/** What block values name by slug or file name, as ids. */
interface DemoIds {
  posts: ReadonlyMap<string, string>;
  images: ReadonlyMap<string, string>;
}

function toInput(block: DemoBlock, ids: DemoIds): Record<string, unknown> {
  const data = { ...block.data };
  if (typeof data.featured_post === 'string') data.featured_post = ids.posts.get(data.featured_post);
  if (typeof data.image === 'string') data.image = ids.images.get(data.image);
  if (Array.isArray(data.images)) data.images = data.images.map((name: unknown) => ids.images.get(String(name)));
  return {
    type: block.type,
    data,
    ...(block.de ? { translations: { de: { data: block.de } } } : {}),
    ...(block.children ? { children: block.children.map((c) => toInput(c, ids)) } : {}),
  };
}

/**
 * Creates the block types and the published demo pages in the caller's transaction. `postIds`
 * maps post slugs to ids (for featured posts), `imageIds` demo image file names to media ids
 * (seedDemoEntries returns both). Returns how many pages were created.
 */
export async function seedDemoPages(tx: Context, actor: Actor, postIds: ReadonlyMap<string, string>, imageIds: ReadonlyMap<string, string>): Promise<number> {
  for (const ct of DEMO_BLOCK_TYPES) await createContentType(tx, actor, ct);
  for (const page of DEMO_PAGES) {
    const created = await createPage(tx, actor, {
      slug: page.slug,
      seo: page.seo,
      seo_translations: { de: page.seoDe },
      blocks: page.blocks.map((b) => toInput(b, { posts: postIds, images: imageIds })),
    });
    await publishPage(tx, actor, { id: created.id });
  }
  return DEMO_PAGES.length;
}
