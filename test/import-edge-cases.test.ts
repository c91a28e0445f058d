/**
 * The Contentful importer on a small hand-made export covering what the real one lacks: every
 * field type, sanitized field names, skipped types, link cycles and self-links, dangling links,
 * slug collisions, drafts, dates, an entry the API refuses, schema conflicts, and idempotence of
 * all of it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivedId } from '../src/lib/ids.js';
import { systemActor } from '../src/modules/auth/permissions.js';
import { findContentTypeBySlug } from '../src/modules/content-types/repository.js';
import { getEntry } from '../src/modules/entries/operations.js';
import { importContentful } from '../src/modules/import/operations.js';
import type { ContentfulExport } from '../src/modules/import/contentful/export.js';
import { cli } from './cli-helpers.js';
import { entryCounts } from './import-counts.js';
import { createTestEnv, dialects, type TestEnv } from './helpers.js';

const link = (linkType: 'Entry' | 'Asset', id: string) => ({ sys: { type: 'Link', linkType, id } });
const doc = (text: string) => ({
  nodeType: 'document',
  data: {},
  content: [{ nodeType: 'paragraph', data: {}, content: [{ nodeType: 'text', value: text, marks: [], data: {} }] }],
});
const sys = (id: string, type: string, published = true) => ({ id, contentType: { sys: { id: type } }, ...(published ? { publishedVersion: 3 } : {}) });

function sampleExport(): ContentfulExport {
  return {
    locales: [
      { code: 'de-DE', default: false },
      { code: 'en-US', default: true },
    ],
    contentTypes: [
      {
        sys: { id: 'blogPost' },
        name: 'Blog post',
        description: 'Articles',
        displayField: 'title',
        fields: [
          { id: 'title', name: 'Title', type: 'Symbol', localized: true, required: true },
          { id: 'Body', name: 'Body', type: 'RichText', localized: true },
          { id: 'tag-list', name: 'Tags', type: 'Array', items: { type: 'Symbol' } },
          { id: 'mood', name: 'Mood', type: 'Array', items: { type: 'Symbol', validations: [{ in: ['happy', 'sad'] }] } },
          { id: 'emptyList', name: 'Empty list', type: 'Array', items: { type: 'Symbol' } },
          { id: 'day', name: 'Day', type: 'Date' },
          { id: 'where', name: 'Where', type: 'Location' },
          { id: 'meta', name: 'Meta', type: 'Object' },
          { id: 'count', name: 'Count', type: 'Integer', validations: [{ unique: true }] },
          { id: 'score', name: 'Score', type: 'Number' },
          { id: 'flag', name: 'Flag', type: 'Boolean' },
          { id: 'notes', name: 'Notes', type: 'Text', validations: [{ unique: true }] },
          { id: 'related', name: 'Related', type: 'Link', linkType: 'Entry', localized: true, validations: [{ linkContentType: ['blogPost'] }] },
          { id: 'author', name: 'Author', type: 'Link', linkType: 'Entry' },
          { id: 'cover', name: 'Cover', type: 'Link', linkType: 'Asset' },
          { id: 'gallery', name: 'Gallery', type: 'Array', items: { type: 'Link', linkType: 'Asset' } },
          { id: 'remote', name: 'Remote', type: 'ResourceLink' },
        ],
      },
      {
        sys: { id: 'author' },
        name: 'Author',
        displayField: 'name',
        fields: [
          { id: 'name', name: 'Name', type: 'Symbol' },
          { id: 'buddies', name: 'Buddies', type: 'Array', items: { type: 'Link', linkType: 'Entry', validations: [{ linkContentType: ['author'] }] } },
        ],
      },
      {
        sys: { id: 'strictThing' },
        name: 'Strict thing',
        fields: [
          { id: 'code', name: 'Code', type: 'Symbol', required: true },
          { id: 'label', name: 'Label', type: 'Symbol' },
        ],
      },
    ],
    entries: [
      {
        sys: sys('post1', 'blogPost'),
        fields: {
          title: { 'en-US': 'Hello World', 'de-DE': 'Hallo Welt' },
          Body: { 'en-US': doc('Hi'), 'de-DE': doc('Hallo') },
          related: { 'en-US': link('Entry', 'post2'), 'de-DE': link('Entry', 'post2') },
          author: { 'en-US': link('Entry', 'ann') },
          cover: { 'en-US': link('Asset', 'img1') },
          gallery: { 'en-US': [link('Asset', 'img1'), link('Asset', 'gone')] },
          mood: { 'en-US': ['happy'] },
          count: { 'en-US': 7 },
          score: { 'en-US': 1.5 },
          flag: { 'en-US': true },
          notes: { 'en-US': 'line one\nline two' },
          meta: { 'en-US': { a: [1, 2] } },
        },
      },
      {
        sys: sys('post2', 'blogPost', false),
        fields: { title: { 'en-US': 'Hello World' }, related: { 'en-US': link('Entry', 'post1') }, author: { 'en-US': link('Entry', 'nobody') } },
      },
      {
        sys: sys('post3', 'blogPost'),
        fields: {
          title: { 'en-US': 'Third\npost' },
          'tag-list': { 'en-US': ['news', 'tips', 'news'] },
          day: { 'en-US': '2024-05-01' },
          where: { 'en-US': { lat: 52.52, lon: 13.4 } },
          related: { 'en-US': link('Entry', 'post3') },
        },
      },
      { sys: sys('ann', 'author'), fields: { name: { 'en-US': 'Ann' }, buddies: { 'en-US': [link('Entry', 'bob'), link('Entry', 'ann')] } } },
      { sys: sys('bob', 'author'), fields: { name: { 'en-US': 'Bob' }, buddies: { 'en-US': [link('Entry', 'ann')] } } },
      { sys: sys('lonely', 'strictThing'), fields: { label: { 'en-US': 'No code' } } },
      { sys: sys('stray', 'deletedType'), fields: {} },
    ],
    assets: [
      {
        sys: { id: 'img1', publishedVersion: 2 },
        fields: {
          title: { 'en-US': 'A picture' },
          file: {
            'en-US': {
              url: '//images.example.com/a/b/pic%20one.png',
              fileName: 'pic one.png',
              contentType: 'image/png',
              details: { size: 1234, image: { width: 640, height: 480 } },
            },
          },
        },
      },
      { sys: { id: 'nofile' }, fields: { title: { 'en-US': 'Broken' } } },
    ],
  };
}

describe.each(dialects())('Contentful importer edge cases on %s', (dialect) => {
  let env: TestEnv;
  let result: Awaited<ReturnType<typeof importContentful>>;
  let wsId: string;
  const id = (cfId: string) => derivedId(wsId, `entry:${cfId}`);
  const actor = () => systemActor(wsId, 1);

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    result = await importContentful(env.ctx, { workspace: 'edge', export: sampleExport(), batchSize: 2 });
    wsId = result.workspace.id;
  });
  afterAll(async () => env?.close());

  it('maps every field type and sanitizes names', async () => {
    const post = (await findContentTypeBySlug(env.ctx.db, wsId, 'blog-post'))!;
    const types = Object.fromEntries(post.fields.map((f) => [f.name, f.field_type]));
    expect(types).toEqual({
      title: 'text',
      body: 'rich_text',
      // A list of Symbols is closed (multi_select) only by an `in` rule; otherwise it is free (tags).
      tag_list: 'tags',
      mood: 'multi_select',
      emptyList: 'tags',
      day: 'date',
      where: 'json',
      meta: 'json',
      count: 'integer',
      score: 'number',
      flag: 'boolean',
      notes: 'textarea',
      related: 'relation',
      author: 'relation',
      cover: 'media',
      gallery: 'media_list',
    });
    const f = Object.fromEntries(post.fields.map((x) => [x.name, x]));
    expect(f.tag_list.options).toBeNull();
    expect(f.mood.options).toBe('["happy","sad"]');
    expect(f.related.options).toBe('["blog-post"]');
    expect(f.author.options).toBeNull();
    expect(f.count.is_unique).toBe(true);
    // Quire cannot keep textarea values unique; the flag is dropped rather than failing the import.
    expect(f.notes.is_unique).toBe(false);
    expect(result.warnings).toEqual(
      expect.arrayContaining([
        expect.stringContaining("field 'remote' of type ResourceLink has no Quire equivalent"),
        expect.stringContaining("links asset 'gone'"),
        expect.stringContaining("links entry 'nobody'"),
        expect.stringContaining("asset 'nofile' has no file URL"),
        expect.stringContaining("entry 'stray' has content type 'deletedType'"),
      ]),
    );
  });

  it('writes values, resolves cycles and self-links, de-duplicates slugs and keeps drafts', async () => {
    expect(result.entries).toEqual(entryCounts(6, { created: 6, published: 4, failed: 1 }, { draft: 1, published: 5 }));
    const p1 = await getEntry(env.ctx, actor(), 'blog-post', { id: id('post1') });
    expect(p1).toMatchObject({ slug: 'hello-world', status: 'published' });
    expect(p1.data).toMatchObject({
      title: 'Hello World',
      related: id('post2'),
      author: id('ann'),
      cover: derivedId(wsId, 'asset:img1'),
      mood: ['happy'],
      count: 7,
      score: 1.5,
      flag: true,
      notes: 'line one\nline two',
      meta: { a: [1, 2] },
    });
    expect(p1.data.gallery).toEqual([derivedId(wsId, 'asset:img1')]);
    expect(p1.translations).toHaveLength(1);
    expect(p1.translations[0]).toMatchObject({ locale: 'de-DE', data: { title: 'Hallo Welt', body: doc('Hallo'), related: id('post2') } });

    const p2 = await getEntry(env.ctx, actor(), 'blog-post', { id: id('post2') });
    expect(p2).toMatchObject({ slug: 'hello-world-2', status: 'draft' });
    expect(p2.data).toEqual({ title: 'Hello World', related: id('post1') });

    const p3 = await getEntry(env.ctx, actor(), 'blog-post', { id: id('post3') });
    expect(p3).toMatchObject({ slug: 'third-post', status: 'published' });
    expect(p3.data).toMatchObject({
      title: 'Third post',
      tag_list: ['news', 'tips'],
      day: '2024-05-01',
      where: { lat: 52.52, lon: 13.4 },
      related: id('post3'),
    });

    const ann = await getEntry(env.ctx, actor(), 'author', { id: id('ann') });
    expect(ann).toMatchObject({ slug: 'ann', status: 'published', data: { name: 'Ann', buddies: [id('bob'), id('ann')] } });
    const bob = await getEntry(env.ctx, actor(), 'author', { id: id('bob') });
    expect(bob).toMatchObject({ status: 'published', data: { buddies: [id('ann')] } });
  });

  it('reports an entry the API refuses to publish and imports the rest', async () => {
    expect(result.failures).toEqual([{ entry: 'lonely', type: 'strict-thing', message: 'Validation failed: data.code: is required' }]);
    const lonely = await getEntry(env.ctx, actor(), 'strict-thing', { id: id('lonely') });
    // Without a slug field or display field the slug is the Contentful id.
    expect(lonely).toMatchObject({ slug: 'lonely', status: 'draft', data: { label: 'No code' } });
  });

  it('creates media records for assets with a file, without downloading', async () => {
    expect(result.assets).toEqual({ total: 1, created: 1, updated: 0, unchanged: 0 });
    const row = await env.ctx.db.kysely.selectFrom('media').selectAll().where('id', '=', derivedId(wsId, 'asset:img1')).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      remote_url: 'https://images.example.com/a/b/pic%20one.png',
      mime_type: 'image/png',
      width: 640,
      height: 480,
      alt_text: 'A picture',
      original_name: 'pic one.png',
      filename: 'pic one.png',
      storage_key: null,
    });
    expect(Number(row.size)).toBe(1234);
  });

  it('changes nothing on a second run, links and failures included', async () => {
    const versions = async () =>
      env.ctx.db.kysely.selectFrom('entries').select(['id', 'version', 'updated_at', 'status']).where('workspace_id', '=', wsId).orderBy('id').execute();
    const before = await versions();
    const again = await importContentful(env.ctx, { workspace: 'edge', export: sampleExport(), batchSize: 2 });
    // The refused entry is tried again (and refused again); everything else is unchanged.
    expect(again.entries).toEqual(entryCounts(6, { unchanged: 5, failed: 1 }, { draft: 1, published: 5 }));
    expect(again.assets).toEqual({ total: 1, created: 0, updated: 0, unchanged: 1 });
    expect(again.content_types).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
    expect(await versions()).toEqual(before);
  });

  it('updates what changed in the export and publishes what became published', async () => {
    const exp = sampleExport();
    exp.entries[1].sys.publishedVersion = 1;
    exp.entries[0].fields.score = { 'en-US': 2.5 };
    exp.contentTypes[1].name = 'Writer';
    exp.assets[0].fields.title = { 'en-US': 'A better picture' };
    const r = await importContentful(env.ctx, { workspace: 'edge', export: exp });
    // post2 became published; post1 was published and changed, so its new content is published
    // again (D70: the update alone would only change its working copy).
    expect(r.entries).toMatchObject({ created: 0, updated: 1, published: 2, unchanged: 3, failed: 1 });
    expect(await getEntry(env.ctx, actor(), 'blog-post', { id: id('post1') })).toMatchObject({ status: 'published', has_pending_changes: false });
    expect(r.content_types).toMatchObject({ updated: 1, unchanged: 2 });
    expect(r.assets).toMatchObject({ updated: 1 });
    expect((await getEntry(env.ctx, actor(), 'blog-post', { id: id('post1') })).data.score).toBe(2.5);
    expect((await getEntry(env.ctx, actor(), 'blog-post', { id: id('post2') })).status).toBe('published');
    expect((await findContentTypeBySlug(env.ctx.db, wsId, 'author'))!.name).toBe('Writer');
  });

  it('refuses a schema conflict with one clear line and writes nothing', async () => {
    const exp = sampleExport();
    exp.contentTypes[0].fields[0].type = 'Text';
    exp.entries[0].fields.score = { 'en-US': 99 };
    const file = path.join(os.tmpdir(), `quire-conflict-${process.pid}-${dialect}.json`);
    fs.writeFileSync(file, JSON.stringify(exp));
    const run = await cli(['import', 'contentful', file, '--workspace', 'edge'], { context: env.ctx });
    fs.rmSync(file);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'quire: Validation failed: contentTypes.blogPost.fields.title.field_type: the export wants "textarea", \'blog-post.title\' has "text"; fields cannot change this\n',
    );
    expect((await getEntry(env.ctx, actor(), 'blog-post', { id: id('post1') })).data.score).toBe(2.5);
  });

  it('exits 1 after the report when entries were refused, and rejects unreadable files', async () => {
    const file = path.join(os.tmpdir(), `quire-edge-${process.pid}-${dialect}.json`);
    fs.writeFileSync(file, JSON.stringify(sampleExport()));
    const run = await cli(['import', 'contentful', file, '--workspace', 'edge'], { context: env.ctx });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("Imported into workspace 'edge'");
    expect(run.stdout).toContain('Failures (1):');
    expect(run.stderr).toBe('quire: 1 entry could not be fully imported (see failures)\n');

    fs.writeFileSync(file, '{"locales": [], "entries": 3}');
    const bad = await cli(['import', 'contentful', file, '--workspace', 'edge', '--json'], { context: env.ctx });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toBe('quire: Validation failed: file.entries: must be an array; file.locales: must list at least one locale\n');
    fs.rmSync(file);

    const missing = await cli(['import', 'contentful', '/nonexistent/export.json', '--workspace', 'edge'], { context: env.ctx });
    expect(missing).toMatchObject({ code: 1, stdout: '', stderr: "quire: Validation failed: file: '/nonexistent/export.json' does not exist\n" });
  });
});
