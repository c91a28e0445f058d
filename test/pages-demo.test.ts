/**
 * The demo workspace's pages (issue 3 item 5): a home and an about page built from hero (with an
 * image), rich text, feature grid (with feature item children), gallery and call-to-action
 * blocks, published, in English and German.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IMAGES } from '../src/modules/demo/images.js';
import { DEMO_BLOCK_TYPES, DEMO_PAGES } from '../src/modules/demo/pages.js';
import { startServices } from '../src/services.js';
import { call, createTestEnv, dialects, type TestEnv } from './helpers.js';

describe.each(dialects())('demo pages on %s', (dialect) => {
  let env: TestEnv;
  let printed = '';
  const key = (name: string) => new RegExp(`^ {2}${name} +(svc_\\w+)$`, 'm').exec(printed)?.[1] ?? '';
  const get = async (url: string) => {
    const res = await call(env.app, 'GET', `/api/v1/public${url}`, { key: key('delivery') });
    expect(res.status).toBe(200);
    return res.body;
  };
  beforeAll(async () => {
    env = await createTestEnv(dialect, { config: { demo: true } });
    const services = await startServices(env.ctx, { print: (t) => (printed += t) });
    await services.stop();
  });
  afterAll(async () => env?.close());

  if (dialect === 'postgres') {
    // The demo is created on embedded (SQLite) databases only (D60).
    it('creates no demo pages on PostgreSQL', async () => {
      const row = await env.ctx.db.kysely
        .selectFrom('pages')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(row.n)).toBe(0);
    });
    return;
  }

  it('lists the home and about pages in navigation order and mentions them in the banner', async () => {
    const list = await get('/pages');
    expect(list.data.map((p: any) => [p.slug, p.position, p.status])).toEqual([
      ['home', 0, 'published'],
      ['about', 1, 'published'],
    ]);
    expect(printed).toContain(`'http://quire.test/api/v1/public/pages/home?locale=de'`);
    expect(printed).toContain('2 pages built from blocks');
    const types = await call(env.app, 'GET', '/api/v1/manage/content-types?is_block=true', { key: key('management') });
    expect(types.body.data.map((t: any) => t.slug).sort()).toEqual(DEMO_BLOCK_TYPES.map((t) => t.slug).sort());
  });

  it('serves the home page as a tree of blocks in English and German', async () => {
    const en = (await get('/pages/home')).data;
    expect(en.page.seo).toMatchObject({ title: 'Quire demo', keywords: ['quire', 'headless cms', 'demo'] });
    expect(en.blocks.map((b: any) => b.type)).toEqual(['hero', 'feature-grid', 'rich-text', 'call-to-action']);
    const grid = en.blocks[1];
    expect(grid.children.map((c: any) => c.type)).toEqual(['feature-item', 'feature-item', 'feature-item']);
    expect(grid.children.every((c: any) => c.parent_id === grid.id)).toBe(true);
    const hero = JSON.parse(en.blocks[0].data);
    expect(hero.featured_post).toMatchObject({ slug: 'welcome-to-quire', type: 'post', title: 'Welcome to the Quire demo blog' });
    expect(hero.image).toMatchObject({ mime_type: 'image/jpeg', width: 1600, height: 700, alt_text: DEMO_IMAGES[0].alt, focal_x: 0.7, focal_y: 0.45 });

    const de = (await get('/pages/home?locale=de')).data;
    expect(de.page.seo.title).toBe('Quire-Demo');
    expect(de.page.is_fallback).toBe(false);
    expect(JSON.parse(de.blocks[0].data).headline).toBe('Inhalte für jeden Kanal');
    expect(JSON.parse(de.blocks[1].children[1].data)).toMatchObject({ title: 'Zwei Sprachen', icon: 'globe' });
    expect(JSON.parse(de.blocks[3].data)).toEqual({ label: 'Zur API-Anleitung', url: 'https://quire.local/docs/pages' });
    expect(de.block_translations.every((t: any) => t.locale === 'de')).toBe(true);
  });

  it('holds images in an image-only hero field and a gallery block on the about page', async () => {
    const types = (await call(env.app, 'GET', '/api/v1/manage/content-types?is_block=true', { key: key('management') })).body.data;
    const field = (type: string, name: string) => types.find((t: any) => t.slug === type).fields.find((f: any) => f.name === name);
    expect(field('hero', 'image')).toMatchObject({ field_type: 'media' });
    expect(JSON.parse(field('hero', 'image').validation)).toEqual({ media_kinds: ['image'] });
    expect(field('gallery', 'images')).toMatchObject({ field_type: 'media_list', required: true });
    expect(JSON.parse(field('gallery', 'images').validation)).toEqual({ media_kinds: ['image'], min: 1, max: 12 });

    const de = (await get('/pages/about?locale=de')).data;
    const gallery = de.blocks.find((b: any) => b.type === 'gallery');
    const data = JSON.parse(gallery.data);
    expect(data.title).toBe('Aus dem Blog');
    expect(data.images.map((m: any) => m.alt_text)).toEqual(
      ['welcome-to-quire.jpg', 'many-languages.jpg', 'scheduling.jpg'].map((n) => DEMO_IMAGES.find((d) => d.name === n)!.alt),
    );
    expect(data.images.every((m: any) => m.mime_type === 'image/jpeg' && m.width === 1200 && m.height === 800)).toBe(true);
    expect(JSON.parse(de.blocks[0].data).image).toMatchObject({ width: 1600, height: 700 });
  });

  it('serves the about page in both languages, every block translated', async () => {
    for (const locale of ['en', 'de']) {
      const d = (await get(`/pages/about?locale=${locale}`)).data;
      const page = DEMO_PAGES.find((p) => p.slug === 'about')!;
      expect(d.page.seo.title).toBe(locale === 'de' ? page.seoDe.title : page.seo.title);
      expect(d.blocks.map((b: any) => b.type)).toEqual(page.blocks.map((b) => b.type));
      expect(JSON.parse(d.blocks[0].data).headline).toBe(locale === 'de' ? 'Über diese Demo' : 'About this demo');
      expect(d.blocks[2].children).toHaveLength(2);
    }
  });
});
