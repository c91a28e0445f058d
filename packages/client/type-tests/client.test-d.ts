/**
 * Type tests of @quire/client against the generated declarations of a small model (quire.d.ts,
 * rendered by typegen from model.ts). Run by vitest's typecheck mode (the client-types project of
 * vitest.config.ts, part of `npm test`): every `expectTypeOf` must hold, and every
 * `@ts-expect-error` line must still be an error, so a regression of the narrowing fails the run.
 */
import { describe, expectTypeOf, it } from 'vitest';
import {
  createClient,
  isSyncEntry,
  isSyncItem,
  type DeliveryMedia,
  type EntryFilter,
  type EntrySort,
  type ManagedBlock,
  type RichTextDocument,
  type SyncItemType,
} from '@quire/client';

const quire = createClient({ url: 'http://localhost:3000', apiKey: 'svc_live_x' });

describe('fields narrows data', () => {
  it('keeps only the fields asked for', async () => {
    const page = await quire.entries.list('post', { fields: ['title', 'rank'] });
    expectTypeOf(page.items[0].data).toEqualTypeOf<{ title: string; rank?: number }>();
    // @ts-expect-error body was not asked for, so it is not in the type
    void page.items[0].data.body;
  });

  it('keeps every field without fields', async () => {
    const post = await quire.entries.get('hello', { type: 'post' });
    expectTypeOf(post.data.body).toEqualTypeOf<RichTextDocument | undefined>();
    expectTypeOf(post.data.cover).toEqualTypeOf<DeliveryMedia | null | undefined>();
  });

  it('types the renderings of rich text', async () => {
    const post = await quire.entries.get('hello', { type: 'post', fields: ['body_html', 'body_text'] });
    expectTypeOf(post.data).toEqualTypeOf<{ body_html?: string; body_text?: string }>();
    // @ts-expect-error summary is a textarea: it has no rendering
    await quire.entries.get('hello', { type: 'post', fields: ['summary_html'] });
  });

  it('narrows a relation to its head and the names after the dot', async () => {
    const page = await quire.entries.list('post', { fields: ['title', 'author.name', 'related.title'] });
    const post = page.items[0].data;
    expectTypeOf(post.author).toEqualTypeOf<{ id: string; slug: string; type: 'author'; name: string } | null | undefined>();
    expectTypeOf(post.related).toEqualTypeOf<{ id: string; slug: string; type: 'post'; title: string }[] | undefined>();
    // @ts-expect-error only name was asked for inside author
    void post.author?.bio;
    const bios = await quire.entries.list('post', { fields: ['author.bio_html'] });
    expectTypeOf(bios.items[0].data.author).toEqualTypeOf<{ id: string; slug: string; type: 'author'; bio_html?: string } | null | undefined>();
  });

  it('refuses names the model does not have', async () => {
    // @ts-expect-error no such field
    await quire.entries.list('post', { fields: ['titel'] });
    // @ts-expect-error author has no field email
    await quire.entries.list('post', { fields: ['author.email'] });
    // @ts-expect-error cover is media, not a relation: no dot path
    await quire.entries.list('post', { fields: ['cover.url'] });
  });

  it('narrows a literal comma-separated string too, and iterate like list', async () => {
    const post = await quire.entries.get('hello', { type: 'post', fields: 'title,rank' });
    expectTypeOf(post.data).toEqualTypeOf<{ title: string; rank?: number }>();
    for await (const p of quire.entries.iterate('post', { fields: ['slug_free_title'] as never as ['title'] })) {
      expectTypeOf(p.data).toEqualTypeOf<{ title: string }>();
    }
  });

  it('makes every field optional when the selection is only known at run time', async () => {
    const names: string = 'title';
    const post = await quire.entries.get('hello', { type: 'post', fields: names });
    expectTypeOf(post.data.title).toEqualTypeOf<string | undefined>();
  });

  it('leaves types without generated declarations loose', async () => {
    const page = await quire.entries.list('note', { fields: ['anything'], filter: { whatever: { gte: 1 } }, sort: 'whatever:asc' });
    expectTypeOf(page.items[0].data).toEqualTypeOf<Record<string, unknown>>();
  });
});

