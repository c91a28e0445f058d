import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/lib/ids.js';
import { checkReferences, checkRichText, type DataReference } from '../src/modules/entries/validation.js';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from './helpers.js';

const M = '/api/v1/manage';

const doc = (...content: unknown[]) => ({ nodeType: 'document', data: {}, content });
const para = (...content: unknown[]) => ({ nodeType: 'paragraph', data: {}, content });
const text = (value: string, marks: unknown[] = []) => ({ nodeType: 'text', value, marks, data: {} });

/** Counts the statements run through a Kysely instance. */
class QueryCounter implements KyselyPlugin {
  count = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.count += 1;
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

describe.each(dialects())('entry data validation on %s', (dialect) => {
  let env: TestEnv;
  let key: string;
  let wsId: string;
  const media = { live: newId(), deleted: newId(), foreign: newId() };
  const people: string[] = [];
  let otherEntry: string;
  let foreignEntry: string;

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    const s = await seedWorkspace(env.ctx);
    key = s.keys.management;
    wsId = s.workspace.id;
    const other = await seedWorkspace(env.ctx);
    const types = [
      { name: 'Person', fields: [{ name: 'name', field_type: 'text' }] },
      { name: 'Place', fields: [{ name: 'name', field_type: 'text' }] },
      {
        name: 'Everything',
        fields: [
          { name: 'title', field_type: 'text', required: true, validation: { min_length: 2, max_length: 10, pattern: '^[A-Z]' } },
          { name: 'notes', field_type: 'textarea', validation: { max_length: 5 } },
          { name: 'body', field_type: 'rich_text', validation: { max_length: 10 } },
          { name: 'price', field_type: 'number', validation: { min: 0, max: 10 } },
          { name: 'count', field_type: 'integer' },
          { name: 'flag', field_type: 'boolean' },
          { name: 'day', field_type: 'date' },
          { name: 'at', field_type: 'datetime' },
          { name: 'mail', field_type: 'email' },
          { name: 'site', field_type: 'url' },
          { name: 'choice', field_type: 'select', options: ['a', 'b'] },
          { name: 'choices', field_type: 'multi_select', options: ['a', 'b', 'c'], validation: { min: 1, max: 2 } },
          { name: 'meta', field_type: 'json' },
          { name: 'image', field_type: 'media' },
          { name: 'gallery', field_type: 'media_list', validation: { max_length: 2 } },
          { name: 'author', field_type: 'relation', options: ['person'] },
          { name: 'related', field_type: 'relation_list' },
        ],
      },
    ];
    for (const t of types) expect((await call(env.app, 'POST', `${M}/content-types`, { key, body: t })).status).toBe(201);
    for (const name of ['Ann', 'Bob'])
      people.push((await call(env.app, 'POST', `${M}/content-types/person/entries`, { key, body: { data: { name } } })).body.data.id);
    otherEntry = (await call(env.app, 'POST', `${M}/content-types/place/entries`, { key, body: { data: { name: 'Paris' } } })).body.data.id;
    await call(env.app, 'POST', `${M}/content-types`, { key: other.keys.management, body: { name: 'Person', fields: [{ name: 'name', field_type: 'text' }] } });
    foreignEntry = (await call(env.app, 'POST', `${M}/content-types/person/entries`, { key: other.keys.management, body: { data: { name: 'Eve' } } })).body.data
      .id;
    const now = new Date().toISOString();
    const row = (id: string, workspace: string, deleted: string | null) => ({
      id,
      workspace_id: workspace,
      storage_key: `${id}.png`,
      remote_url: null,
      mime_type: 'image/png',
      width: 1,
      height: 1,
      alt_text: null,
      focal_x: null,
      focal_y: null,
      filename: `${id}.png`,
      original_name: 'x.png',
      folder: null,
      size: 1,
      uploaded_by: null,
      created_at: now,
      updated_at: now,
      deleted_at: deleted,
    });
    await env.ctx.db.kysely
      .insertInto('media')
      .values([row(media.live, wsId, null), row(media.deleted, wsId, now), row(media.foreign, other.workspace.id, null)])
      .execute();
  });
  afterAll(async () => env?.close());

  const create = (data: unknown) => call(env.app, 'POST', `${M}/content-types/everything/entries`, { key, body: { data } });

