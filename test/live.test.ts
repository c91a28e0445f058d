/**
 * The Live Content API (docs/front-ends.md "Live updates", D142) over real sockets: an event
 * `{id, tags}` after a publication with the item's tags; a preview key sees every save, a
 * production key only what production readers see; `Last-Event-ID` resumes, an id too old or
 * malformed answers `reset`; a heartbeat comment; the per-key cap (429 in the envelope); CORS;
 * streams end when the app closes; and on PostgreSQL a change made on one instance reaches the
 * subscribers of the others sharing the database (three instances), through LISTEN/NOTIFY and
 * through Redis.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { createContext } from '../src/context.js';
import { createDb } from '../src/db/create-db.js';
import { authenticate, createApiKey } from '../src/modules/auth/operations.js';
import { MAX_BACKLOG_BYTES } from '../src/modules/live/hub.js';
import type { Config } from '../src/config.js';
import { createTestEnv, dialects, expectError, type Res, type TestEnv } from './helpers.js';
import { openLive, until, type LiveStream } from './live-client.js';
import { createPageWorld, type PageWorld } from './pages-fixtures.js';

const E = '/content-types/article/entries';
/** Readers read only when woken in these suites: a lost wake-up fails the test instead of being covered by the safety read. */
const QUIET: Partial<Config> = { livePollMs: 600_000 };

