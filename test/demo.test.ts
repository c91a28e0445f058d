/**
 * The demo workspace (docs/configuration.md "Configuration" (D60); issue 2 item 11): startServices
 * on an empty embedded
 * database creates workspace `demo` once, prints its keys with curl examples, and the delivery
 * API serves its posts in English and German, each with a cover image stored through the media
 * module (a real JPEG, served and transformed at its URL). PostgreSQL, or QUIRE_DEMO=0, starts
 * empty.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { DEMO_AUTHORS, DEMO_POSTS } from '../src/modules/demo/content.js';
import { DEMO_IMAGES } from '../src/modules/demo/images.js';
import { startServices } from '../src/services.js';
import { call, createTestEnv, dialects, type TestEnv } from './helpers.js';

async function workspaceCount(env: TestEnv): Promise<number> {
  const row = await env.ctx.db.kysely
    .selectFrom('workspaces')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Starts and stops the services once; returns what they printed. */
async function startOnce(env: TestEnv): Promise<string> {
  let printed = '';
  const services = await startServices(env.ctx, { print: (t) => (printed += t) });
  await services.stop();
  return printed;
}

describe.each(dialects())('demo workspace on %s', (dialect) => {
  let env: TestEnv;
  let printed: string;
  const key = (name: string) => new RegExp(`^ {2}${name} +(svc_\\w+)$`, 'm').exec(printed)?.[1] ?? '';
  beforeAll(async () => {
    env = await createTestEnv(dialect, { config: { demo: true } });
    printed = await startOnce(env);
  });
  afterAll(async () => env?.close());

  if (dialect === 'postgres') {
    it('is not created on PostgreSQL, which starts empty', async () => {
      expect(printed).toBe('');
      expect(await workspaceCount(env)).toBe(0);
    });
    return;
  }

  it('is created on the first start and its keys are printed once with curl examples', async () => {
    expect(await workspaceCount(env)).toBe(1);
    const ws = await env.ctx.db.kysely.selectFrom('workspaces').selectAll().executeTakeFirstOrThrow();
    expect(ws).toMatchObject({ slug: 'demo', default_locale: 'en' });
    expect(key('management')).toMatch(/^svc_mgmt_/);
    expect(key('delivery')).toMatch(/^svc_live_/);
    expect(key('preview')).toMatch(/^svc_live_/);
    expect(printed).toContain(`curl -H 'X-API-Key: ${key('delivery')}' 'http://quire.test/api/v1/public/entries?type=post&locale=de'`);
    expect(printed).toContain('QUIRE_DEMO=0');
    // The live preview is wired to the example site, and the one command that starts it is printed.
    expect(ws.preview_url_template).toBe('http://localhost:4321/api/preview?type={type}&slug={slug}&locale={locale}&token={token}');
    expect(printed).toContain(
      `QUIRE_URL=http://quire.test QUIRE_DELIVERY_KEY=${key('delivery')} PUBLIC_QUIRE_DELIVERY_KEY=${key('delivery')} QUIRE_PREVIEW_KEY=${key('preview')} npm run dev -w examples/site`,
    );
  });

  it('does nothing on the second start', async () => {
    const before = await env.ctx.db.kysely.selectFrom('entries').select(['id', 'version', 'updated_at']).orderBy('id').execute();
    expect(await startOnce(env)).toBe('');
    expect(await workspaceCount(env)).toBe(1);
    expect(await env.ctx.db.kysely.selectFrom('entries').select(['id', 'version', 'updated_at']).orderBy('id').execute()).toEqual(before);
    expect(before).toHaveLength(DEMO_AUTHORS.length + DEMO_POSTS.length);
  });

  it('serves published German posts through the delivery API', async () => {
    const de = await call(env.app, 'GET', '/api/v1/public/entries?type=post&locale=de&sort=published_on:asc', { key: key('delivery') });
    expect(de.status).toBe(200);
    expect(de.body.meta).toMatchObject({ total_data: DEMO_POSTS.length, locale_requested: 'de' });
    const titles = de.body.data.map((e: any) => JSON.parse(e.data).title);
    expect(titles).toEqual(DEMO_POSTS.map((p) => p.de.title));
    expect(de.body.data.every((e: any) => e.status === 'published' && e.is_fallback === false)).toBe(true);

    const one = await call(
      env.app,
      'GET',
      '/api/v1/public/entries/one-entry-many-languages?type=post&locale=de&fields=title,body_html,author.name,author.role',
      { key: key('delivery') },
    );
    expect(one.status).toBe(200);
    const data = JSON.parse(one.body.data.entry.data);
    expect(data.title).toBe('Ein Eintrag, viele Sprachen');
    expect(data.body_html).toContain('<h2>Warum pro Feld?</h2>');
    expect(data.author).toMatchObject({ slug: 'ines-okafor', type: 'author', name: 'Ines Okafor', role: 'Leiterin Lokalisierung' });

    const en = await call(env.app, 'GET', '/api/v1/public/entries/welcome-to-quire?type=post', { key: key('delivery') });
    expect(JSON.parse(en.body.data.entry.data).title).toBe('Welcome to the Quire demo blog');
    const mgmt = await call(env.app, 'GET', '/api/v1/manage/content-types', { key: key('management') });
    // author and post, and the block types of the demo pages (test/pages-demo.test.ts).
    expect(
      mgmt.body.data
        .filter((c: any) => !c.is_block)
        .map((c: any) => c.slug)
        .sort(),
    ).toEqual(['author', 'post']);
  });

  it('gives every post a cover image: an image-only media field, a JPEG stored in the media library, served and transformed at its URL', async () => {
    const posts = await call(env.app, 'GET', '/api/v1/public/entries?type=post&sort=published_on:asc&limit=10', { key: key('delivery') });
    const covers = posts.body.data.map((e: any) => JSON.parse(e.data).cover);
    expect(covers).toHaveLength(DEMO_POSTS.length);
    for (const [i, cover] of covers.entries()) {
      const image = DEMO_IMAGES.find((d) => d.name === DEMO_POSTS[i].cover)!;
      expect(cover).toMatchObject({ mime_type: 'image/jpeg', width: 1200, height: 800, alt_text: image.alt, title: image.title });
      expect(cover.url).toMatch(/^http:\/\/quire\.test\/media\/files\/[0-9a-f-]+\/demo\/[0-9a-f-]+\.jpg$/);
    }
    const path = new URL(covers[0].url).pathname;
    const file = await env.app.inject({ method: 'GET', url: path });
    expect(file.statusCode).toBe(200);
    expect(await sharp(file.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 1200, height: 800 });
    const small = await env.app.inject({ method: 'GET', url: `${path}?w=300&fm=webp` });
    expect(await sharp(small.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 300, height: 200 });

    const library = await call(env.app, 'GET', '/api/v1/manage/media?folder=demo&limit=100', { key: key('management') });
    expect(library.body.data.map((m: any) => m.original_name).sort()).toEqual(DEMO_IMAGES.map((d) => d.name).sort());
    const post = (await call(env.app, 'GET', '/api/v1/manage/content-types/post', { key: key('management') })).body.data;
    const coverField = post.fields.find((f: any) => f.name === 'cover');
    expect(coverField).toMatchObject({ field_type: 'media' });
    expect(JSON.parse(coverField.validation)).toEqual({ media_kinds: ['image'] });
  });

  it('is not created when QUIRE_DEMO=0', async () => {
    const off = await createTestEnv(dialect, { config: { demo: false } });
    try {
      expect(await startOnce(off)).toBe('');
      expect(await workspaceCount(off)).toBe(0);
    } finally {
      await off.close();
    }
  });
});
