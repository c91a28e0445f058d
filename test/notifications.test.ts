/**
 * The notifications API (docs/workflow.md "Notifications"; src/modules/notifications/), on every
 * dialect: GET /notifications lists the caller's own, newest first, with `unread=true`, signed
 * cursors bound to the person and filter, and `meta.unread`; POST /notifications/read marks
 * `{ids}` or `{all: true}` of the caller's own only; a management key reads its creator's; a
 * scheduled release that fails tells its creator (release_failed), and no one else.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../src/db/transaction.js';
import { createApiKey } from '../src/modules/auth/operations.js';
import { notify } from '../src/modules/notifications/record.js';
import { publishDueReleases } from '../src/modules/releases/publication.js';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from './helpers.js';
import { memberWithPassword, signedIn, type Browser } from './studio-helpers.js';

const M = '/api/v1/manage';
const T0 = Date.parse('2026-11-29T09:00:00.000Z');

describe.each(dialects())('notifications (%s)', (dialect) => {
  let env: TestEnv;
  let now = T0;
  let wsId: string;
  let ownerKey: string;
  let ownerId: number;
  let alice: { id: number; email: string; browser: Browser; key: string };
  let bob: { id: number; email: string; browser: Browser };
  const aliceIds: string[] = [];

  const tell = async (userId: number, message: string, actor: number | null) => {
    const [id] = await withTransaction(env.ctx.db, (trx) =>
      notify(trx, env.ctx, new Date(now), {
        workspaceId: wsId,
        kind: 'assigned',
        recipients: [userId],
        actorUserId: actor,
        item: { kind: 'entry', id: '00000000-0000-4000-8000-000000000001', contentType: 'post', slug: 'hello', title: 'Hello' },
        message,
      }),
    );
    return id;
  };
  const list = (who: Browser, query = '') => who.call('GET', `${M}/notifications${query}`);

  beforeAll(async () => {
    env = await createTestEnv(dialect, { clock: () => new Date(now) });
    const s = await seedWorkspace(env.ctx);
    wsId = s.workspace.id;
    ownerKey = s.keys.management;
    ownerId = s.user.id;
    const a = await memberWithPassword(env.ctx, s.workspace.slug, 'editor');
    const b = await memberWithPassword(env.ctx, s.workspace.slug, 'editor');
    alice = {
      ...a,
      browser: await signedIn(env.app, a.email, wsId),
      key: (await createApiKey(env.ctx, wsId, a.id, { keyClass: 'management', name: 'alice' })).key,
    };
    bob = { ...b, browser: await signedIn(env.app, b.email, wsId) };
    // Five for alice a minute apart (two created at the same instant: the id breaks the tie), one for bob.
    for (let i = 1; i <= 5; i++) {
      if (i !== 3) now += 60_000;
      aliceIds.push(await tell(alice.id, `assigned you #${i}`, bob.id));
    }
    await tell(bob.id, 'assigned you too', alice.id);
  });
  afterAll(async () => env?.close());

  it("lists the caller's own notifications newest first, with the actor and meta.unread", async () => {
    const res = await list(alice.browser);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.map((n: { message: string }) => n.message)).toEqual([5, 4, 3, 2, 1].map((i) => `assigned you #${i}`));
    expect(res.body.data[0]).toMatchObject({
      kind: 'assigned',
      read: false,
      actor: { id: bob.id, email: bob.email, name: null },
      item: { kind: 'entry', content_type: 'post', slug: 'hello', title: 'Hello' },
      release: null,
      comment_id: null,
      stage: null,
    });
    expect(res.body.meta).toEqual({ page_size: 5, next_cursor: null, unread: 5 });
    const theirs = await list(bob.browser);
    expect(theirs.body.data.map((n: { message: string }) => n.message)).toEqual(['assigned you too']);
    expect(theirs.body.meta.unread).toBe(1);
  });

  it('pages by signed cursor bound to the person and the filter', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await list(alice.browser, `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      seen.push(...res.body.data.map((n: { id: string }) => n.id));
      cursor = res.body.meta.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...aliceIds].reverse());

    const first = (await list(alice.browser, '?limit=2')).body.meta.next_cursor as string;
    expect(expectError(await list(bob.browser, `?limit=2&cursor=${encodeURIComponent(first)}`), 400, 'VALIDATION_FAILED').errors[0].path).toBe('query.cursor');
    expectError(await list(alice.browser, `?limit=2&unread=true&cursor=${encodeURIComponent(first)}`), 400, 'VALIDATION_FAILED');
  });

  it('marks read only the caller’s own, by ids or all, and filters unread', async () => {
    const bobsId = (await list(bob.browser)).body.data[0].id;
    const res = await alice.browser.call('POST', `${M}/notifications/read`, { body: { ids: [aliceIds[0], aliceIds[1], bobsId] } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ read: 2 });
    expect((await list(bob.browser)).body.data[0].read).toBe(false);
    const unread = await list(alice.browser, '?unread=true');
    expect(unread.body.data.map((n: { id: string }) => n.id)).toEqual([aliceIds[4], aliceIds[3], aliceIds[2]]);
    expect(unread.body.meta.unread).toBe(3);
    expect((await list(alice.browser)).body.data.find((n: { id: string }) => n.id === aliceIds[0]).read).toBe(true);
    // Marking again changes nothing.
    expect((await alice.browser.call('POST', `${M}/notifications/read`, { body: { ids: [aliceIds[0]] } })).body.data).toEqual({ read: 0 });
    expectError(await alice.browser.call('POST', `${M}/notifications/read`, { body: { ids: ['nope'] } }), 400, 'VALIDATION_FAILED');
    expectError(await alice.browser.call('POST', `${M}/notifications/read`, { body: {} }), 400, 'VALIDATION_FAILED');

    expect((await alice.browser.call('POST', `${M}/notifications/read`, { body: { all: true } })).body.data).toEqual({ read: 3 });
    expect((await list(alice.browser, '?unread=true')).body).toMatchObject({ data: [], meta: { unread: 0 } });
    expect((await list(bob.browser)).body.meta.unread).toBe(1);
  });

  it("gives a management key its creator's notifications", async () => {
    const res = await call(env.app, 'GET', `${M}/notifications?limit=1`, { key: alice.key });
    expect(res.status).toBe(200);
    expect(res.body.data[0].id).toBe(aliceIds[4]);
    const fresh = await tell(alice.id, 'assigned you by key', bob.id);
    expect((await call(env.app, 'POST', `${M}/notifications/read`, { key: alice.key, body: { ids: [fresh] } })).body.data).toEqual({ read: 1 });
  });

  it("tells a failed scheduled release's creator (release_failed), and no one else", async () => {
    const owner = (method: 'POST' | 'PUT', url: string, body: unknown) => call(env.app, method, `${M}${url}`, { key: ownerKey, body });
    expect(
      (await owner('POST', '/content-types', { name: 'Post', slug: 'post', fields: [{ name: 'title', field_type: 'text', required: true }] })).status,
    ).toBe(201);
    const entry = (await owner('POST', '/content-types/post/entries', { slug: 'p1', data: { title: 'One' } })).body.data;
    const asAlice = (method: 'POST' | 'PUT', url: string, body: unknown) => call(env.app, method, `${M}${url}`, { key: alice.key, body });
    const rel = (await asAlice('POST', '/releases', { title: 'Friday launch' })).body.data.id;
    expect((await asAlice('POST', `/releases/${rel}/items`, { kind: 'entry', id: entry.id, action: 'publish' })).status).toBe(200);
    expect((await asAlice('PUT', `/content-types/post/entries/p1?release=${rel}`, { data: {} })).status).toBe(200);
    expect((await asAlice('POST', `/releases/${rel}/schedule`, { publish_at: new Date(now + 60_000).toISOString() })).status).toBe(200);
    now += 120_000;
    expect(await publishDueReleases(env.ctx)).toEqual({ published: 0, failed: 1 });

    const [n] = (await list(alice.browser, '?limit=1')).body.data;
    expect(n).toMatchObject({ kind: 'release_failed', read: false, actor: null, item: null, release: { id: rel, name: 'Friday launch' } });
    expect(n.message).toMatch(/^could not publish release "Friday launch" at its scheduled time: .*is required/);
    const others = await env.ctx.db.kysely.selectFrom('notifications').select('user_id').where('kind', '=', 'release_failed').execute();
    expect(others.map((o) => Number(o.user_id))).toEqual([alice.id]);
    expect(others.map((o) => Number(o.user_id))).not.toContain(ownerId);
  });
});
