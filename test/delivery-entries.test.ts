import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestEnv, dialects, expectError, type TestEnv } from './helpers.js';
import { createWorld, datas, doc, M, P, type DeliveryWorld } from './delivery-fixtures.js';

export const TYPES = [
  {
    name: 'Author',
    slug: 'author',
    display_field: 'name',
    fields: [
      { name: 'name', field_type: 'text', required: true },
      { name: 'bio', field_type: 'textarea', localizable: true },
      { name: 'about', field_type: 'rich_text', localizable: true },
      { name: 'avatar', field_type: 'media' },
      { name: 'mentor', field_type: 'relation', options: '["author"]' },
    ],
  },
  {
    name: 'Post',
    slug: 'post',
    display_field: 'title',
    fields: [
      { name: 'title', field_type: 'text', localizable: true, sortable: true, filterable: true },
      { name: 'summary', field_type: 'textarea', localizable: true },
      { name: 'body', field_type: 'rich_text', localizable: true },
      { name: 'views', field_type: 'integer', sortable: true, filterable: true },
      { name: 'category', field_type: 'select', options: '["news","guides"]', filterable: true },
      { name: 'author', field_type: 'relation', options: '["author"]' },
      { name: 'related', field_type: 'relation_list' },
      { name: 'cover', field_type: 'media' },
      { name: 'gallery', field_type: 'media_list' },
    ],
  },
  { name: 'Memo', slug: 'memo', fields: [{ name: 'note', field_type: 'text' }] },
  { name: 'Hero', slug: 'hero', is_block: true, fields: [{ name: 'headline', field_type: 'text' }] },
  { name: 'Faq', slug: 'faq', orderable: true, fields: [{ name: 'question', field_type: 'text' }] },
];