  // [field, value, valid, stored value when it differs from the input]
  const cases: [string, unknown, boolean, unknown?][] = [
    ['title', 'Hello', true],
    ['title', 'Two\nlines', false],
    ['title', 42, false],
    ['title', 'H', false],
    ['title', 'Hello world!', false],
    ['title', 'hello', false],
    ['notes', 'a\nb', true],
    ['notes', 'too long', false],
    ['notes', ['x'], false],
    ['body', doc(para(text('Hi', [{ type: 'bold' }]))), true],
    ['body', doc(para(text('much too long text'))), false],
    ['body', { nodeType: 'paragraph', content: [] }, false],
    ['body', doc(para(text('x', 'bold' as unknown as unknown[]))), false],
    ['body', doc({ nodeType: 'text', value: 5, marks: [] }), false],
    ['body', doc({ nodeType: 'marquee', content: [] }), false],
    ['body', doc({ nodeType: 'paragraph' }), false],
    ['body', doc(doc()), false],
    ['body', 'plain string', false],
    ['price', 9.5, true],
    ['price', 0, true],
    ['price', -1, false],
    ['price', 11, false],
    ['price', '5', false],
    ['count', 3, true],
    ['count', 3.5, false],
    ['count', 2 ** 60, false],
    ['flag', false, true],
    ['flag', 'true', false],
    ['day', '2024-02-29', true],
    ['day', '2023-02-29', false],
    ['day', '2024-1-01', false],
    ['at', '2026-11-21T12:00:00+02:00', true, '2026-11-21T12:00:00.000+02:00'],
    ['at', '2026-11-21T12:00-0330', true, '2026-11-21T12:00:00.000-03:30'],
    ['at', '2026-11-21T12:00:00+00:00', true, '2026-11-21T12:00:00.000Z'],
    ['at', '2026-11-21T10:00:00', false],
    ['at', '0000-06-01T10:00:00Z', false],
    ['at', '9999-12-31T23:30:00-01:00', false],
    ['at', 'yesterday', false],
    ['mail', 'ann@example.com', true],
    ['mail', 'not-an-email', false],
    ['site', 'https://example.com/a?b=c', true],
    ['site', 'ftp://example.com', false],
    ['site', '/relative', false],
    ['choice', 'a', true],
    ['choice', 'z', false],
    ['choices', ['a', 'c'], true],
    ['choices', [], false],
    ['choices', ['a', 'b', 'c'], false],
    ['choices', ['a', 'a'], false],
    ['choices', ['z'], false],
    ['choices', 'a', false],
    ['meta', { any: ['json', 1, null, true] }, true],
    ['meta', 'a string is JSON too', true],
    ['image', 'not-a-uuid', false],
    ['gallery', 'x', false],
    ['gallery', ['nope'], false],
    ['author', 12, false],
    ['related', [1], false],
  ];

  it.each(cases)('field %s = %j → valid: %s', async (field, value, valid, stored) => {
    const data: Record<string, unknown> = { [field]: value };
    const res = await create(data);
    if (valid) {
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(JSON.parse(res.body.data.data)[field]).toEqual(stored ?? value);
    } else {
      const body = expectError(res, 400, 'VALIDATION_FAILED');
      expect(body.errors.length).toBeGreaterThan(0);
      for (const e of body.errors) expect(e.path.startsWith(`body.data.${field}`)).toBe(true);
    }
  });

  it('treats null as no value and refuses unknown keys and non-object data', async () => {
    const res = await create({ title: null, notes: 'ok' });
    expect(res.status).toBe(201);
    expect(JSON.parse(res.body.data.data)).toEqual({ notes: 'ok' });
    const unknown = expectError(await create({ colour: 'red', title: 'Fine' }), 400, 'VALIDATION_FAILED');
    expect(unknown.errors).toEqual([{ path: 'body.data.colour', message: 'is not a field of this content type' }]);
    for (const bad of [[1, 2], 'not json', '[1]', 5]) {
      const b = expectError(await create(bad), 400, 'VALIDATION_FAILED');
      expect(b.errors[0].path).toBe('body.data');
    }
    const missing = expectError(await call(env.app, 'POST', `${M}/content-types/everything/entries`, { key, body: {} }), 400, 'VALIDATION_FAILED');
    expect(missing.errors).toEqual([{ path: 'body.data', message: 'is required' }]);
    const many = expectError(await create({ title: 1, price: 'x', mail: 'y' }), 400, 'VALIDATION_FAILED');
    expect(many.errors.map((e: { path: string }) => e.path)).toEqual(['body.data.title', 'body.data.price', 'body.data.mail']);
  });

  it('checks relations: existing entries of this workspace, of an allowed type', async () => {
    const ok = await create({ author: people[0], related: [otherEntry, people[1]] });
    expect(ok.status).toBe(201);
    expect(JSON.parse(ok.body.data.data)).toMatchObject({ author: people[0], related: [otherEntry, people[1]] });
    const upper = await create({ author: people[1].toUpperCase() });
    expect(JSON.parse(upper.body.data.data).author).toBe(people[1]);
    const wrongType = expectError(await create({ author: otherEntry }), 400, 'VALIDATION_FAILED');
    expect(wrongType.errors).toEqual([{ path: 'body.data.author', message: expect.stringContaining("content type 'place'; this field accepts person") }]);
    const missing = expectError(await create({ author: newId() }), 400, 'VALIDATION_FAILED');
    expect(missing.errors[0].message).toContain('does not exist');
    const foreign = expectError(await create({ related: [people[0], foreignEntry] }), 400, 'VALIDATION_FAILED');
    expect(foreign.errors).toEqual([{ path: 'body.data.related.1', message: expect.stringContaining('does not exist in this workspace') }]);
  });