describe('filters follow the model', () => {
  it('accepts the operators of each field type', async () => {
    await quire.entries.list('post', {
      filter: {
        title: { contains: 'quire', gte: 'a' },
        rank: { gte: 2, lt: 10, in: [1, 2] },
        price: [1.5, 2.5],
        category: 'news',
        featured: true,
        author: { exists: true, ne: '00000000-0000-4000-8000-000000000000' },
      },
    });
    expectTypeOf<EntryFilter<'author'>>().toEqualTypeOf<{
      website?:
        | string
        | readonly string[]
        | ({ eq?: string; ne?: string; exists?: boolean } & { lt?: string; lte?: string; gt?: string; gte?: string } & { in?: readonly string[] } & {
            contains?: string;
          });
    }>();
  });

  it('refuses fields that are not filterable and operators that do not apply', async () => {
    // @ts-expect-error summary is not filterable
    await quire.entries.list('post', { filter: { summary: 'x' } });
    // @ts-expect-error published_on is sortable, not filterable
    await quire.entries.list('post', { filter: { published_on: { gte: '2026-01-01' } } });
    // @ts-expect-error contains does not apply to numbers
    await quire.entries.list('post', { filter: { rank: { contains: '1' } } });
    // @ts-expect-error ranges do not apply to booleans
    await quire.entries.list('post', { filter: { featured: { gt: false } } });
    // @ts-expect-error in does not apply to booleans
    await quire.entries.list('post', { filter: { featured: [true, false] } });
    // @ts-expect-error a select takes its options only
    await quire.entries.list('post', { filter: { category: 'sports' } });
    // @ts-expect-error rank holds integers
    await quire.entries.list('post', { filter: { rank: 'high' } });
    // @ts-expect-error memo has no filterable field
    await quire.entries.list('memo', { filter: { text: 'x' } });
    // @ts-expect-error memo has no sortable field
    await quire.entries.list('memo', { sort: 'text:asc' });
  });
});

describe('sort follows the model', () => {
  it('takes system keys and sortable fields, both directions', async () => {
    await quire.entries.list('post', { sort: 'published_on:desc' });
    await quire.entries.list('post', { sort: 'created_at:asc' });
    await quire.entries.list('author', { sort: 'position:asc' });
    expectTypeOf<EntrySort<'author'>>().toEqualTypeOf<
      | 'created_at:asc'
      | 'created_at:desc'
      | 'updated_at:asc'
      | 'updated_at:desc'
      | 'published_at:asc'
      | 'published_at:desc'
      | 'slug:asc'
      | 'slug:desc'
      | 'position:asc'
      | 'position:desc'
    >();
  });

  it('checks management lists the same way', async () => {
    await quire.manage.entries.list('author', { sort: 'position:asc', status: 'draft' });
    await quire.manage.entries.list('post', { sort: 'rank:desc', search: 'quire' });
    // @ts-expect-error summary is not sortable
    await quire.manage.entries.list('post', { sort: 'summary:asc' });
  });

  it('sorts pages by navigation order or a system key', async () => {
    await quire.pages.list({ sort: 'position:asc' });
    await quire.manage.pages.list({ sort: 'published_at:desc', status: 'draft' });
    // @ts-expect-error pages have no field keys to sort by
    await quire.pages.list({ sort: 'title:asc' });
  });

  it('refuses other keys and directions', async () => {
    // @ts-expect-error price is filterable, not sortable
    await quire.entries.list('post', { sort: 'price:asc' });
    // @ts-expect-error post is not orderable
    await quire.entries.list('post', { sort: 'position:asc' });
    // @ts-expect-error a direction is required
    await quire.entries.list('post', { sort: 'rank' });
  });
});

describe('page writes accept what a page read returns', () => {
  it('sends a read tree back to PUT, and changes SEO alone with patch', async () => {
    const read = await quire.manage.pages.get('home');
    const block = read.blocks[0];
    if (block.type === 'hero') expectTypeOf(block.data.featured_post).toEqualTypeOf<string | undefined>();
    const written = await quire.manage.pages.update('home', { seo: read.page.seo, seo_translations: read.seo_translations, blocks: read.blocks });
    expectTypeOf(written.etag).toEqualTypeOf<string | null>();
    expectTypeOf(written.slug).toEqualTypeOf<string>();
    await quire.manage.pages.patch('home', { seo: { title: 'Home', description: null } });
    await quire.manage.pages.patch('home', { seo_translations: { de: { title: 'Startseite' } } });
  });

  it('types block data by block type and refuses what the server refuses', async () => {
    await quire.manage.pages.create({ slug: 'new', blocks: [{ type: 'hero', data: { headline: 'Hi' }, children: [{ type: 'card', data: { label: 'A' } }] }] });
    // @ts-expect-error a hero has no field label
    await quire.manage.pages.create({ slug: 'new', blocks: [{ type: 'hero', data: { label: 'Hi' } }] });
    // @ts-expect-error no block type banner
    await quire.manage.pages.create({ slug: 'new', blocks: [{ type: 'banner', data: {} }] });
    // @ts-expect-error PUT needs the block tree: use patch for SEO alone
    await quire.manage.pages.update('home', { seo: { title: 'Home' } });
    // @ts-expect-error patch leaves blocks alone
    await quire.manage.pages.patch('home', { blocks: [] });
    // @ts-expect-error a block knows no key colour
    await quire.manage.pages.create({ slug: 'new', blocks: [{ type: 'card', data: { label: 'A' }, colour: 'red' }] });
  });
});