describe.each(dialects())('delivery entries on %s', (dialect) => {
  let env: TestEnv;
  let w: DeliveryWorld;
  let now = new Date('2026-06-01T12:00:00.000Z');
  const ids: Record<string, string> = {};
  const get = (url: string, key = w.keys.delivery) => call(env.app, 'GET', P + url, { key });

  beforeAll(async () => {
    env = await createTestEnv(dialect, { clock: () => now });
    w = await createWorld(env.ctx, env.app, TYPES);
    ids.avatar = await w.insertMedia({ alt_text: 'Ada' });
    ids.goneMedia = await w.insertMedia({ deleted: true });
    ids.cover = await w.insertMedia({ storage_key: 'covers/cover.png' });
    ids.ada = await w.insertEntry({
      type: 'author',
      slug: 'ada',
      data: { name: 'Ada', bio: 'Writes code.', about: doc('About Ada'), avatar: ids.avatar },
      translations: { de: { bio: 'Schreibt Code.' } },
    });
    ids.draftAuthor = await w.insertEntry({ type: 'author', slug: 'grace', status: 'draft', data: { name: 'Grace', mentor: ids.ada } });
    ids.memo = await w.insertEntry({ type: 'memo', slug: 'shared', data: { note: 'internal' } });
    ids.hello = await w.insertEntry({
      type: 'post',
      slug: 'hello',
      data: {
        title: 'Hello',
        summary: 'First post',
        body: doc('<script>alert(1)</script> plain'),
        views: 10,
        category: 'news',
        author: ids.ada,
        related: [ids.draftAuthor, ids.memo, ids.ada],
        cover: ids.cover,
        gallery: [ids.avatar, ids.goneMedia],
      },
      translations: { de: { title: 'Hallo', summary: null, views: 99 } },
    });
    ids.second = await w.insertEntry({
      type: 'post',
      slug: 'second',
      data: { title: 'Second', summary: 'Two', views: 20, category: 'guides', author: ids.draftAuthor },
    });
    ids.draft = await w.insertEntry({ type: 'post', slug: 'draft-post', status: 'draft', data: { title: 'Draft' } });
    ids.future = await w.insertEntry({ type: 'post', slug: 'future', status: 'scheduled', publish_at: '2026-07-01T00:00:00.000Z', data: { title: 'Future' } });
    ids.due = await w.insertEntry({ type: 'post', slug: 'due', status: 'scheduled', publish_at: '2026-05-01T00:00:00.000Z', data: { title: 'Due' } });
    ids.archived = await w.insertEntry({ type: 'post', slug: 'old', status: 'archived', data: { title: 'Old' } });
    // The same slug in two content types (D42).
    await w.insertEntry({ type: 'post', slug: 'shared', data: { title: 'Shared post' } });
    for (const [i, q] of ['Third?', 'First?', 'Second?'].entries())
      await w.insertEntry({ type: 'faq', slug: `q${i}`, position: [2, 0, 1][i], data: { question: q } });
  });
  afterAll(async () => env?.close());

  describe('authentication and parameters', () => {
    it('requires a delivery key: none, unknown and management keys answer 401', async () => {
      expectError(await call(env.app, 'GET', `${P}/entries?type=post`), 401, 'UNAUTHORIZED');
      expectError(await get('/entries?type=post', 'svc_live_' + 'x'.repeat(40)), 401, 'UNAUTHORIZED');
      const b = expectError(await get('/entries?type=post', w.keys.management), 401, 'UNAUTHORIZED');
      expect(b.message).toMatch(/delivery key/);
    });

    it('validates the query: type required, unknown parameters, locale, limit, page', async () => {
      const a = expectError(await get('/entries'), 400, 'VALIDATION_FAILED');
      expect(a.errors).toEqual([{ path: 'query.type', message: 'is required' }]);
      const b = expectError(await get('/entries?type=post&colour=red'), 400, 'VALIDATION_FAILED');
      expect(b.errors[0].path).toBe('query.colour');
      const c = expectError(await get('/entries?type=post&locale=it'), 400, 'VALIDATION_FAILED');
      expect(c.errors[0].path).toBe('query.locale');
      expectError(await get('/entries?type=post&locale=x'), 400, 'VALIDATION_FAILED');
      expectError(await get(`/entries?type=post&locale=${'a'.repeat(11)}`), 400, 'VALIDATION_FAILED');
      expectError(await get('/entries?type=post&limit=101'), 400, 'VALIDATION_FAILED');
      expectError(await get('/entries?type=post&limit=0'), 400, 'VALIDATION_FAILED');
      expectError(await get('/entries?type=post&page=0'), 400, 'VALIDATION_FAILED');
      expectError(await get('/entries?type=post&page=1001'), 400, 'PAGE_TOO_DEEP');
      expect((await get('/entries?type=post&page=1000')).status).toBe(200);
    });

    it('404 for an unknown type or a block type, 403 outside the whitelist', async () => {
      expectError(await get('/entries?type=nope'), 404, 'NOT_FOUND');
      expectError(await get('/entries?type=hero'), 404, 'NOT_FOUND');
      const onlyPosts = await w.deliveryKey({ contentTypes: ['post'] });
      expectError(await get('/entries?type=author', onlyPosts), 403, 'FORBIDDEN');
      expect((await get('/entries?type=post', onlyPosts)).status).toBe(200);
    });
  });

  describe('listing and visibility', () => {
    it('lists published entries (incl. due scheduled ones) newest first in the envelope', async () => {
      const res = await get('/entries?type=post');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, message: 'Success' });
      expect(res.body.data.map((e: any) => e.slug)).toEqual(['shared', 'due', 'second', 'hello']);
      expect(res.body.meta).toEqual({ total_data: 4, current_page: 1, page_size: 4, total_pages: 1, next_cursor: null });
      const hello = res.body.data[3];
      expect(Object.keys(hello).sort()).toEqual(
        [
          'content_type_id',
          'created_at',
          'created_by',
          'data',
          'id',
          'position',
          'publish_at',
          'published_at',
          'slug',
          'status',
          'updated_at',
          'updated_by',
          'workspace_id',
        ].sort(),
      );
      expect(typeof hello.data).toBe('string');
      expect(hello).toMatchObject({ id: ids.hello, content_type_id: w.types.post, workspace_id: w.workspaceId, status: 'published' });
      // D21: the due scheduled entry already reads as published at its publish_at.
      expect(res.body.data[1]).toMatchObject({ slug: 'due', status: 'published', published_at: '2026-05-01T00:00:00.000Z', publish_at: null });
    });

    it('preview keys also see drafts and scheduled entries, never archived ones', async () => {
      const res = await get('/entries?type=post&limit=100', w.keys.preview);
      const bySlug = Object.fromEntries(res.body.data.map((e: any) => [e.slug, e]));
      expect(Object.keys(bySlug).sort()).toEqual(['draft-post', 'due', 'future', 'hello', 'second', 'shared']);
      expect(bySlug['draft-post'].status).toBe('draft');
      expect(bySlug.future).toMatchObject({ status: 'scheduled', publish_at: '2026-07-01T00:00:00.000Z', published_at: null });
      expect(bySlug.due).toMatchObject({ status: 'published', published_at: '2026-05-01T00:00:00.000Z' });
      expect(res.body.meta.total_data).toBe(6);
    });

    it('orders orderable types by position by default', async () => {
      const res = await get('/entries?type=faq');
      expect(datas(res.body).map((d) => d.question)).toEqual(['First?', 'Second?', 'Third?']);
    });
  });

  describe('localization', () => {
    it('resolves per field with fallback, flags entries without a translation, reports locale_requested', async () => {
      const res = await get('/entries?type=post&locale=de');
      expect(res.body.meta.locale_requested).toBe('de');
      const hello = res.body.data.find((e: any) => e.slug === 'hello');
      const second = res.body.data.find((e: any) => e.slug === 'second');
      expect(hello.is_fallback).toBe(false);
      expect(second.is_fallback).toBe(true);
      const hd = JSON.parse(hello.data);
      // title translated; summary null in the translation → default; views not localizable → default.
      expect(hd).toMatchObject({ title: 'Hallo', summary: 'First post', views: 10 });
      expect(JSON.parse(second.data)).toMatchObject({ title: 'Second', summary: 'Two' });
    });

    it('the default locale is never a fallback; without locale there is no is_fallback', async () => {
      const en = await get('/entries?type=post&locale=en');
      expect(en.body.data.every((e: any) => e.is_fallback === false)).toBe(true);
      expect(en.body.meta.locale_requested).toBe('en');
      const none = await get('/entries?type=post');
      expect(none.body.data.every((e: any) => !('is_fallback' in e))).toBe(true);
      expect('locale_requested' in none.body.meta).toBe(false);
      const fr = await get('/entries?type=post&locale=fr');
      expect(fr.body.data.every((e: any) => e.is_fallback === true)).toBe(true);
      expect(JSON.parse(fr.body.data.find((e: any) => e.slug === 'hello').data).title).toBe('Hello');
    });
  });

  describe('fields, rich text, relations and media', () => {
    it('selects fields; unknown names and deep paths answer 400', async () => {
      const res = await get('/entries?type=post&fields=title,views&locale=de');
      const d = datas(res.body).find((x) => x.title === 'Hallo')!;
      expect(d).toEqual({ title: 'Hallo', views: 10 });
      for (const bad of ['nope', 'title,', 'author.profile.bio', 'title.x', 'author.nope', 'views_html', 'summary_text']) {
        const b = expectError(await get(`/entries?type=post&fields=${bad}`), 400, 'VALIDATION_FAILED');
        expect(b.errors[0].path).toBe('query.fields');
      }
    });

    it('renders rich text as sanitized HTML and as plain text', async () => {
      await w.insertEntry({
        type: 'post',
        slug: 'links',
        data: {
          title: 'Links',
          body: {
            nodeType: 'document',
            data: {},
            content: [
              {
                nodeType: 'paragraph',
                data: {},
                content: [
                  { nodeType: 'hyperlink', data: { uri: 'javascript:alert(1)' }, content: [{ nodeType: 'text', value: 'bad', marks: [], data: {} }] },
                  { nodeType: 'text', value: ' and ', marks: [{ type: 'bold' }], data: {} },
                  { nodeType: 'hyperlink', data: { uri: 'https://example.com/' }, content: [{ nodeType: 'text', value: 'good', marks: [], data: {} }] },
                ],
              },
            ],
          },
        },
      });
      const res = await get('/entries?type=post&fields=title,body_html,body_text&limit=100');
      const all = datas(res.body);
      const hello = all.find((d) => d.title === 'Hello')!;
      expect(Object.keys(hello)).toEqual(['title', 'body_html', 'body_text']);
      expect(hello.body_html).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt; plain</p>');
      expect(hello.body_text).toBe('<script>alert(1)</script> plain');
      const links = all.find((d) => d.title === 'Links')!;
      expect(links.body_html).toBe('<p>bad<b> and </b><a href="https://example.com/">good</a></p>');
      expect(links.body_html).not.toMatch(/javascript/);
      expect(links.body_text).toBe('bad and good');
      // Entries without the field get no rendered keys.
      expect(all.find((d) => d.title === 'Second')).toEqual({ title: 'Second' });
    });

    it('resolves relations and media one level deep, locale-resolved', async () => {
      const res = await get('/entries?type=post&locale=de');
      const hello = datas(res.body).find((d) => d.title === 'Hallo')!;
      expect(hello.author).toEqual({
        id: ids.ada,
        slug: 'ada',
        type: 'author',
        name: 'Ada',
        bio: 'Schreibt Code.',
        about: doc('About Ada'),
        avatar: ids.avatar,
      });
      // relation_list: the draft author and the memo... the memo is readable with this key; the draft is dropped.
      expect((hello.related as any[]).map((r) => r.slug)).toEqual(['shared', 'ada']);
      expect(hello.cover).toEqual({
        id: ids.cover,
        url: 'http://quire.test/media/files/covers/cover.png',
        mime_type: 'image/png',
        width: 640,
        height: 480,
        alt_text: 'An image',
        title: null,
        description: null,
        focal_x: 0.5,
        focal_y: 0.25,
      });
      expect((hello.gallery as any[]).map((m) => m.id)).toEqual([ids.avatar]);
      // A relation to an entry the key may not see (draft, production key) is null.
      expect(datas(res.body).find((d) => d.title === 'Second')!.author).toBeNull();
    });

    it('preview keys resolve draft related entries; whitelists null out other types', async () => {
      const preview = await get('/entries?type=post&limit=100', w.keys.preview);
      const second = datas(preview.body).find((d) => d.title === 'Second')!;
      expect(second.author).toMatchObject({ id: ids.draftAuthor, slug: 'grace', type: 'author', name: 'Grace', mentor: ids.ada });
      const onlyPosts = await w.deliveryKey({ contentTypes: ['post'] });
      const res = await get('/entries?type=post', onlyPosts);
      const hello = datas(res.body).find((d) => d.title === 'Hello')!;
      expect(hello.author).toBeNull();
      expect(hello.related).toEqual([]);
    });

    it('dot notation keeps id, slug, type and the named fields', async () => {
      const res = await get('/entries?type=post&fields=title,author.name,author.about_text,related.name&locale=de');
      const hello = datas(res.body).find((d) => d.title === 'Hallo')!;
      expect(hello.author).toEqual({ id: ids.ada, slug: 'ada', type: 'author', name: 'Ada', about_text: 'About Ada' });
      expect(hello.related).toEqual([
        { id: ids.memo, slug: 'shared', type: 'memo' },
        { id: ids.ada, slug: 'ada', type: 'author', name: 'Ada' },
      ]);
      const both = await get('/entries?type=post&fields=author.name,author');
      expect(Object.keys(datas(both.body).find((d) => (d.author as any)?.slug === 'ada')!.author as object)).toContain('bio');
    });
  });

  describe('GET /entries/{slug}', () => {
    it('returns {entry, is_fallback, locale_requested}', async () => {
      const res = await get('/entries/hello?type=post&locale=de');
      expect(res.status).toBe(200);
      expect(res.body.data.is_fallback).toBe(false);
      expect(res.body.data.locale_requested).toBe('de');
      expect(res.body.data.entry).toMatchObject({ id: ids.hello, slug: 'hello', is_fallback: false });
      expect(JSON.parse(res.body.data.entry.data).title).toBe('Hallo');
      expect(res.body.meta).toBeNull();
      const plain = await get('/entries/second');
      expect(plain.body.data).toMatchObject({ is_fallback: false, locale_requested: 'en' });
      expect('is_fallback' in plain.body.data.entry).toBe(false);
      const fr = await get('/entries/second?locale=fr&fields=title');
      expect(fr.body.data).toMatchObject({ is_fallback: true, locale_requested: 'fr' });
      expect(JSON.parse(fr.body.data.entry.data)).toEqual({ title: 'Second' });
    });

    it('asks for type when a slug exists in several visible types (D42)', async () => {
      const b = expectError(await get('/entries/shared'), 400, 'VALIDATION_FAILED');
      expect(b.errors[0].path).toBe('query.type');
      expect((await get('/entries/shared?type=memo')).body.data.entry.id).toBe(ids.memo);
      // With a whitelist only one of them is visible: no ambiguity.
      const onlyPosts = await w.deliveryKey({ contentTypes: ['post'] });
      expect((await get('/entries/shared', onlyPosts)).body.data.entry.content_type_id).toBe(w.types.post);
      expectError(await get('/entries/shared?type=memo', onlyPosts), 403, 'FORBIDDEN');
    });

    it('404 when not visible to the key; drafts visible to preview keys', async () => {
      expectError(await get('/entries/draft-post?type=post'), 404, 'NOT_FOUND');
      expectError(await get('/entries/old'), 404, 'NOT_FOUND');
      expectError(await get('/entries/future'), 404, 'NOT_FOUND');
      expectError(await get('/entries/missing?type=post'), 404, 'NOT_FOUND');
      expectError(await get('/entries/hello?type=hero'), 404, 'NOT_FOUND');
      expectError(await get('/entries/hello?type=post&fields=nope'), 400, 'VALIDATION_FAILED');
      expectError(await get('/entries/hello?type=post&sort=title:asc'), 400, 'VALIDATION_FAILED');
      expect((await get('/entries/draft-post', w.keys.preview)).body.data.entry.status).toBe('draft');
      expect((await get('/entries/future', w.keys.preview)).body.data.entry.status).toBe('scheduled');
      expect((await get('/entries/due')).body.data.entry).toMatchObject({ status: 'published', published_at: '2026-05-01T00:00:00.000Z' });
    });
  });

  describe('GET /schema', () => {
    it('describes content types and the workspace; whitelists limit non-block types', async () => {
      const res = await get('/schema');
      expect(res.status).toBe(200);
      const { content_types, workspace } = res.body.data;
      expect(workspace).toMatchObject({ default_locale: 'en', locales: ['en', 'de', 'fr'] });
      expect(Object.keys(workspace).sort()).toEqual(['default_locale', 'locales', 'name', 'slug']);
      expect(content_types.map((c: any) => c.slug).sort()).toEqual(['author', 'faq', 'hero', 'memo', 'post']);
      const post = content_types.find((c: any) => c.slug === 'post');
      expect(post).toMatchObject({ id: w.types.post, name: 'Post', is_block: false, orderable: false, display_field: 'title' });
      expect(post.fields.find((f: any) => f.name === 'category')).toEqual({
        name: 'category',
        type: 'select',
        localizable: false,
        required: false,
        unique: false,
        filterable: true,
        sortable: false,
        options: ['news', 'guides'],
      });
      expect(post.fields.find((f: any) => f.name === 'title')).toEqual({
        name: 'title',
        type: 'text',
        localizable: true,
        required: false,
        unique: false,
        filterable: true,
        sortable: true,
        options: [],
      });
      const onlyPosts = await w.deliveryKey({ contentTypes: ['post'] });
      const limited = await get('/schema', onlyPosts);
      expect(limited.body.data.content_types.map((c: any) => c.slug).sort()).toEqual(['hero', 'post']);
      expectError(await get('/schema?x=1'), 400, 'VALIDATION_FAILED');
    });

    it('sees schema changes made through the management API at once', async () => {
      const add = await call(env.app, 'POST', `${M}/content-types/memo/fields`, {
        key: w.keys.management,
        body: { name: 'priority', field_type: 'integer', sortable: true },
      });
      expect(add.status).toBe(201);
      const res = await get('/schema');
      expect(res.body.data.content_types.find((c: any) => c.slug === 'memo').fields.map((f: any) => f.name)).toEqual(['note', 'priority']);
      expect((await get('/entries?type=memo&sort=priority:desc')).status).toBe(200);
    });
  });
  describe('entries written through the management API', () => {
    it('delivers what createEntry / publish / schedule stored', async () => {
      const key = w.keys.management;
      const post = (url: string, body: unknown) => call(env.app, 'POST', M + url, { key, body });
      const patch = (url: string, body?: unknown) => call(env.app, 'PATCH', M + url, { key, body });
      const author = await post('/content-types/author/entries', {
        slug: 'linus',
        data: { name: 'Linus', bio: 'Kernel' },
        translations: { de: { data: { bio: 'Kern' } } },
      });
      expect(author.status).toBe(201);
      expect((await patch('/content-types/author/entries/linus/publish')).status).toBe(200);
      const created = await post('/content-types/post/entries', {
        slug: 'via-api',
        data: { title: 'Via API', views: 3, category: 'guides', author: author.body.data.id, body: doc('Made by the API') },
        translations: [{ locale: 'de', data: { title: 'Über die API' } }],
      });
      expect(created.status).toBe(201);
      expectError(await get('/entries/via-api?type=post'), 404, 'NOT_FOUND');
      expect((await patch('/content-types/post/entries/via-api/publish')).status).toBe(200);
      const res = await get('/entries/via-api?type=post&locale=de&fields=title,author.bio,body_text');
      expect(res.body.data.entry).toMatchObject({ id: created.body.data.id, status: 'published', published_at: now.toISOString() });
      expect(JSON.parse(res.body.data.entry.data)).toEqual({
        title: 'Über die API',
        author: { id: author.body.data.id, slug: 'linus', type: 'author', bio: 'Kern' },
        body_text: 'Made by the API',
      });
      const listed = await get('/entries?type=post&filter[category]=guides&filter[views][lte]=3&fields=title');
      expect(datas(listed.body)).toEqual([{ title: 'Via API' }]);

      await post('/content-types/post/entries', { slug: 'soon', data: { title: 'Soon' } });
      expect((await patch('/content-types/post/entries/soon/schedule', { publish_at: '2026-06-01T12:30:00.000Z' })).status).toBe(200);
      expectError(await get('/entries/soon?type=post'), 404, 'NOT_FOUND');
      expect((await get('/entries/soon?type=post', w.keys.preview)).body.data.entry.status).toBe('scheduled');
      const start = now;
      try {
        now = new Date('2026-06-01T12:31:00.000Z');
        expect((await get('/entries/soon?type=post')).body.data.entry).toMatchObject({
          status: 'published',
          published_at: '2026-06-01T12:30:00.000Z',
          publish_at: null,
        });
      } finally {
        now = start;
      }
    });
  });
});