  it('checks media: existing, not deleted, of this workspace', async () => {
    expect((await create({ image: media.live, gallery: [media.live] })).status).toBe(201);
    const deleted = expectError(await create({ image: media.deleted }), 400, 'VALIDATION_FAILED');
    expect(deleted.errors[0]).toMatchObject({ path: 'body.data.image', message: expect.stringContaining('does not exist') });
    const foreign = expectError(await create({ gallery: [media.live, media.foreign] }), 400, 'VALIDATION_FAILED');
    expect(foreign.errors[0].path).toBe('body.data.gallery.1');
    const tooMany = expectError(await create({ gallery: [media.live, media.live, media.live] }), 400, 'VALIDATION_FAILED');
    expect(tooMany.errors[0].message).toContain('at most 2');
  });

  it('checks all references with one query per kind', async () => {
    const counter = new QueryCounter();
    const db = { ...env.ctx.db, kysely: env.ctx.db.kysely.withPlugin(counter) };
    const refs: DataReference[] = [];
    for (let i = 0; i < 30; i++) refs.push({ path: `r.${i}`, kind: 'relation', id: i % 2 ? people[0] : newId(), allowedTypes: [] });
    for (let i = 0; i < 30; i++) refs.push({ path: `m.${i}`, kind: 'media', id: i % 2 ? media.live : newId(), allowedTypes: [] });
    const errors = await checkReferences(db, wsId, refs);
    expect(counter.count).toBe(2);
    expect(errors).toHaveLength(30);
    counter.count = 0;
    expect(await checkReferences(db, wsId, [])).toEqual([]);
    expect(counter.count).toBe(0);
  });

  it('limits rich-text nesting instead of overflowing the stack', () => {
    let node: Record<string, unknown> = text('deep');
    for (let i = 0; i < 200; i++) node = { nodeType: 'blockquote', data: {}, content: [node] };
    const res = checkRichText(doc(node), 'body.data.body');
    expect(res.errors[0].message).toContain('nested deeper');
  });

  it('reads only own values: fields named like Object.prototype members behave like any other', async () => {
    const ct = await call(env.app, 'POST', `${M}/content-types`, {
      key,
      body: {
        name: 'Proto',
        display_field: 'constructor',
        fields: [
          { name: 'constructor', field_type: 'text', required: true },
          { name: 'toString', field_type: 'text', is_unique: true },
        ],
      },
    });
    expect(ct.status).toBe(201);
    const draft = await call(env.app, 'POST', `${M}/content-types/proto/entries`, { key, body: { data: {} } });
    expect(draft.status).toBe(201);
    expect(draft.body.data.slug).toBe(draft.body.data.id);
    const res = expectError(
      await call(env.app, 'PATCH', `${M}/content-types/proto/entries/${draft.body.data.slug}/publish`, { key }),
      400,
      'VALIDATION_FAILED',
    );
    expect(res.errors).toEqual([{ path: 'data.constructor', message: 'is required' }]);
    expect((await call(env.app, 'POST', `${M}/content-types/proto/entries`, { key, body: { data: { toString: 'a' } } })).status).toBe(201);
    expectError(await call(env.app, 'POST', `${M}/content-types/proto/entries`, { key, body: { data: { toString: 'a' } } }), 409, 'UNIQUE_VIOLATION');
  });

  it('requires required fields on publish but not on draft writes', async () => {
    const draft = await create({ notes: 'tiny' });
    expect(draft.status).toBe(201);
    const slug = draft.body.data.slug;
    const res = expectError(await call(env.app, 'PATCH', `${M}/content-types/everything/entries/${slug}/publish`, { key }), 400, 'VALIDATION_FAILED');
    expect(res.errors).toEqual([{ path: 'data.title', message: 'is required' }]);
    expect((await call(env.app, 'GET', `${M}/content-types/everything/entries/${slug}`, { key })).body.data.status).toBe('draft');
    const sched = expectError(
      await call(env.app, 'PATCH', `${M}/content-types/everything/entries/${slug}/schedule`, { key, body: { publish_at: '2999-01-01T00:00:00Z' } }),
      400,
      'VALIDATION_FAILED',
    );
    expect(sched.errors[0].path).toBe('data.title');
    await call(env.app, 'PUT', `${M}/content-types/everything/entries/${slug}`, { key, body: { data: { title: 'Done' } } });
    expect((await call(env.app, 'PATCH', `${M}/content-types/everything/entries/${slug}/publish`, { key })).status).toBe(200);
  });
});
