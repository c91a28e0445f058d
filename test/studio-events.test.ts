/**
 * The Studio's event stream and presence (docs/workflow.md "Who else is here", D133) over real
 * sockets: `hello` first; `item` frames after writes, filtered by the person's read permission
 * (a custom role limited to one type hears nothing of the others); `comment` frames; a
 * notification only on its recipient's streams; presence joins and leaves between two people,
 * expiry of a row whose instance stopped; keys refused (403); the per-person cap (429); streams
 * ended and presence rows removed when the app closes; and on PostgreSQL presence and item frames
 * across two instances through LISTEN/NOTIFY and through Redis.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import type { Config } from '../src/config.js';
import { createContext } from '../src/context.js';
import { createDb } from '../src/db/create-db.js';
import { withTransaction } from '../src/db/transaction.js';
import { iso } from '../src/lib/time.js';
import { recordActivity } from '../src/modules/activity/record.js';
import { pruneActivity } from '../src/modules/activity/pruner.js';
import { authenticate } from '../src/modules/auth/operations.js';
import { setPasswordForUser } from '../src/modules/auth/sessions.js';
import { MAX_BACKLOG_BYTES } from '../src/modules/live/hub.js';
import { notify } from '../src/modules/notifications/record.js';
import { createTestEnv, dialects, expectError, type TestEnv } from './helpers.js';
import { openStream, until, type LiveStream } from './live-client.js';
import { createPageWorld, M, type PageWorld } from './pages-fixtures.js';
import { memberWithPassword, PASSWORD, signedIn, type Browser } from './studio-helpers.js';

/** Readers read only when woken: a lost wake-up fails the test instead of being covered by the safety read. */
const QUIET: Partial<Config> = { livePollMs: 600_000 };
const NOTE_TYPE = { name: 'Note', slug: 'note', fields: [{ name: 'title', field_type: 'text' }] };
/** A custom role reading notes and pages only. */
const NOTES_ONLY = {
  name: 'Notes reader',
  permissions: [
    { resource: 'entries', actions: ['read'], content_types: ['note'] },
    { resource: 'pages', actions: ['read'] },
  ],
};

