/**
 * The media library's browsing reads (issue 11 item 2; docs/api.md "Media"): `search` on the
 * list (name and alt text, any case, LIKE wildcards taken literally), `type=other`, `missing_alt`, the folder
 * listing, and where an asset is used (GET /media/{id}/usage: media, media list and rich-text
 * fields of entries and page blocks, working copies and published versions, translations).
 * Both dialects.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestEnv, dialects, expectError, insertMediaRow, seedWorkspace, type TestEnv } from './helpers.js';
import { createPageWorld, doc, M, type PageWorld } from './pages-fixtures.js';

describe.each(dialects())('media library browsing on %s', (dialect) => {
  let env: TestEnv;
  let w: PageWorld;
  let other: { key: string; wsId: string; userId: number };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    w = await createPageWorld(env.ctx, env.app);
    const o = await seedWorkspace(env.ctx);
    other = { key: o.keys.management, wsId: o.workspace.id, userId: o.user.id };
    const add = (name: string, fields: Parameters<typeof insertMediaRow>[3]) =>
      insertMediaRow(env.ctx, w.workspaceId, w.userId, fields).then((id) => (ids[name] = id));
    // Distinct timestamps keep "newest first" predictable.
    const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
    await add('team', { original_name: 'Team Photo.PNG', alt_text: 'Our crew', created_at: at(1) });
    await add('logo', { original_name: 'logo_100%.svg', mime_type: 'image/svg+xml', alt_text: null, folder: 'brand', created_at: at(2) });
    await add('report', { original_name: 'report.pdf', mime_type: 'application/pdf', alt_text: 'Annual TEAM report', folder: 'docs/2026', created_at: at(3) });
    await add('clip', { original_name: 'clip.mp4', mime_type: 'video/mp4', alt_text: null, folder: 'brand', created_at: at(4) });
    await add('data', { original_name: 'data.json', mime_type: 'application/json', alt_text: null, created_at: at(5) });
    await add('gone', { original_name: 'team-old.png', folder: 'archive', deleted: true, created_at: at(6) });
    await insertMediaRow(env.ctx, other.wsId, other.userId, { original_name: 'team.png', folder: 'elsewhere' });
  });
  afterAll(async () => {
    await env?.close();
  });

  const names = async (query: string) => {
    const res = await w.req('GET', `/media?${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.data as { original_name: string }[]).map((m) => m.original_name);
  };

  it('search matches the original name or the alt text, ignoring case, live assets of the workspace only', async () => {
    expect(await names('search=team')).toEqual(['report.pdf', 'Team Photo.PNG']);
    expect(await names('search=PHOTO')).toEqual(['Team Photo.PNG']);
    expect(await names('search=crew')).toEqual(['Team Photo.PNG']);
    expect(await names('search=%20%20')).toHaveLength(5); // blank: no filter
    expect(await names('search=nothing-like-this')).toEqual([]);
    const res = await w.req('GET', '/media?search=team&limit=1');
    expect(res.body.meta).toMatchObject({ total_data: 2, total_pages: 2 });
  });

  it('takes LIKE wildcards and the escape character literally', async () => {
    expect(await names('search=%25')).toEqual(['logo_100%.svg']);
    expect(await names('search=_')).toEqual(['logo_100%.svg']);
    expect(await names('search=o_1')).toEqual(['logo_100%.svg']);
    expect(await names('search=%5C')).toEqual([]);
  });

  it('combines search with type and folder; type=other is neither image, video nor PDF', async () => {
    expect(await names('type=other')).toEqual(['data.json']);
    expect(await names('type=image')).toEqual(['logo_100%.svg', 'Team Photo.PNG']);
    expect(await names('type=image&search=team')).toEqual(['Team Photo.PNG']);
    expect(await names('folder=brand&search=L')).toEqual(['clip.mp4', 'logo_100%.svg']);
    expect(await names('folder=&search=a')).toEqual(['data.json', 'Team Photo.PNG']);
  });

  it('missing_alt=true lists the assets without alt text (none or only spaces), with the other filters', async () => {
    const blank = await insertMediaRow(env.ctx, w.workspaceId, w.userId, {
      original_name: 'blank.png',
      alt_text: '   ',
      created_at: '2026-01-01T00:00:07.000Z',
    });
    try {
      expect(await names('missing_alt=true')).toEqual(['blank.png', 'data.json', 'clip.mp4', 'logo_100%.svg']);
      expect(await names('missing_alt=true&type=image')).toEqual(['blank.png', 'logo_100%.svg']);
      expect(await names('missing_alt=true&folder=brand&search=logo')).toEqual(['logo_100%.svg']);
      expect(await names('missing_alt=false')).toHaveLength(6);
      expect(expectError(await w.req('GET', '/media?missing_alt=maybe'), 400, 'VALIDATION_FAILED').errors[0].path).toBe('query.missing_alt');
    } finally {
      // gone again, so the other cases count what they counted before
      await env.ctx.db.kysely.updateTable('media').set({ deleted_at: new Date().toISOString() }).where('id', '=', blank).execute();
    }
  });

  it('refuses a search over 200 characters and an unknown type with 400', async () => {
    expect(expectError(await w.req('GET', `/media?search=${'a'.repeat(201)}`), 400, 'VALIDATION_FAILED').errors[0].path).toBe('query.search');
    expectError(await w.req('GET', '/media?type=audio'), 400, 'VALIDATION_FAILED');
  });

  it('lists the folders holding live assets with their direct counts', async () => {
    const res = await w.req('GET', '/media/folders');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { folder: 'brand', count: 2 },
      { folder: 'docs/2026', count: 1 },
    ]);
    const theirs = await call(env.app, 'GET', `${M}/media/folders`, { key: other.key });
    expect(theirs.body.data).toEqual([{ folder: 'elsewhere', count: 1 }]);
    expectError(await call(env.app, 'GET', `${M}/media/folders`, { key: other.key, headers: { 'x-workspace-id': w.workspaceId } }), 403, 'FORBIDDEN');
  });

  it('renames an asset through PUT original_name (folders and control characters removed), findable by its new name', async () => {
    const id = await insertMediaRow(env.ctx, w.workspaceId, w.userId, { original_name: 'IMG_0001.png' });
    const res = await w.req('PUT', `/media/${id}`, { original_name: 'c:\\photos/Harbour at dusk\u0007.png' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.original_name).toBe('Harbour at dusk.png');
    expect(await names('search=harbour')).toEqual(['Harbour at dusk.png']);
    expect(expectError(await w.req('PUT', `/media/${id}`, { original_name: '' }), 400, 'VALIDATION_FAILED').errors[0].path).toBe('body.original_name');
    expectError(await w.req('PUT', `/media/${id}`, { original_name: null }), 400, 'VALIDATION_FAILED');
  });

  describe('usage', () => {
    let used: string;
    let unused: string;

    beforeAll(async () => {
      used = await w.media({ alt_text: 'Used' });
      unused = await w.media({ alt_text: 'Unused' });
      const type = await w.req('POST', '/content-types', {
        name: 'Post',
        slug: 'post',
        display_field: 'title',
        fields: [
          { name: 'title', field_type: 'text', localizable: true },
          { name: 'caption', field_type: 'text' },
          { name: 'cover', field_type: 'media' },
          { name: 'gallery', field_type: 'media_list' },
          { name: 'body', field_type: 'rich_text', localizable: true },
        ],
      });
      expect(type.status, JSON.stringify(type.body)).toBe(201);
      const entry = async (slug: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
        const res = await w.req('POST', '/content-types/post/entries', { slug, data, ...extra });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
      };
      const embed = (id: string) => ({
        nodeType: 'document',
        data: {},
        content: [{ nodeType: 'embedded-asset-block', data: { target: { sys: { id, type: 'Link', linkType: 'Asset' } } }, content: [] }],
      });
      await entry('with-cover', { title: 'Cover story', cover: used });
      await entry('in-gallery', { gallery: [unused, used] });
      // Published with the asset, then removed from the working copy: still used (production readers see it).
      expect((await w.req('PATCH', '/content-types/post/entries/in-gallery/publish')).status).toBe(200);
      expect((await w.req('PUT', '/content-types/post/entries/in-gallery', { data: { gallery: [unused] } })).status).toBe(200);
      await entry('embedded-in-german', { title: 'Embed', body: doc('plain') }, { translations: { de: { data: { body: embed(used) } } } });
      await entry('only-quotes-the-id', { title: 'Quote', caption: `see ${used}` });
      await entry('other-asset', { title: 'Other', cover: unused });
      const page = await w.req('POST', '/pages', {
        slug: 'landing',
        seo: { title: 'Landing' },
        blocks: [{ type: 'hero', data: { headline: 'Hi', image: used } }],
      });
      expect(page.status, JSON.stringify(page.body)).toBe(201);
      expect((await w.req('PATCH', '/pages/landing/publish')).status).toBe(200);
      const quoting = await w.req('POST', '/pages', { slug: 'quoting', blocks: [{ type: 'hero', data: { headline: used } }] });
      expect(quoting.status, JSON.stringify(quoting.body)).toBe(201);
      const noTitle = await w.req('POST', '/pages', { slug: 'rich', blocks: [{ type: 'rich-text', data: { body: embed(used) } }] });
      expect(noTitle.status, JSON.stringify(noTitle.body)).toBe(201);
    });

    it('lists the entries and pages naming the asset in media, media list and rich-text fields', async () => {
      const res = await w.req('GET', `/media/${used}/usage`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.entries).toEqual([
        { id: expect.any(String), content_type: 'post', slug: 'embedded-in-german', title: 'Embed' },
        { id: expect.any(String), content_type: 'post', slug: 'in-gallery' },
        { id: expect.any(String), content_type: 'post', slug: 'with-cover', title: 'Cover story' },
      ]);
      expect(res.body.data.pages).toEqual([
        { id: expect.any(String), slug: 'landing', title: 'Landing' },
        { id: expect.any(String), slug: 'rich', title: 'rich' },
      ]);
    });

    it('answers empty lists for an asset nobody uses, and 404 for unknown, deleted or foreign assets', async () => {
      const fresh = await w.media();
      expect((await w.req('GET', `/media/${fresh}/usage`)).body.data).toEqual({ entries: [], pages: [] });
      const res = await w.req('GET', `/media/${unused}/usage`);
      expect(res.body.data.entries.map((e: { slug: string }) => e.slug)).toEqual(['in-gallery', 'other-asset']);
      expectError(await w.req('GET', '/media/not-a-uuid/usage'), 404, 'NOT_FOUND');
      expectError(await w.req('GET', `/media/${ids.gone}/usage`), 404, 'NOT_FOUND');
      expectError(await call(env.app, 'GET', `${M}/media/${used}/usage`, { key: other.key }), 404, 'NOT_FOUND');
    });
  });
});
