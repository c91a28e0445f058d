/**
 * The delivery response cache and the key cache stay exact: database triggers bump a workspace's
 * production revision on every write that production readers can see and its draft revision on
 * every write (migration 005), a cached response is only served under the revision its key reads
 * (preview keys: draft), and it expires on its own at the next scheduled publication (D21). A
 * working-copy save keeps production answers cached; a publish refreshes them (D70).
 *
 * Its memory stays within DELIVERY_CACHE_BYTES, counting what each response really keeps alive.
 */
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { ENTRY_OVERHEAD_BYTES, ResponseCache } from '../src/http/delivery-cache.js';
import { bodyHash } from '../src/http/http-cache.js';
import { REVISION_TABLES, WORKING_COPY_TABLES } from '../src/db/migrations/005-versions.js';
import { withTransaction } from '../src/db/transaction.js';
import { newId } from '../src/lib/ids.js';
import { revokeApiKey, setMemberRole } from '../src/modules/auth/operations.js';
import { readWorkspaceRevision } from '../src/modules/workspaces/repository.js';
import { createWorld, M, P, type DeliveryWorld } from './delivery-fixtures.js';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from './helpers.js';

const T0 = Date.parse('2026-11-21T10:00:00.000Z');

describe.each(dialects())('delivery cache on %s', (dialect) => {
  let env: TestEnv;
  let world: DeliveryWorld;
  let now = T0;
  beforeAll(async () => {
    env = await createTestEnv(dialect, { clock: () => new Date(now) });
    world = await createWorld(env.ctx, env.app, [
      { name: 'Post', slug: 'post', display_field: 'title', fields: [{ name: 'title', field_type: 'text', localizable: true }] },
    ]);
  });
  afterAll(async () => env?.close());

  const list = (key = world.keys.delivery) => call(env.app, 'GET', `${P}/entries?type=post&locale=de`, { key });
  const titles = (res: { body: { data: { data: string }[] } }) => res.body.data.map((e) => JSON.parse(e.data).title);

  const publish = (slug: string, app = env.app) => call(app, 'PATCH', `${M}/content-types/post/entries/${slug}/publish`, { key: world.keys.management });

  it('serves a repeated read from memory; a working-copy save keeps it, a publish makes the next read fresh', async () => {
    const mk = await call(env.app, 'POST', `${M}/content-types/post/entries`, { key: world.keys.management, body: { slug: 'one', data: { title: 'One' } } });
    expect(mk.status).toBe(201);
    expect((await publish('one')).status).toBe(200);
    const first = await list();
    expect(first.headers['x-cache']).toBe('MISS');
    expect(titles(first)).toEqual(['One']);
    const second = await list();
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.body).toEqual(first.body);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    const preview = () => list(world.keys.preview);
    expect(titles(await preview())).toEqual(['One']);
    expect((await preview()).headers['x-cache']).toBe('HIT');

    await call(env.app, 'PUT', `${M}/content-types/post/entries/one`, {
      key: world.keys.management,
      body: { data: { title: 'Uno' }, translations: { de: { data: { title: 'Eins' } } } },
    });
    const third = await list();
    expect(third.headers['x-cache']).toBe('HIT');
    expect(titles(third)).toEqual(['One']);
    const previewed = await preview();
    expect(previewed.headers['x-cache']).toBe('MISS');
    expect(titles(previewed)).toEqual(['Eins']);

    expect((await publish('one')).status).toBe(200);
    const fourth = await list();
    expect(fourth.headers['x-cache']).toBe('MISS');
    expect(titles(fourth)).toEqual(['Eins']);
  });

  it('is fresh across instances sharing the database', async () => {
    const other = await buildApp(env.ctx, { logger: false });
    try {
      await list();
      expect((await list()).headers['x-cache']).toBe('HIT');
      await call(other, 'PUT', `${M}/content-types/post/entries/one`, {
        key: world.keys.management,
        body: { data: { title: 'Uno' }, translations: { de: { data: { title: 'Zwei' } } } },
      });
      expect((await list()).headers['x-cache']).toBe('HIT');
      expect((await publish('one', other)).status).toBe(200);
      const res = await list();
      expect(res.headers['x-cache']).toBe('MISS');
      expect(titles(res)).toEqual(['Zwei']);
    } finally {
      await other.close();
    }
  });

  it('keeps at most DELIVERY_CACHE_BYTES, least recently used first; 0 keeps nothing', async () => {
    const withBound = async (bytes: number) => {
      const app = await buildApp({ ...env.ctx, config: Object.freeze({ ...env.ctx.config, deliveryCacheBytes: bytes }) }, { logger: false });
      await app.ready();
      return app;
    };
    const urls = Array.from({ length: 24 }, (_, i) => `${P}/entries?type=post&locale=de&fields=title&limit=${i + 1}`);
    // 16 KiB takes bodies up to 1 KiB (a sixteenth), and each answer counts at least
    // ENTRY_OVERHEAD_BYTES: at most 16 of the 24 answers fit.
    const bounded = await withBound(16 * 1024);
    try {
      for (const url of urls) {
        const res = await call(bounded, 'GET', url, { key: world.keys.delivery });
        expect(res.headers['x-cache']).toBe('MISS');
        expect(Buffer.byteLength(JSON.stringify(res.body))).toBeLessThanOrEqual(1024);
      }
      expect((await call(bounded, 'GET', urls.at(-1)!, { key: world.keys.delivery })).headers['x-cache']).toBe('HIT');
      expect((await call(bounded, 'GET', urls[0], { key: world.keys.delivery })).headers['x-cache']).toBe('MISS');
    } finally {
      await bounded.close();
    }
    const off = await withBound(0);
    try {
      for (let i = 0; i < 2; i++) {
        const res = await call(off, 'GET', urls[0], { key: world.keys.delivery });
        expect(res.status).toBe(200);
        expect(res.headers['x-cache']).toBeUndefined();
      }
    } finally {
      await off.close();
    }
  });

  it('shows a scheduled entry at its publish_at without any write', async () => {
    await call(env.app, 'POST', `${M}/content-types/post/entries`, { key: world.keys.management, body: { slug: 'later', data: { title: 'Later' } } });
    const at = new Date(now + 60_000).toISOString();
    const sched = await call(env.app, 'PATCH', `${M}/content-types/post/entries/later/schedule`, { key: world.keys.management, body: { publish_at: at } });
    expect(sched.status).toBe(200);
    expect(titles(await list())).toEqual(['Zwei']);
    expect((await list()).headers['x-cache']).toBe('HIT');
    now += 60_000;
    const due = await list();
    expect(due.headers['x-cache']).toBe('MISS');
    expect(titles(due).sort()).toEqual(['Later', 'Zwei']);
  });

  it('orders production lists by what production shows: a working-copy save moves neither updated_at nor the order (D70)', async () => {
    const slugsOf = (res: { body: { data: { slug: string }[] } }) => res.body.data.map((e) => e.slug);
    const byUpdated = (key = world.keys.delivery) => call(env.app, 'GET', `${P}/entries?type=post&sort=updated_at:desc&limit=100`, { key });
    const save = (slug: string, title: string) =>
      call(env.app, 'PUT', `${M}/content-types/post/entries/${slug}`, { key: world.keys.management, body: { data: { title } } });
    const before = await byUpdated();
    expect(before.status).toBe(200);
    const oldest = slugsOf(before).at(-1)!;
    const shown = before.body.data.map((e: { slug: string; updated_at: string }) => [e.slug, e.updated_at]);
    now += 60_000;
    expect((await save(oldest, 'Saved, not published')).status).toBe(200);
    const after = await byUpdated();
    expect(after.headers['x-cache']).toBe('HIT');
    expect(after.body.data.map((e: { slug: string; updated_at: string }) => [e.slug, e.updated_at])).toEqual(shown);
    // The same query, uncached (another key of the same environment), agrees with the cached one.
    const fresh = await byUpdated(await world.deliveryKey({}));
    expect(fresh.headers['x-cache']).toBe('MISS');
    expect(fresh.body.data.map((e: { slug: string; updated_at: string }) => [e.slug, e.updated_at])).toEqual(shown);
    // Preview keys read working copies: the saved entry is now the most recently updated.
    expect(slugsOf(await byUpdated(world.keys.preview))[0]).toBe(oldest);
    // Publishing the change makes it the newest for production too.
    expect((await publish(oldest)).status).toBe(200);
    expect(slugsOf(await byUpdated())[0]).toBe(oldest);
  });

  it('refuses a revoked key and a removed creator at once, even with cached answers', async () => {
    const key = await world.deliveryKey({});
    expect((await list(key)).status).toBe(200);
    expect((await list(key)).headers['x-cache']).toBe('HIT');
    const row = await env.ctx.db.kysely
      .selectFrom('api_keys')
      .select('id')
      .where('workspace_id', '=', world.workspaceId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    await revokeApiKey(env.ctx, row.id);
    expectError(await list(key), 401, 'UNAUTHORIZED');

    // Management keys follow their creator's role per request (D12), through the key cache too.
    const types = () => call(env.app, 'POST', `${M}/content-types`, { key: world.keys.management, body: { name: `T${newId().slice(-6)}` } });
    expect((await types()).status).toBe(201);
    const ws = await env.ctx.db.kysely.selectFrom('workspaces').select('slug').where('id', '=', world.workspaceId).executeTakeFirstOrThrow();
    const owner = await env.ctx.db.kysely.selectFrom('users').select('email').where('id', '=', world.userId).executeTakeFirstOrThrow();
    await setMemberRole(env.ctx, ws.slug, owner.email, 'editor');
    expectError(await types(), 403, 'FORBIDDEN');
    await setMemberRole(env.ctx, ws.slug, owner.email, 'owner');
    expect((await types()).status).toBe(201);
  });

  it('bumps the workspace revision on a write to every table that feeds what it serves', async () => {
    const db = env.ctx.db.kysely;
    const ws = world.workspaceId;
    const ts = new Date(now).toISOString();
    const entryId = newId();
    const pageId = newId();
    const blockId = newId();
    const ctId = world.types.post;
    const bystander = (await seedWorkspace(env.ctx)).workspace.id;
    const bystanderBefore = await readWorkspaceRevision(env.ctx.db, bystander, env.ctx.caches.queries);
    const writes: Record<string, () => Promise<unknown>> = {
      entries: () =>
        db
          .insertInto('entries')
          .values({
            id: entryId,
            workspace_id: ws,
            content_type_id: ctId,
            slug: `rev-${entryId.slice(-6)}`,
            status: 'draft',
            data: '{}',
            position: 0,
            version: 1,
            created_at: ts,
            updated_at: ts,
            created_by: null,
            updated_by: null,
            publish_at: null,
            published_at: null,
          })
          .execute(),
      entry_translations: () =>
        db.insertInto('entry_translations').values({ entry_id: entryId, locale: 'de', data: '{}', created_at: ts, updated_at: ts }).execute(),
      content_types: () => db.updateTable('content_types').set({ icon: 'x' }).where('id', '=', ctId).execute(),
      fields: () => db.updateTable('fields').set({ label: 'Titel' }).where('content_type_id', '=', ctId).execute(),
      pages: () =>
        db
          .insertInto('pages')
          .values({
            id: pageId,
            workspace_id: ws,
            slug: `rev-${pageId.slice(-6)}`,
            status: 'draft',
            position: 0,
            seo: '{}',
            version: 1,
            created_at: ts,
            updated_at: ts,
            created_by: null,
            updated_by: null,
            publish_at: null,
            published_at: null,
          })
          .execute(),
      page_seo_translations: () =>
        db.insertInto('page_seo_translations').values({ page_id: pageId, locale: 'de', seo: '{}', created_at: ts, updated_at: ts }).execute(),
      blocks: () =>
        db
          .insertInto('blocks')
          .values({ id: blockId, page_id: pageId, block_type_id: ctId, parent_id: null, position: 0, data: '{}', created_at: ts, updated_at: ts })
          .execute(),
      block_translations: () =>
        db.insertInto('block_translations').values({ page_id: pageId, block_id: blockId, locale: 'de', data: '{}', created_at: ts, updated_at: ts }).execute(),
      media: () =>
        db
          .insertInto('media')
          .values({
            id: newId(),
            workspace_id: ws,
            storage_key: null,
            remote_url: 'https://example.com/a.png',
            mime_type: 'image/png',
            width: 1,
            height: 1,
            alt_text: null,
            focal_x: null,
            focal_y: null,
            filename: 'a.png',
            original_name: 'a.png',
            folder: null,
            size: 1,
            uploaded_by: null,
            created_at: ts,
            updated_at: ts,
            deleted_at: null,
          })
          .execute(),
      api_keys: () => db.updateTable('api_keys').set({ name: 'renamed' }).where('workspace_id', '=', ws).execute(),
      memberships: () => db.updateTable('memberships').set({ updated_at: ts }).where('workspace_id', '=', ws).execute(),
    };
    const publishedEntryId = newId();
    const publishedBlockId = newId();
    Object.assign(writes, {
      published_entry_translations: async () => {
        await db
          .insertInto('entries')
          .values({
            id: publishedEntryId,
            workspace_id: ws,
            content_type_id: ctId,
            slug: `pub-${publishedEntryId.slice(-6)}`,
            status: 'draft',
            data: '{}',
            position: 0,
            version: 1,
            created_at: ts,
            updated_at: ts,
            created_by: null,
            updated_by: null,
            publish_at: null,
            published_at: null,
          })
          .execute();
        return db.insertInto('published_entry_translations').values({ entry_id: publishedEntryId, locale: 'de', id: 1, data: '{}' }).execute();
      },
      published_page_seo_translations: () =>
        db.insertInto('published_page_seo_translations').values({ page_id: pageId, locale: 'de', id: 1, seo: '{}' }).execute(),
      published_blocks: () =>
        db
          .insertInto('published_blocks')
          .values({ id: publishedBlockId, page_id: pageId, block_type_id: ctId, parent_id: null, position: 0, data: '{}' })
          .execute(),
      published_block_translations: () =>
        db.insertInto('published_block_translations').values({ block_id: publishedBlockId, page_id: pageId, locale: 'de', id: 1, data: '{}' }).execute(),
    });
    expect(Object.keys(writes).sort()).toEqual([...REVISION_TABLES].sort());
    // Every write bumps the draft revision (preview readers); only what production readers can
    // see bumps the production one: working-copy tables never, draft items' rows never (D70).
    const workingOnly = new Set([...WORKING_COPY_TABLES, 'entries', 'pages']);
    for (const [table, write] of Object.entries(writes)) {
      const before = (await readWorkspaceRevision(env.ctx.db, ws, env.ctx.caches.queries))!;
      await write();
      const after = (await readWorkspaceRevision(env.ctx.db, ws, env.ctx.caches.queries))!;
      expect({ table, draft: after.draft > before.draft, production: after.revision > before.revision }).toEqual({
        table,
        draft: true,
        production: !workingOnly.has(table),
      });
    }
    // A draft item going live, or a live one changing a visible column, bumps production too.
    for (const change of [
      () => db.updateTable('entries').set({ status: 'published', published_data: '{}', published_at: ts }).where('id', '=', entryId).execute(),
      () =>
        db
          .updateTable('entries')
          .set({ slug: `moved-${entryId.slice(-6)}` })
          .where('id', '=', entryId)
          .execute(),
      () => db.updateTable('pages').set({ status: 'published', published_seo: '{}', published_at: ts }).where('id', '=', pageId).execute(),
    ]) {
      const before = (await readWorkspaceRevision(env.ctx.db, ws, env.ctx.caches.queries))!;
      await change();
      expect((await readWorkspaceRevision(env.ctx.db, ws, env.ctx.caches.queries))!.revision).toBeGreaterThan(before.revision);
    }
    // The working copy of a published entry is not what production reads.
    const beforeData = (await readWorkspaceRevision(env.ctx.db, ws, env.ctx.caches.queries))!;
    await db.updateTable('entries').set({ data: '{"title":"draft"}' }).where('id', '=', entryId).execute();
    const afterData = (await readWorkspaceRevision(env.ctx.db, ws, env.ctx.caches.queries))!;
    expect({ draft: afterData.draft > beforeData.draft, production: afterData.revision > beforeData.revision }).toEqual({ draft: true, production: false });
    // Deletes count too (cascades included).
    const before = (await readWorkspaceRevision(env.ctx.db, ws, env.ctx.caches.queries))!;
    await db.deleteFrom('pages').where('id', '=', pageId).execute();
    expect((await readWorkspaceRevision(env.ctx.db, ws, env.ctx.caches.queries))!.revision).toBeGreaterThan(before.revision);
    // Another workspace's revision is not touched, so its caches stay warm.
    expect(await readWorkspaceRevision(env.ctx.db, bystander, env.ctx.caches.queries)).toEqual(bystanderBefore);
  });
  it('never reads a revision bumped by a transaction that has not committed', async () => {
    const ws = world.workspaceId;
    const committed = await readWorkspaceRevision(env.ctx.db, ws, env.ctx.caches.queries);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let bumped = false;
    const tx = withTransaction(env.ctx.db, async (db) => {
      await db.kysely.updateTable('content_types').set({ icon: 'tx' }).where('workspace_id', '=', ws).execute();
      bumped = true;
      await gate;
      throw new Error('roll back');
    }).catch(() => 'rolled back');
    while (!bumped) await new Promise((r) => setTimeout(r, 5));
    // Read while the transaction is open: it must not see the uncommitted bump.
    const during = readWorkspaceRevision(env.ctx.db, ws, env.ctx.caches.queries);
    const early = await Promise.race([during, new Promise((r) => setTimeout(() => r('waiting'), 50))]);
    expect(early === 'waiting' || JSON.stringify(early) === JSON.stringify(committed)).toBe(true);
    release();
    expect(await tx).toBe('rolled back');
    expect(await during).toEqual(committed);
    expect(await readWorkspaceRevision(env.ctx.db, ws, env.ctx.caches.queries)).toEqual(committed);
  });
});

