/**
 * Writing a page back and changing it without its blocks (docs/pages.md "Writing a page back",
 * "Changing SEO without the blocks"; issue 28 item 2): the read-only keys a page read returns on
 * blocks (`page_id`, `block_type_id`, `parent_id`, `position`) and SEO translations (`id`,
 * `page_id`) are ignored by writes, so a read passed back to PUT succeeds and changes nothing;
 * PATCH /pages/{slug} changes the slug, SEO keys and SEO translations through PUT's write
 * (versions, pending changes, ETag, If-Match) and leaves the block tree as it is.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, dialects, expectError, type TestEnv } from './helpers.js';
import { createPageWorld, flat, P, type PageWorld } from './pages-fixtures.js';

describe.each(dialects())('pages written back and patched on %s', (dialect) => {
  let env: TestEnv;
  let w: PageWorld;
  beforeAll(async () => {
    env = await createTestEnv(dialect);
    w = await createPageWorld(env.ctx, env.app);
  });
  afterAll(async () => env?.close());

  const detail = async (slug: string) => {
    const res = await w.req('GET', `/pages/${slug}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { ...res.body.data, etag: res.headers.etag as string };
  };
  const versions = async (slug: string) => (await w.req('GET', `/pages/${slug}/versions`)).body.meta.total_data as number;
  const create = async (slug: string) => {
    const res = await w.req('POST', '/pages', {
      slug,
      seo: { title: 'Home', description: 'Welcome', keywords: ['a'] },
      seo_translations: { de: { title: 'Start' } },
      blocks: [
        { type: 'hero', data: { headline: 'Hi', subline: 'There' }, translations: { de: { data: { headline: 'Hallo' } } } },
        {
          type: 'feature-grid',
          data: { title: 'Grid', columns: 2 },
          children: [
            { type: 'feature-item', data: { label: 'One' } },
            { type: 'feature-item', data: { label: 'Two' }, translations: { de: { data: { label: 'Zwei' } } } },
          ],
        },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  };

  it('takes a page read back as it is: read-only block and SEO translation keys are ignored, nothing changes', async () => {
    await create('home');
    const before = await detail('home');
    expect(before.blocks[1].children[0]).toMatchObject({
      page_id: before.page.id,
      block_type_id: expect.any(String),
      position: 0,
      parent_id: before.blocks[1].id,
    });
    const res = await w.req(
      'PUT',
      '/pages/home',
      { seo: before.page.seo, seo_translations: before.seo_translations, blocks: before.blocks },
      { 'if-match': before.etag },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = await detail('home');
    expect(after.blocks).toEqual(before.blocks);
    expect(after.seo_translations).toEqual(before.seo_translations);
    expect(after.block_translations).toEqual(before.block_translations);
    expect(after.page.seo).toEqual(before.page.seo);
    // The same content: no new version.
    expect(await versions('home')).toBe(1);
  });

  it('derives parent and position from the tree, not from the read-only keys sent', async () => {
    await create('derived');
    const before = await detail('derived');
    const [hero, grid] = before.blocks;
    const [one, two] = grid.children;
    const res = await w.req('PUT', '/pages/derived', {
      seo: before.page.seo,
      blocks: [
        {
          ...grid,
          position: 7,
          page_id: randomUUID(),
          block_type_id: randomUUID(),
          children: [
            { ...two, position: 0, parent_id: hero.id },
            { ...one, position: 0 },
          ],
        },
        { ...hero, position: 0, parent_id: grid.id },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = await detail('derived');
    expect(after.blocks.map((b: any) => [b.id, b.position, b.type, b.page_id])).toEqual([
      [grid.id, 0, 'feature-grid', before.page.id],
      [hero.id, 1, 'hero', before.page.id],
    ]);
    expect(after.blocks[0].children.map((b: any) => [b.id, b.position, b.parent_id])).toEqual([
      [two.id, 0, grid.id],
      [one.id, 1, grid.id],
    ]);
    expect(after.blocks[0].block_type_id).toBe(grid.block_type_id);
    // Keys that are not a block's are still refused, at their place.
    const bad = expectError(await w.req('PUT', '/pages/derived', { seo: {}, blocks: [{ ...hero, colour: 'red' }] }), 400, 'VALIDATION_FAILED');
    expect(bad.errors).toEqual([{ path: 'body.blocks.0.colour', message: 'is not a known key' }]);
    const trBad = expectError(
      await w.req('PUT', '/pages/derived', { seo: {}, blocks: [], seo_translations: [{ locale: 'de', seo: {}, colour: 'red' }] }),
      400,
      'VALIDATION_FAILED',
    );
    expect(trBad.errors).toEqual([{ path: 'body.seo_translations.0.colour', message: 'is not a known key' }]);
  });

  it('creates a page from another page read (POST takes the same shape)', async () => {
    await create('source');
    const source = await detail('source');
    const strip = (b: any): any => ({ ...b, id: undefined, children: b.children.map(strip) });
    const res = await w.req('POST', '/pages', {
      slug: 'copied',
      seo: source.page.seo,
      seo_translations: source.seo_translations,
      blocks: source.blocks.map(strip),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const copy = await detail('copied');
    expect(flat(copy.blocks).map((b: any) => [b.type, b.data])).toEqual(flat(source.blocks).map((b: any) => [b.type, b.data]));
    expect(copy.seo_translations.map((t: any) => [t.locale, t.seo])).toEqual(source.seo_translations.map((t: any) => [t.locale, t.seo]));
  });

  it('PATCH changes SEO keys, SEO translations and the slug without the blocks, through the write PUT uses', async () => {
    await create('patched');
    expect((await w.req('PATCH', '/pages/patched/publish')).status).toBe(200);
    const before = await detail('patched');
    const stale = before.etag;
    const res = await w.req('PATCH', '/pages/patched', { seo: { title: 'New title', keywords: ['b', 'c'] } }, { 'if-match': before.etag });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers.etag).not.toBe(before.etag);
    expect(res.body.data).toMatchObject({
      status: 'published',
      has_pending_changes: true,
      seo: { title: 'New title', description: 'Welcome', keywords: ['b', 'c'], og_image: null, canonical: null },
    });
    const after = await detail('patched');
    expect(after.blocks).toEqual(before.blocks);
    expect(after.block_translations).toEqual(before.block_translations);
    expect(after.seo_translations).toEqual(before.seo_translations);
    expect(await versions('patched')).toBe(3);
    // Production readers keep the published version until it is published again (D70).
    const live = await w.req('GET', `${P}/pages/patched`, undefined, undefined, w.keys.delivery);
    expect(live.body.data.page.seo.title).toBe('Home');

    // If-Match as on PUT: the old tag answers 412 and changes nothing.
    expectError(await w.req('PATCH', '/pages/patched', { seo: { title: 'Lost' } }, { 'if-match': stale }), 412, 'PRECONDITION_FAILED');
    // null clears a key; SEO translations are replaced as a whole, as on PUT.
    const cleared = await w.req('PATCH', '/pages/patched', { seo: { description: null }, seo_translations: { fr: { title: 'Accueil' } } });
    expect(cleared.body.data.seo).toMatchObject({ title: 'New title', description: null });
    expect((await detail('patched')).seo_translations.map((t: any) => [t.locale, t.seo])).toEqual([['fr', { title: 'Accueil' }]]);
    // The slug, with the same rules as PUT.
    expect((await w.req('PATCH', '/pages/patched', { slug: 'renamed' })).body.data.slug).toBe('renamed');
    expectError(await w.req('PATCH', '/pages/renamed', { slug: 'home' }), 409, 'SLUG_TAKEN');
    // Publishing again takes the patched SEO live.
    expect((await w.req('PATCH', '/pages/renamed/publish')).status).toBe(200);
    expect((await w.req('GET', `${P}/pages/renamed`, undefined, undefined, w.keys.delivery)).body.data.page.seo.title).toBe('New title');
    // An empty PATCH changes nothing and records no version.
    const count = await versions('renamed');
    expect((await w.req('PATCH', '/pages/renamed', {})).status).toBe(200);
    expect(await versions('renamed')).toBe(count);
  });

  it('PATCH refuses blocks, unknown and bad SEO keys with exact paths', async () => {
    await create('strict');
    const before = await detail('strict');
    expect(expectError(await w.req('PATCH', '/pages/strict', { blocks: [] }), 400, 'VALIDATION_FAILED').errors[0].path).toMatch(/blocks/);
    expect(expectError(await w.req('PATCH', '/pages/strict', { seo: { colour: 'red' } }), 400, 'VALIDATION_FAILED').errors).toEqual([
      { path: 'body.seo.colour', message: expect.stringMatching(/is not an SEO key/) },
    ]);
    expect(expectError(await w.req('PATCH', '/pages/strict', { seo: 'Title' }), 400, 'VALIDATION_FAILED').errors[0].path).toBe('body.seo');
    expect(expectError(await w.req('PATCH', '/pages/strict', { seo: null }), 400, 'VALIDATION_FAILED').errors[0].path).toBe('body.seo');
    expect(expectError(await w.req('PATCH', '/pages/strict', { seo: { canonical: 'not a url' } }), 400, 'VALIDATION_FAILED').errors[0].path).toBe(
      'body.seo.canonical',
    );
    expect(expectError(await w.req('PATCH', '/pages/strict', { slug: 'Bad Slug' }), 400, 'VALIDATION_FAILED').errors[0].path).toBe('body.slug');
    expectError(await w.req('PATCH', '/pages/missing', { seo: { title: 'x' } }), 404, 'NOT_FOUND');
    // Release versions are PUT's: a PATCH naming a release is refused rather than writing the working copy.
    expect(
      expectError(await w.req('PATCH', `/pages/strict?release=${randomUUID()}`, { seo: { title: 'x' } }), 400, 'VALIDATION_FAILED').errors[0].path,
    ).toMatch(/^query/);
    expect(await detail('strict')).toEqual(before);
  });
});
