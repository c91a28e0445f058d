/**
 * The `media_kinds` rule of media and media_list fields (issue 12 item 2; docs/api.md "Fields"):
 * refused at field creation on other types and with unknown kinds; on every write that names
 * assets (entries and their translations, page blocks), an asset of another kind answers 400
 * with the value's path and the kinds asked for; GET /media lists several kinds at once
 * (`type=image,video`), which the Studio's picker uses to offer only accepted kinds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestEnv, dialects, expectError, insertMediaRow, seedWorkspace, type TestEnv } from './helpers.js';

const M = '/api/v1/manage';

describe.each(dialects())('media_kinds on %s', (dialect) => {
  let env: TestEnv;
  let key: string;
  let wsId: string;
  const media: Record<'png' | 'svg' | 'mp4' | 'pdf' | 'mp3', string> = { png: '', svg: '', mp4: '', pdf: '', mp3: '' };

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    const s = await seedWorkspace(env.ctx);
    key = s.keys.management;
    wsId = s.workspace.id;
    const mime = { png: 'image/png', svg: 'image/svg+xml', mp4: 'video/mp4', pdf: 'application/pdf', mp3: 'audio/mpeg' } as const;
    for (const [name, type] of Object.entries(mime)) {
      media[name as keyof typeof mime] = await insertMediaRow(env.ctx, wsId, s.user.id, {
        mime_type: type,
        original_name: `file.${name}`,
        ...(name === 'mp3' ? { storage_key: null, remote_url: 'https://assets.example/file.mp3' } : {}),
      });
    }
    const types = [
      {
        name: 'Post',
        fields: [
          { name: 'cover', field_type: 'media', localizable: true, validation: { media_kinds: ['image'] } },
          { name: 'clips', field_type: 'media_list', validation: { media_kinds: ['image', 'video'], max: 5 } },
          { name: 'attachment', field_type: 'media', validation: JSON.stringify({ media_kinds: ['pdf', 'other'] }) },
          { name: 'anything', field_type: 'media' },
        ],
      },
      { name: 'Hero', is_block: true, fields: [{ name: 'image', field_type: 'media', validation: { media_kinds: ['image'] } }] },
    ];
    for (const t of types) expect((await call(env.app, 'POST', `${M}/content-types`, { key, body: t })).status).toBe(201);
  });
  afterAll(async () => env?.close());

  it('is refused at field creation on other field types, with unknown or repeated kinds, or empty', async () => {
    const add = (field: Record<string, unknown>) => call(env.app, 'POST', `${M}/content-types/post/fields`, { key, body: field });
    const cases: [Record<string, unknown>, string, string][] = [
      [
        { name: 'a', field_type: 'text', validation: { media_kinds: ['image'] } },
        'body.validation.media_kinds',
        'only media and media_list fields take media_kinds',
      ],
      [
        { name: 'b', field_type: 'relation', validation: { media_kinds: ['image'] } },
        'body.validation.media_kinds',
        'only media and media_list fields take media_kinds',
      ],
      [
        { name: 'c', field_type: 'media', validation: { media_kinds: ['image', 'audio'] } },
        'body.validation.media_kinds',
        '"audio" is not a media kind; the kinds are image, video, pdf, other',
      ],
      [
        { name: 'd', field_type: 'media_list', validation: { media_kinds: [] } },
        'body.validation.media_kinds',
        'must be a non-empty array of media kinds (image, video, pdf, other)',
      ],
      [
        { name: 'e', field_type: 'media', validation: { media_kinds: 'image' } },
        'body.validation.media_kinds',
        'must be a non-empty array of media kinds (image, video, pdf, other)',
      ],
      [{ name: 'f', field_type: 'media', validation: { media_kinds: ['image', 'image'] } }, 'body.validation.media_kinds', 'must name each kind once'],
      [
        { name: 'g', field_type: 'media', validation: { kinds: ['image'] } },
        'body.validation.kinds',
        'is not a known rule (min, max, min_length, max_length, pattern, media_kinds)',
      ],
    ];
    for (const [field, path, message] of cases) {
      const body = expectError(await add(field), 400, 'VALIDATION_FAILED');
      expect(body.errors).toEqual([{ path, message }]);
    }
    // A content type created with its fields reports the field's index.
    const created = await call(env.app, 'POST', `${M}/content-types`, {
      key,
      body: {
        name: 'Bad',
        fields: [
          { name: 'x', field_type: 'text' },
          { name: 'y', field_type: 'json', validation: { media_kinds: ['pdf'] } },
        ],
      },
    });
    expect(expectError(created, 400, 'VALIDATION_FAILED').errors).toEqual([
      { path: 'body.fields.1.validation.media_kinds', message: 'only media and media_list fields take media_kinds' },
    ]);
    // The stored rule comes back as written.
    const type = (await call(env.app, 'GET', `${M}/content-types/post`, { key })).body.data;
    expect(JSON.parse(type.fields.find((f: { name: string }) => f.name === 'clips').validation)).toEqual({ media_kinds: ['image', 'video'], max: 5 });
  });

  it('accepts assets of the accepted kinds on entries (an SVG is an image; no rule accepts any kind)', async () => {
    const res = await call(env.app, 'POST', `${M}/content-types/post/entries`, {
      key,
      body: {
        slug: 'ok',
        data: { cover: media.svg, clips: [media.png, media.mp4], attachment: media.mp3, anything: media.pdf },
        translations: { de: { data: { cover: media.png } } },
      },
    });
    expect(res.status).toBe(201);
    expect(JSON.parse(res.body.data.data)).toEqual({ cover: media.svg, clips: [media.png, media.mp4], attachment: media.mp3, anything: media.pdf });
    const pdf = await call(env.app, 'PUT', `${M}/content-types/post/entries/ok`, { key, body: { data: { attachment: media.pdf } } });
    expect(pdf.status).toBe(200);
  });

  it('refuses each value of another kind with its path, on create, update and translations', async () => {
    const create = await call(env.app, 'POST', `${M}/content-types/post/entries`, {
      key,
      body: {
        slug: 'bad',
        data: { cover: media.pdf, clips: [media.png, media.mp3, media.pdf], attachment: media.mp4 },
        translations: { de: { data: { cover: media.mp4 } } },
      },
    });
    expect(expectError(create, 400, 'VALIDATION_FAILED').errors).toEqual([
      { path: 'body.data.cover', message: `must be an image; media '${media.pdf}' is a PDF (application/pdf)` },
      { path: 'body.data.clips.1', message: `must be an image or a video; media '${media.mp3}' is a file that is not an image, video or PDF (audio/mpeg)` },
      { path: 'body.data.clips.2', message: `must be an image or a video; media '${media.pdf}' is a PDF (application/pdf)` },
      { path: 'body.data.attachment', message: `must be a PDF or a file that is not an image, video or PDF; media '${media.mp4}' is a video (video/mp4)` },
      { path: 'body.translations.de.data.cover', message: `must be an image; media '${media.mp4}' is a video (video/mp4)` },
    ]);
    const update = await call(env.app, 'PUT', `${M}/content-types/post/entries/ok`, { key, body: { data: { clips: [media.pdf] } } });
    expect(expectError(update, 400, 'VALIDATION_FAILED').errors).toEqual([
      { path: 'body.data.clips.0', message: `must be an image or a video; media '${media.pdf}' is a PDF (application/pdf)` },
    ]);
    // A missing asset is still reported as missing, not as of the wrong kind.
    const missing = await call(env.app, 'PUT', `${M}/content-types/post/entries/ok`, {
      key,
      body: { data: { cover: '00000000-0000-4000-8000-000000000000' } },
    });
    expect(expectError(missing, 400, 'VALIDATION_FAILED').errors).toEqual([
      { path: 'body.data.cover', message: "media '00000000-0000-4000-8000-000000000000' does not exist in this workspace" },
    ]);
    const stored = JSON.parse((await call(env.app, 'GET', `${M}/content-types/post/entries/ok`, { key })).body.data.data);
    // PUT replaces the data: what the last accepted write left.
    expect(stored).toEqual({ attachment: media.pdf });
  });

  it('holds on page blocks, created and updated', async () => {
    const ok = await call(env.app, 'POST', `${M}/pages`, { key, body: { slug: 'home', blocks: [{ type: 'hero', data: { image: media.png } }] } });
    expect(ok.status).toBe(201);
    const bad = await call(env.app, 'POST', `${M}/pages`, {
      key,
      body: {
        slug: 'about',
        blocks: [
          { type: 'hero', data: { image: media.png } },
          { type: 'hero', data: { image: media.mp4 } },
        ],
      },
    });
    expect(expectError(bad, 400, 'VALIDATION_FAILED').errors).toEqual([
      { path: 'body.blocks.1.data.image', message: `must be an image; media '${media.mp4}' is a video (video/mp4)` },
    ]);
    const block = (await call(env.app, 'GET', `${M}/pages/home`, { key })).body.data.blocks[0];
    const update = await call(env.app, 'PUT', `${M}/pages/home`, {
      key,
      body: { seo: {}, blocks: [{ id: block.id, type: 'hero', data: { image: media.pdf } }] },
    });
    expect(expectError(update, 400, 'VALIDATION_FAILED').errors).toEqual([
      { path: 'body.blocks.0.data.image', message: `must be an image; media '${media.pdf}' is a PDF (application/pdf)` },
    ]);
    const updated = await call(env.app, 'PUT', `${M}/pages/home`, {
      key,
      body: { seo: {}, blocks: [{ id: block.id, type: 'hero', data: { image: media.svg } }] },
    });
    expect(updated.status).toBe(200);
    const blocks = (await call(env.app, 'GET', `${M}/pages/home`, { key })).body.data.blocks;
    expect(JSON.parse(blocks[0].data)).toEqual({ image: media.svg });
  });

  it('GET /media lists one kind or several (type=image,video), and refuses an unknown kind', async () => {
    const names = async (type: string) => {
      const res = await call(env.app, 'GET', `${M}/media?type=${type}`, { key });
      expect(res.status).toBe(200);
      return (res.body.data as { original_name: string }[]).map((m) => m.original_name).sort();
    };
    expect(await names('image')).toEqual(['file.png', 'file.svg']);
    expect(await names('image,video')).toEqual(['file.mp4', 'file.png', 'file.svg']);
    expect(await names('pdf,other')).toEqual(['file.mp3', 'file.pdf']);
    expect(await names('other')).toEqual(['file.mp3']);
    expect(await names('video,video')).toEqual(['file.mp4']);
    for (const type of ['audio', 'image,', 'image,,video', 'IMAGE']) {
      const res = await call(env.app, 'GET', `${M}/media?type=${encodeURIComponent(type)}`, { key });
      expect(expectError(res, 400, 'VALIDATION_FAILED').errors[0].path).toBe('query.type');
    }
  });
});