describe('sync items are typed', () => {
  it('narrows by kind, entries by content type', async () => {
    const page = await quire.sync({ initial: true });
    const item = page.items[0];
    // @ts-expect-error a page or a deletion has no data: narrow first
    void item.data;
    if (isSyncItem(item, 'entry')) expectTypeOf(item.sys.content_type).toEqualTypeOf<'author' | 'memo' | 'post'>();
    if (isSyncEntry(item, 'post')) {
      expectTypeOf(item.data.author).toEqualTypeOf<string | undefined>();
      expectTypeOf(item.translations[0].data.title).toEqualTypeOf<string | undefined>();
    }
    if (isSyncItem(item, 'page')) expectTypeOf(item.blocks[0].children).toEqualTypeOf<ManagedBlock[]>();
    if (isSyncItem(item, 'media')) expectTypeOf(item.url).toEqualTypeOf<string>();
    if (isSyncItem(item, 'deleted_entry'))
      expectTypeOf(item.sys).toEqualTypeOf<{ type: 'deleted_entry'; id: string; slug: string | null; content_type: string }>();
    expectTypeOf<SyncItemType>().toEqualTypeOf<'entry' | 'page' | 'media' | 'deleted_entry' | 'deleted_page' | 'deleted_media'>();
  });
});

describe('management methods are typed by the wire', () => {
  it('types webhooks, their secrets and deliveries', async () => {
    const created = await quire.manage.webhooks.create({ url: 'https://example.com/hook', events: ['entry.*'] });
    expectTypeOf(created.secret).toEqualTypeOf<string>();
    const rotated = await quire.manage.webhooks.rotateSecret(created.id, { graceSeconds: 3600 });
    expectTypeOf(rotated.previous_secret_expires_at).toEqualTypeOf<string | null>();
    const log = await quire.manage.webhooks.deliveries(created.id, { status: 'failed' });
    expectTypeOf(log.items[0].attempts[0].status_code).toEqualTypeOf<number | null>();
    // @ts-expect-error events is required
    await quire.manage.webhooks.create({ url: 'https://example.com/hook' });
    // @ts-expect-error no such delivery status
    await quire.manage.webhooks.deliveries(created.id, { status: 'lost' });
  });

  it('types releases and their items', async () => {
    const release = await quire.manage.releases.create({ title: 'Launch' });
    await quire.manage.releases.items.add(release.id, { kind: 'page', id: 'p', action: 'unpublish' });
    // @ts-expect-error an item is an entry or a page
    await quire.manage.releases.items.add(release.id, { kind: 'media', id: 'm', action: 'publish' });
    expectTypeOf((await quire.manage.releases.validate(release.id)).valid).toEqualTypeOf<boolean>();
  });
});

describe('entry writes refuse what an entry read carries besides its values', () => {
  it('takes slug, data and translations only', async () => {
    const read = await quire.manage.entries.get('post', 'hello');
    await quire.manage.entries.update('post', 'hello', {
      data: { ...read.data, title: 'New' },
      translations: read.translations.map(({ locale, data }) => ({ locale, data })),
    });
    // @ts-expect-error a read carries id, status, etag …: the server refuses them
    await quire.manage.entries.update('post', 'hello', { ...read, translations: [] });
    // @ts-expect-error a translation read carries id and entry_id, which the server refuses
    await quire.manage.entries.update('post', 'hello', { data: read.data, translations: read.translations });
    // @ts-expect-error rank holds integers
    await quire.manage.entries.create('post', { data: { title: 'x', rank: 'high' } });
  });
});