describe('ResponseCache', () => {
  const body = (i: number) => Buffer.from(JSON.stringify({ data: Array.from({ length: 20 }, (_, k) => ({ id: `${i}-${k}`, title: `Post ${k}` })) }));
  const keep = (identity: Buffer) => ({
    length: identity.length,
    identity,
    hash: bodyHash(identity),
    revision: 1,
    validUntil: Infinity,
    contentType: 'application/json',
  });

  it('holds what it counts, within its bound: bodies from the Buffer pool and zlib are kept in memory of their own', () => {
    const bound = 64 * 1024;
    const cache = new ResponseCache(bound);
    for (let i = 0; i < 200; i++) {
      // Short bodies are views into Buffer's shared 8 KiB pool, zlib's output a view into a 16 KiB chunk.
      const identity = body(i);
      expect(identity.buffer.byteLength).toBeGreaterThan(identity.length);
      const entry = cache.set(`key-${i}`, { ...keep(identity), br: zlib.brotliCompressSync(identity) });
      expect(entry).not.toBeNull();
      cache.remember(`key-${i}`, entry!, 'gzip', zlib.gzipSync(identity));
    }
    expect(cache.size).toBeGreaterThan(10);
    expect(cache.size).toBeLessThan(200);
    expect(cache.bytes).toBeLessThanOrEqual(bound);
    expect(cache.heldBytes()).toBe(cache.bytes);
    // The least recently used went first: the first key is gone, a key read again stays.
    expect(cache.get('key-0')).toBeUndefined();
    const last = cache.size;
    expect(cache.get('key-199')).toBeDefined();
    expect(cache.size).toBe(last);
  });

  it('keeps an answer read again while newer ones come and go, without moving it on every hit', () => {
    const identity = body(1);
    const entryBytes = identity.length + 'key-00'.length + ENTRY_OVERHEAD_BYTES;
    const cache = new ResponseCache(10 * entryBytes);
    for (let i = 0; i < 10; i++) cache.set(`key-0${i}`, keep(identity));
    // key-00 is the oldest; read between each new answer, it is never the one evicted.
    for (let i = 10; i < 40; i++) {
      expect(cache.get('key-00'), `after ${i - 10} newer answers`).toBeDefined();
      cache.set(`key-${i}`, keep(identity));
      expect(cache.size).toBe(10);
    }
    // One never read again goes after as many newer answers as the cache holds.
    expect(cache.get('key-01')).toBeUndefined();
    expect(cache.get('key-39')).toBeDefined();
  });

  it('counts each response with its key and ENTRY_OVERHEAD_BYTES, and refuses one over a sixteenth of its bound', () => {
    const identity = body(1);
    const cache = new ResponseCache(16 * (identity.length + 1));
    expect(cache.set('k', keep(identity))!.size).toBe(identity.length + 'k'.length + ENTRY_OVERHEAD_BYTES);
    expect(cache.bytes).toBe(identity.length + 1 + ENTRY_OVERHEAD_BYTES);
    expect(cache.set('big', keep(Buffer.alloc(identity.length + 2)))).toBeNull();
    expect(new ResponseCache(0).set('k', keep(identity))).toBeNull();
  });
});