async function listen(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

function ok(res: Res, status = 200): Res {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res;
}

/** The event frames of `s` about the item `id` (by its `e:`/`p:` tag). */
const about = (s: LiveStream, tag: string) => s.frames.filter((f) => f.data?.tags?.includes(tag));

describe.each(dialects())('live updates on %s', (dialect) => {
  let env: TestEnv;
  let w: PageWorld;
  let port: number;
  const streams: LiveStream[] = [];
  const open = async (key: string, headers: Record<string, string> = {}, query = '') => {
    const s = await openLive(port, key, headers, query);
    streams.push(s);
    return s;
  };

  beforeAll(async () => {
    env = await createTestEnv(dialect, { config: { ...QUIET, liveHeartbeatMs: 150, liveMaxConnectionsPerKey: 3 } });
    w = await createPageWorld(env.ctx, env.app);
    port = await listen(env.app);
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await env?.close();
  });

  it('a publication reaches a production stream as {id, tags} with the item, its list and any-change tags', async () => {
    const s = await open(w.keys.delivery);
    expect(s.status).toBe(200);
    expect(s.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(s.headers['cache-control']).toBe('private, no-store');
    const id = await w.article('live-one', 'Live one');
    const frame = await s.waitFor('publication event', () => about(s, `e:${id}`)[0]);
    expect(frame.data.tags).toEqual([`e:${id}`, `t:${w.workspaceId}:article`, `any:${w.workspaceId}`]);
    expect(frame.id).toBe(String(frame.data.id));
    // The draft's creation came first but production never saw it: the publication is the only event.
    expect(about(s, `e:${id}`)).toHaveLength(1);
    s.close();
  });

  it('a preview key sees every save; a production key does not see a draft saved, and ids grow', async () => {
    const prod = await open(w.keys.delivery);
    const preview = await open(w.keys.preview);
    const created = ok(await w.req('POST', E, { slug: 'draft-x', data: { title: 'Draft' } }), 201);
    const id = created.body.data.id as string;
    ok(await w.req('PUT', `${E}/draft-x`, { data: { title: 'Draft 2' } }));
    await preview.waitFor('two saves on preview', () => about(preview, `e:${id}`).length === 2);
    ok(await w.req('PATCH', `${E}/draft-x/publish`));
    await preview.waitFor('publication on preview', () => about(preview, `e:${id}`).length === 3);
    await prod.waitFor('publication on production', () => about(prod, `e:${id}`).length === 1);
    const ids = about(preview, `e:${id}`).map((f) => Number(f.id));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(about(prod, `e:${id}`)[0].id).toBe(String(ids[2]));
    prod.close();
    preview.close();
  });

  it('a write of several items in one transaction sends an event for each (bulk publish)', async () => {
    const s = await open(w.keys.delivery);
    const ids: string[] = [];
    for (const slug of ['bulk-1', 'bulk-2', 'bulk-3']) ids.push(ok(await w.req('POST', E, { slug, data: { title: slug } }), 201).body.data.id);
    ok(await w.req('PATCH', `${E}/bulk`, { action: 'publish', ids }));
    await s.waitFor('three events', () => ids.every((id) => about(s, `e:${id}`).length === 1));
    s.close();
  });

  it('Last-Event-ID resumes after that event, in order; a too old or malformed id answers reset', async () => {
    const first = await open(w.keys.delivery);
    const a = await w.article('resume-a', 'A');
    const seen = await first.waitFor('first event', () => about(first, `e:${a}`)[0]);
    first.close();
    const b = await w.article('resume-b', 'B');
    const c = await w.article('resume-c', 'C');
    const resumed = await open(w.keys.delivery, { 'last-event-id': seen.id! });
    await resumed.waitFor('replay', () => about(resumed, `e:${c}`).length === 1);
    expect(resumed.frames.map((f) => f.data.tags[0])).toEqual([`e:${b}`, `e:${c}`]);
    // The same through the query parameter.
    const byQuery = await open(w.keys.delivery, {}, `?last_event_id=${seen.id}`);
    await byQuery.waitFor('replay by query', () => byQuery.frames.length === 2);
    // Up to date: nothing replayed, and no reset.
    const current = await open(w.keys.delivery, { 'last-event-id': resumed.frames[1].id! });
    const d = await w.article('resume-d', 'D');
    await current.waitFor('live after resume', () => about(current, `e:${d}`).length === 1);
    expect(current.frames).toHaveLength(1);
    // Three streams per key in this suite (LIVE_MAX_CONNECTIONS_PER_KEY): free them.
    for (const s of [resumed, byQuery, current]) s.close();
    await current.waitFor('streams freed', () => env.ctx.live.size === 0 || undefined);

    // History older than LIVE_HISTORY_SECONDS: reset, with the current id to resume from.
    await sql`UPDATE events SET created_at = '2020-01-01T00:00:00.000Z' WHERE workspace_id = ${w.workspaceId} AND id > ${Number(seen.id)}`.execute(
      env.ctx.db.kysely,
    );
    const old = await open(w.keys.delivery, { 'last-event-id': seen.id! });
    const reset = await old.waitFor('reset', () => old.frames[0]);
    expect(reset.event).toBe('reset');
    expect(reset.data.reason).toMatch(/older than the 600 s/);
    expect(Number(reset.id)).toBeGreaterThanOrEqual(Number(current.frames[0].id));
    for (const bad of ['abc', '99999999999']) {
      const s = await open(w.keys.delivery, { 'last-event-id': bad });
      expect((await s.waitFor('reset', () => s.frames[0])).event).toBe('reset');
      s.close();
    }
    old.close();
  });

  it('a key with a content-type whitelist sees only the changes of its types', async () => {
    ok(await w.req('POST', '/content-types', { name: 'Note', slug: 'note', fields: [{ name: 'title', field_type: 'text' }] }), 201);
    const { key } = await createApiKey(env.ctx, w.workspaceId, w.userId, { keyClass: 'delivery', environment: 'production', contentTypes: ['note'] });
    const s = await open(key);
    const article = await w.article('not-a-note', 'Article');
    const note = ok(await w.req('POST', '/content-types/note/entries', { slug: 'n1', data: { title: 'N' } }), 201).body.data.id as string;
    ok(await w.req('PATCH', '/content-types/note/entries/n1/publish'));
    await s.waitFor('the note', () => about(s, `e:${note}`).length === 1);
    // The article was published first: had it been visible, it would have come first.
    expect(about(s, `e:${article}`)).toEqual([]);
    expect(s.frames.every((f) => f.data.tags.includes(`t:${w.workspaceId}:note`) || !f.data.tags.some((t: string) => t.startsWith('e:')))).toBe(true);
    s.close();
  });

  it('ends a stream whose client stops reading once its unsent output passes the bound', async () => {
    const actor = await authenticate(env.ctx, w.keys.preview, 'delivery');
    let ended = false;
    await until('earlier streams closed', () => env.ctx.live.size === 0);
    // A sink whose client reads nothing: every write leaves more than the bound unsent.
    await env.ctx.live.start(actor, { write: () => MAX_BACKLOG_BYTES + 1, end: () => (ended = true) }, undefined);
    // Its first write (a heartbeat or this publication's event) ends it.
    await w.article('unread', 'Unread');
    await until('the stream ended', () => ended);
    expect(env.ctx.live.size).toBe(0);
  });

  it('sends a heartbeat comment on an idle stream', async () => {
    const s = await open(w.keys.delivery);
    await s.waitFor('heartbeat', () => s.comments.includes('ping'), 3_000);
    s.close();
  });

  it('caps the streams of one key on an instance (429 in the envelope), and frees a slot when one closes', async () => {
    const { key: secret } = await createApiKey(env.ctx, w.workspaceId, w.userId, { keyClass: 'delivery', environment: 'production', name: 'capped' });
    const held = [await open(secret), await open(secret), await open(secret)];
    for (const s of held) expect(s.status).toBe(200);
    const refused = await open(secret);
    expect(refused.status).toBe(429);
    await refused.waitFor('body', () => refused.ended);
    expectError({ status: 429, body: JSON.parse(refused.body), headers: refused.headers }, 429, 'RATE_LIMITED');
    held[0].close();
    const again = await held[1].waitFor('a freed slot', async () => {
      const s = await open(secret);
      if (s.status === 200) return s;
      s.close();
      return undefined;
    });
    for (const s of [...held, again]) s.close();
  });

  it('answers CORS preflights for Last-Event-ID and streams with Access-Control-Allow-Origin', async () => {
    const pre = await env.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/public/live',
      headers: { origin: 'https://site.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key, last-event-id' },
    });
    expect(pre.statusCode).toBe(204);
    expect(String(pre.headers['access-control-allow-headers'])).toContain('Last-Event-ID');
    const s = await open(w.keys.delivery, { origin: 'https://site.example' });
    expect(s.headers['access-control-allow-origin']).toBe('*');
    s.close();
  });

  it('ends open streams when the app closes', async () => {
    const other = await createTestEnv(dialect, { config: QUIET });
    const ow = await createPageWorld(other.ctx, other.app);
    const s = await openLive(await listen(other.app), ow.keys.delivery);
    expect(s.status).toBe(200);
    expect(other.ctx.live.size).toBe(1);
    await other.close();
    await s.waitFor('end', () => s.ended);
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
describe.each(fanOut)('live updates across three instances on PostgreSQL through %s', (how) => {
  let env: TestEnv;
  let second: Awaited<ReturnType<typeof secondInstance>>;
  let third: Awaited<ReturnType<typeof secondInstance>>;
  let w: PageWorld;
  const redis: Partial<Config> =
    how === 'Redis' ? { redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', redisPrefix: `quire-live-${randomBytes(4).toString('hex')}:` } : {};

  beforeAll(async () => {
    env = await createTestEnv('postgres', { config: { ...QUIET, ...redis } });
    w = await createPageWorld(env.ctx, env.app);
    second = await secondInstance(env);
    third = await secondInstance(env);
    await listen(env.app);
  });
  afterAll(async () => {
    await second?.close();
    await third?.close();
    await env?.close();
  });

  it('a publication on one instance reaches streams on the two others, and back', async () => {
    expect(env.ctx.redis !== null).toBe(how === 'Redis');
    const s = await openLive(second.port, w.keys.delivery);
    const t = await openLive(third.port, w.keys.delivery);
    const id = await w.article(`across-${how.length}`, 'Across');
    const frame = await s.waitFor('event from the other instance', () => about(s, `e:${id}`)[0], 5_000);
    expect(frame.data.tags).toContain(`t:${w.workspaceId}:article`);
    const onThird = await t.waitFor('event on the third instance', () => about(t, `e:${id}`)[0], 5_000);
    expect(onThird.data.id).toBe(frame.data.id);
    // A write through the second instance reaches streams on the first and the third.
    const back = await openLive((env.app.server.address() as AddressInfo).port, w.keys.delivery);
    const res = await second.app.inject({
      method: 'PATCH',
      url: `/api/v1/manage${E}/across-${how.length}/unpublish`,
      headers: { 'x-api-key': w.keys.management },
    });
    expect(res.statusCode).toBe(200);
    await back.waitFor('event back', () => about(back, `e:${id}`).length === 1, 5_000);
    await t.waitFor('the unpublication on the third instance', () => about(t, `e:${id}`).length === 2, 5_000);
    s.close();
    t.close();
    back.close();
  });
});