async function listen(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

/** Opens the Studio event stream of `b` on `port` as the Studio does (cookie and X-Workspace-ID). */
function openStudio(port: number, b: Browser): Promise<LiveStream> {
  return openStream(port, `${M}/events`, { cookie: `quire_session=${b.cookie}`, 'x-workspace-id': b.workspaceId! });
}

/** The stream id of `s`'s hello frame, once it came. */
async function helloOf(s: LiveStream): Promise<string> {
  const hello = await s.waitFor('hello', () => s.frames[0]);
  expect(hello.event).toBe('hello');
  return hello.data.stream as string;
}

const itemFrames = (s: LiveStream, id: string) => s.frames.filter((f) => f.event === 'item' && f.data.item.id === id);
const presenceFrames = (s: LiveStream) => s.frames.filter((f) => f.event === 'presence');
const emails = (people: { email: string }[]) => people.map((p) => p.email);

describe.each(dialects())('Studio event stream on %s', (dialect) => {
  let env: TestEnv;
  let w: PageWorld;
  let port: number;
  let owner: Browser;
  const people: Record<'ann' | 'bob' | 'nora', { id: number; email: string; browser: Browser }> = {} as never;
  const streams: LiveStream[] = [];
  const open = async (b: Browser) => {
    const s = await openStudio(port, b);
    streams.push(s);
    return s;
  };

  beforeAll(async () => {
    env = await createTestEnv(dialect, { config: { ...QUIET, liveHeartbeatMs: 150, studioMaxStreamsPerPerson: 3 } });
    w = await createPageWorld(env.ctx, env.app);
    expect((await w.req('POST', '/content-types', NOTE_TYPE)).status).toBe(201);
    const slug = (await env.ctx.db.kysely.selectFrom('workspaces').select('slug').where('id', '=', w.workspaceId).executeTakeFirstOrThrow()).slug;
    const ownerRow = await env.ctx.db.kysely.selectFrom('users').select('email').where('id', '=', w.userId).executeTakeFirstOrThrow();
    await setPasswordForUser(env.ctx, w.userId, PASSWORD);
    owner = await signedIn(env.app, ownerRow.email, w.workspaceId);
    const role = await owner.call('POST', `${M}/roles`, { body: NOTES_ONLY });
    expect(role.status, JSON.stringify(role.body)).toBe(201);
    for (const [label, r] of [
      ['ann', 'editor'],
      ['bob', 'editor'],
      ['nora', 'viewer'],
    ] as const) {
      const m = await memberWithPassword(env.ctx, slug, r);
      if (label === 'nora') expect((await owner.call('PATCH', `${M}/users/${m.id}`, { body: { role: role.body.data.id } })).status).toBe(200);
      people[label] = { ...m, browser: await signedIn(env.app, m.email, w.workspaceId) };
    }
    port = await listen(env.app);
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await env?.close();
  });

  it('starts with hello {stream, user} and sends item frames for writes of readable items', async () => {
    const s = await open(people.ann.browser);
    expect(s.status).toBe(200);
    expect(s.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(s.headers['cache-control']).toBe('private, no-store');
    const hello = await s.waitFor('hello', () => s.frames[0]);
    expect(hello).toMatchObject({ event: 'hello', data: { user: { id: people.ann.id, email: people.ann.email, name: null } } });
    expect(hello.data.stream).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const created = await w.req('POST', '/content-types/article/entries', { slug: 'first', data: { title: 'First' } });
    const id = created.body.data.id as string;
    const frame = await s.waitFor('item frame', () => itemFrames(s, id)[0]);
    expect(frame.data).toEqual({ item: { kind: 'entry', id, content_type: 'article', slug: 'first' }, type: 'entry.created', by: null, version: 1 });
    // A heartbeat comment keeps it open.
    await s.waitFor('ping', () => s.comments.includes('ping'), 3_000);
    s.close();
  });

  it('a custom role limited to one content type gets no frames of the others', async () => {
    const nora = await open(people.nora.browser);
    const ann = await open(people.ann.browser);
    await helloOf(nora);
    await helloOf(ann);
    const article = (await w.req('POST', '/content-types/article/entries', { slug: 'hidden', data: { title: 'Hidden' } })).body.data.id as string;
    const note = (await w.req('POST', '/content-types/note/entries', { slug: 'seen', data: { title: 'Seen' } })).body.data.id as string;
    await nora.waitFor('the note', () => itemFrames(nora, note).length === 1);
    await ann.waitFor('both on an editor', () => itemFrames(ann, note).length === 1 && itemFrames(ann, article).length === 1);
    // The article came first: had it been visible, it would be there.
    expect(nora.frames.filter((f) => f.event === 'item').map((f) => f.data.item.content_type)).toEqual(['note']);
    // Comments of an unreadable item neither.
    await withTransaction(env.ctx.db, (db) =>
      recordActivity(db, env.ctx.clock(), {
        workspaceId: w.workspaceId,
        type: 'comment',
        item: { kind: 'entry', id: article, contentType: 'article' },
        data: { item: { kind: 'entry', id: article, content_type: 'article', slug: 'hidden' }, comment_id: 'c-1', action: 'created' },
      }),
    );
    await withTransaction(env.ctx.db, (db) =>
      recordActivity(db, env.ctx.clock(), {
        workspaceId: w.workspaceId,
        type: 'comment',
        item: { kind: 'entry', id: note, contentType: 'note' },
        data: { item: { kind: 'entry', id: note, content_type: 'note', slug: 'seen' }, comment_id: 'c-2', action: 'created' },
      }),
    );
    // A workflow change (recorded as the workflows module does) of each.
    for (const [id, type, slug] of [
      [article, 'article', 'hidden'],
      [note, 'note', 'seen'],
    ] as const)
      await withTransaction(env.ctx.db, (db) =>
        recordActivity(db, env.ctx.clock(), {
          workspaceId: w.workspaceId,
          type: 'item',
          item: { kind: 'entry', id, contentType: type },
          data: { item: { kind: 'entry', id, content_type: type, slug }, type: 'entry.workflow_changed', change: 'approved', by: people.ann.id },
        }),
      );
    await nora.waitFor('the note comment', () => nora.frames.some((f) => f.event === 'comment' && f.data.comment_id === 'c-2'));
    await ann.waitFor('both approvals', () => ann.frames.filter((f) => f.event === 'item' && f.data.change === 'approved').length === 2);
    expect(nora.frames.filter((f) => f.event === 'item' && f.data.change === 'approved').map((f) => f.data)).toEqual([
      { item: { kind: 'entry', id: note, content_type: 'note', slug: 'seen' }, type: 'entry.workflow_changed', change: 'approved', by: people.ann.id },
    ]);
    await ann.waitFor('both comments', () => ann.frames.filter((f) => f.event === 'comment').length === 2);
    expect(nora.frames.filter((f) => f.event === 'comment')).toHaveLength(1);
    expect(ann.frames.find((f) => f.event === 'comment')!.data).toEqual({
      item: { kind: 'entry', id: article, content_type: 'article', slug: 'hidden' },
      comment_id: 'c-1',
      action: 'created',
    });
    nora.close();
    ann.close();
  });

  it('a notification reaches its recipient’s streams only', async () => {
    const ann = await open(people.ann.browser);
    const bob = await open(people.bob.browser);
    await helloOf(ann);
    await helloOf(bob);
    const item = (await w.req('POST', '/content-types/article/entries', { slug: 'told', data: { title: 'Told' } })).body.data.id as string;
    await withTransaction(env.ctx.db, (db) =>
      notify(db, env.ctx, env.ctx.clock(), {
        workspaceId: w.workspaceId,
        kind: 'assigned',
        recipients: [people.ann.id],
        actorUserId: w.userId,
        item: { kind: 'entry', id: item, contentType: 'article', slug: 'told', title: 'Told' },
        message: 'assigned you to "Told"',
      }),
    );
    const n = await ann.waitFor('notification', () => ann.frames.find((f) => f.event === 'notification'));
    expect(n.data).toMatchObject({ kind: 'assigned', read: false, item: { kind: 'entry', id: item, slug: 'told' }, message: 'assigned you to "Told"' });
    // A later change reaches Bob: had the notification been his, it would have come before.
    const later = (await w.req('POST', '/content-types/article/entries', { slug: 'later', data: { title: 'Later' } })).body.data.id as string;
    await bob.waitFor('later item', () => itemFrames(bob, later).length === 1);
    expect(bob.frames.filter((f) => f.event === 'notification')).toEqual([]);
    ann.close();
    bob.close();
  });

  it('presence: people join and leave an item; only the stream’s person may set it', async () => {
    const item = (await w.req('POST', '/content-types/article/entries', { slug: 'together', data: { title: 'Together' } })).body.data.id as string;
    const ann = await open(people.ann.browser);
    const bob = await open(people.bob.browser);
    const annStream = await helloOf(ann);
    const bobStream = await helloOf(bob);
    const put = (b: Browser, stream: string, body: unknown) => b.call('PUT', `${M}/events/${stream}/presence`, { body });

    const first = await put(people.ann.browser, annStream, { item: { kind: 'entry', id: item } });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(emails(first.body.data.people)).toEqual([people.ann.email]);
    const second = await put(people.bob.browser, bobStream, { item: { kind: 'entry', id: item } });
    expect(emails(second.body.data.people)).toEqual([people.ann.email, people.bob.email]);
    const joined = await ann.waitFor('bob joined', () => presenceFrames(ann).find((f) => f.data.people.length === 2));
    expect(joined.data.item).toEqual({ kind: 'entry', id: item });
    expect(joined.data.people[1]).toEqual({ id: people.bob.id, email: people.bob.email, name: null });
    expect(joined.data.stream).toBeUndefined();
    // Bob's own stream hears it too (he is on the item).
    await bob.waitFor('bob hears himself join', () => presenceFrames(bob).some((f) => f.data.people.length === 2));
    // Again the same item: no change, no frame.
    expect(emails((await put(people.bob.browser, bobStream, { item: { kind: 'entry', id: item } })).body.data.people)).toHaveLength(2);

    // Someone else's stream, an unknown one, an unknown item: 404; a key: 403; a bad body: 400.
    expectError(await put(people.bob.browser, annStream, { item: null }), 404, 'NOT_FOUND');
    expectError(await put(people.ann.browser, 'no-such-stream', { item: null }), 404, 'NOT_FOUND');
    expectError(await put(people.ann.browser, annStream, { item: { kind: 'entry', id: 'nope' } }), 404, 'NOT_FOUND');
    expectError(await put(people.nora.browser, annStream, { item: null }), 404, 'NOT_FOUND');
    expectError(await w.req('PUT', `/events/${annStream}/presence`, { item: null }), 403, 'FORBIDDEN');
    expectError(await put(people.ann.browser, annStream, { item: { kind: 'media', id: item } }), 400, 'VALIDATION_FAILED');

    // Bob's Studio leaves the item: Ann hears she is alone.
    const count = presenceFrames(ann).length;
    expect((await put(people.bob.browser, bobStream, { item: null })).body.data.people).toEqual([]);
    const alone = await ann.waitFor('bob left', () =>
      presenceFrames(ann)
        .slice(count)
        .find((f) => f.data.people.length === 1),
    );
    expect(emails(alone.data.people)).toEqual([people.ann.email]);
    // Bob comes back, then his stream closes: Ann hears it.
    await put(people.bob.browser, bobStream, { item: { kind: 'entry', id: item } });
    await ann.waitFor('bob back', () => presenceFrames(ann).at(-1)!.data.people.length === 2);
    bob.close();
    await ann.waitFor('bob closed', () => presenceFrames(ann).at(-1)!.data.people.length === 1);
    // His row is gone: his stream id answers 404.
    await until('row deleted', async () => (await put(people.bob.browser, bobStream, { item: null })).status === 404);
    ann.close();
  });

  it('presence of a stream whose instance stopped expires after about three heartbeats', async () => {
    const item = (await w.req('POST', '/content-types/article/entries', { slug: 'expiry', data: { title: 'Expiry' } })).body.data.id as string;
    const ann = await open(people.ann.browser);
    const annStream = await helloOf(ann);
    // Bob on a stopped instance: his row is never refreshed.
    await env.ctx.db.kysely
      .insertInto('presence')
      .values({
        stream_id: 'stopped-instance-stream',
        workspace_id: w.workspaceId,
        user_id: people.bob.id,
        item_kind: 'entry',
        item_id: item,
        since: iso(new Date(Date.now() - 1000)),
        instance: 'stopped',
        expires_at: iso(new Date(Date.now() + 450)),
      })
      .execute();
    const res = await people.ann.browser.call('PUT', `${M}/events/${annStream}/presence`, { body: { item: { kind: 'entry', id: item } } });
    expect(emails(res.body.data.people)).toEqual([people.bob.email, people.ann.email]);
    const swept = await ann.waitFor('bob expired', () => presenceFrames(ann).find((f) => f.data.people.length === 1), 5_000);
    expect(emails(swept.data.people)).toEqual([people.ann.email]);
    const row = await env.ctx.db.kysely.selectFrom('presence').select('stream_id').where('stream_id', '=', 'stopped-instance-stream').executeTakeFirst();
    expect(row).toBeUndefined();
    // Ann's own row is refreshed by her instance: still there after the heartbeats.
    expect((await people.ann.browser.call('PUT', `${M}/events/${annStream}/presence`, { body: { item: null } })).status).toBe(200);
    ann.close();
  });

  it('refuses API keys (403) and caps the streams of one person (429)', async () => {
    const byKey = await openStream(port, `${M}/events`, { 'x-api-key': w.keys.management });
    expect(byKey.status).toBe(403);
    await byKey.waitFor('body', () => byKey.ended);
    expect(JSON.parse(byKey.body).message).toMatch(/needs a Studio session/);
    await until('earlier streams closed', () => env.ctx.studio.size === 0);
    const held = [await open(people.bob.browser), await open(people.bob.browser), await open(people.bob.browser)];
    for (const s of held) expect(s.status).toBe(200);
    const refused = await open(people.bob.browser);
    expect(refused.status).toBe(429);
    await refused.waitFor('body', () => refused.ended);
    expect(JSON.parse(refused.body).code).toBe('RATE_LIMITED');
    // Someone else is not affected.
    const ann = await open(people.ann.browser);
    expect(ann.status).toBe(200);
    for (const s of [...held, ann]) s.close();
    await until('closed', () => env.ctx.studio.size === 0);
  });

  it('ends a stream whose client stops reading once its unsent output passes the bound, and deletes its presence', async () => {
    await until('earlier streams closed', () => env.ctx.studio.size === 0);
    const actor = await authenticate(env.ctx, w.keys.management, 'management');
    let ended = false;
    // A sink whose client reads nothing: its first write (the hello) leaves more than the bound unsent.
    const { streamId } = await env.ctx.studio.start(actor, { write: () => MAX_BACKLOG_BYTES + 1, end: () => (ended = true) });
    expect(ended).toBe(true);
    expect(env.ctx.studio.size).toBe(0);
    await until(
      'row deleted',
      async () => !(await env.ctx.db.kysely.selectFrom('presence').select('stream_id').where('stream_id', '=', streamId).executeTakeFirst()),
    );
  });

  it('ends the stream of a signed-out session at the next heartbeat', async () => {
    const b = await signedIn(env.app, people.ann.email, w.workspaceId);
    const s = await open(b);
    await helloOf(s);
    expect((await b.call('DELETE', `${M}/session`)).status).toBeLessThan(300);
    await s.waitFor('ended', () => s.ended, 3_000);
  });

  it('prunes activity rows older than ten minutes', async () => {
    await sql`UPDATE activity SET created_at = '2020-01-01T00:00:00.000Z' WHERE workspace_id = ${w.workspaceId}`.execute(env.ctx.db.kysely);
    expect(await pruneActivity(env.ctx)).toBeGreaterThan(0);
    const left = await env.ctx.db.kysely.selectFrom('activity').select('id').where('workspace_id', '=', w.workspaceId).execute();
    expect(left).toEqual([]);
  });

  it('ends open streams and removes their presence when the app closes', async () => {
    const other = await createTestEnv(dialect, { config: QUIET });
    const ow = await createPageWorld(other.ctx, other.app);
    const email = (await other.ctx.db.kysely.selectFrom('users').select('email').where('id', '=', ow.userId).executeTakeFirstOrThrow()).email;
    await setPasswordForUser(other.ctx, ow.userId, PASSWORD);
    const b = await signedIn(other.app, email, ow.workspaceId);
    const s = await openStudio(await listen(other.app), b);
    await helloOf(s);
    expect(other.ctx.studio.size).toBe(1);
    const db = other.ctx.db;
    const rowsBefore = await db.kysely.selectFrom('presence').select('stream_id').execute();
    expect(rowsBefore).toHaveLength(1);
    await other.app.close();
    await s.waitFor('end', () => s.ended);
    expect(await db.kysely.selectFrom('presence').select('stream_id').execute()).toEqual([]);
    await other.close().catch(() => {});
  });
});

/** A second app on the database of `env` (same PostgreSQL schema), listening; closed by the caller. */
async function secondInstance(env: TestEnv, config: Partial<Config> = {}): Promise<{ app: FastifyInstance; port: number; close(): Promise<void> }> {
  const schema = (await sql<{ s: string }>`SELECT current_schema() AS s`.execute(env.ctx.db.kysely)).rows[0].s;
  const cfg = Object.freeze({ ...env.config, ...config });
  const db = await createDb(cfg, { pgSchema: schema, poolSize: 2 });
  const ctx = await createContext(cfg, db, { log: pino({ level: 'silent' }) });
  const app = await buildApp(ctx, { logger: false });
  await app.ready();
  const port = await listen(app);
  return {
    app,
    port,
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}

const fanOut = process.env.DATABASE_URL ? ['LISTEN/NOTIFY', 'Redis'] : [];
describe.each(fanOut)('Studio event stream across two instances on PostgreSQL through %s', (how) => {
  let env: TestEnv;
  let second: Awaited<ReturnType<typeof secondInstance>>;
  let w: PageWorld;
  let firstPort: number;
  const redis: Partial<Config> =
    how === 'Redis' ? { redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', redisPrefix: `quire-studio-${randomBytes(4).toString('hex')}:` } : {};

  beforeAll(async () => {
    env = await createTestEnv('postgres', { config: { ...QUIET, ...redis, liveHeartbeatMs: 500 } });
    w = await createPageWorld(env.ctx, env.app);
    second = await secondInstance(env);
    firstPort = await listen(env.app);
  });
  afterAll(async () => {
    await second?.close();
    await env?.close();
  });

  it('presence set through one instance reaches a stream on the other; item frames too', async () => {
    expect(env.ctx.redis !== null).toBe(how === 'Redis');
    const slug = (await env.ctx.db.kysely.selectFrom('workspaces').select('slug').where('id', '=', w.workspaceId).executeTakeFirstOrThrow()).slug;
    const a = await memberWithPassword(env.ctx, slug, 'editor');
    const b = await memberWithPassword(env.ctx, slug, 'editor');
    // Ann's browser talks to the second instance, Bob's to the first.
    const ann = await signedIn(second.app, a.email, w.workspaceId);
    const bob = await signedIn(env.app, b.email, w.workspaceId);
    const annStream = await openStudio(second.port, ann);
    const bobStream = await openStudio(firstPort, bob);
    const annId = await helloOf(annStream);
    const bobId = await helloOf(bobStream);
    const item = (await w.req('POST', '/content-types/article/entries', { slug: `across-${how.length}`, data: { title: 'Across' } })).body.data.id as string;
    await annStream.waitFor('item frame from the other instance', () => itemFrames(annStream, item).length === 1, 5_000);

    // Ann's presence PUT lands on the first instance (a load balancer's choice), her stream is on the second.
    const annOnFirst = await signedIn(env.app, a.email, w.workspaceId);
    const put = await annOnFirst.call('PUT', `${M}/events/${annId}/presence`, { body: { item: { kind: 'entry', id: item } } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    await annStream.waitFor('ann hears herself', () => presenceFrames(annStream).some((f) => f.data.people.length === 1), 5_000);
    const res = await bob.call('PUT', `${M}/events/${bobId}/presence`, { body: { item: { kind: 'entry', id: item } } });
    expect(emails(res.body.data.people)).toEqual([a.email, b.email]);
    await annStream.waitFor('bob joined, on the other instance', () => presenceFrames(annStream).some((f) => f.data.people.length === 2), 5_000);
    // Bob's stream (first instance) closes: Ann (second) hears it.
    bobStream.close();
    await annStream.waitFor('bob left', () => presenceFrames(annStream).at(-1)!.data.people.length === 1, 5_000);
    // Carl's instance shuts down with his stream on the item: Ann hears him leave.
    const third = await secondInstance(env);
    const c = await memberWithPassword(env.ctx, slug, 'viewer');
    const carl = await signedIn(third.app, c.email, w.workspaceId);
    const carlStream = await openStudio(third.port, carl);
    const carlId = await helloOf(carlStream);
    expect((await carl.call('PUT', `${M}/events/${carlId}/presence`, { body: { item: { kind: 'entry', id: item } } })).status).toBe(200);
    await annStream.waitFor('carl joined', () => presenceFrames(annStream).at(-1)!.data.people.length === 2, 5_000);
    await third.close();
    expect(carlStream.ended).toBe(true);
    await annStream.waitFor('carl left with his instance', () => emails(presenceFrames(annStream).at(-1)!.data.people).join() === a.email, 5_000);
    annStream.close();
  });
});
