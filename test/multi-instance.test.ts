/**
 * Three instances behind a load balancer (issue 13 "many instances", docs/scaling.md): three real
 * server processes (`dist/src/server.js`, rebuilt first when older than src/; each with its own
 * DATA_DIR and port) started together on ONE fresh PostgreSQL database and one Redis (REDIS_URL,
 * a key prefix of this run's own). Requests
 * are spread over them as a balancer without sticky sessions would, and each test proves one
 * thing the instances must agree on:
 * - scheduled publications happen once (one `publish` version, one event, one delivery each);
 * - webhook deliveries of a burst of writes on all three are sent once each, none missing;
 * - a key's rate limit and the sign-in throttle count once across the three (Redis);
 * - response caches of one instance are fresh on the next request after a write on another;
 * - revoking a key, signing out and removing a member take effect on the other instances at once;
 * and none of the three logs an error meanwhile (LOG_LEVEL=warn).
 * Needs DATABASE_URL and REDIS_URL (CI sets both; without them the suite is skipped locally and
 * fails in CI).
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, externalEnv } from './cli-helpers.js';
import { freePort, httpCall, killed, serverOutput, startServer, type HttpAnswer } from './server-process.js';
import { startReceiver, verify, type Received, type Receiver } from './webhook-receiver.js';

const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
const missing = [DATABASE_URL ? null : 'DATABASE_URL (PostgreSQL)', REDIS_URL ? null : 'REDIS_URL (Redis)'].filter((m) => m !== null);
if (missing.length > 0) {
  if (process.env.CI) throw new Error(`CI needs ${missing.join(' and ')}: the suite of three instances runs on them`);
  process.stderr.write(`\n[quire tests] ${missing.join(' and ')} not set: the suite of three instances is skipped (CI always sets both)\n`);
}

const M = '/api/v1/manage';
const P = '/api/v1/public';
/** RATE_LIMIT_DELIVERY of the three instances: requests per minute per delivery key, in total. */
const LIMIT = 40;
const PASSWORD = 'correct horse battery staple';
/** The three instances' ports: instance 1 is ports[0]. */
const ports: number[] = [];

interface Workspace {
  id: string;
  slug: string;
  email: string;
  keys: { management: string; delivery: string; preview: string };
  setupToken: string;
}

/** A Studio client over HTTP: keeps the session cookie and CSRF token, may talk to any instance (0, 1, 2). */
class Session {
  cookie: string | null = null;
  csrf: string | null = null;
  constructor(readonly workspaceId: string) {}

  async call(instance: number, method: string, url: string, body?: unknown): Promise<HttpAnswer> {
    const headers: Record<string, string> = { 'x-workspace-id': this.workspaceId };
    if (this.cookie) headers.cookie = `quire_session=${this.cookie}`;
    if (this.csrf && method !== 'GET') headers['x-csrf-token'] = this.csrf;
    const res = await httpCall(ports[instance], method, url, { headers, body });
    const line = res.headers.getSetCookie().find((l) => l.startsWith('quire_session='));
    if (line) this.cookie = line.slice('quire_session='.length, line.indexOf(';')) || null;
    if (res.status === 200 && typeof res.body?.data?.csrf_token === 'string') this.csrf = res.body.data.csrf_token;
    return res;
  }
}

/** Polls `check` until it returns a value other than undefined; throws after `ms`. */
async function eventually<T>(what: string, check: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.runIf(missing.length === 0)('three instances on one PostgreSQL database and one Redis', () => {
  let external: Awaited<ReturnType<typeof externalEnv>>;
  let receiver: Receiver;
  let db: pg.Pool;
  let redisPrefix: string;
  const children: ChildProcess[] = [];
  const dataDirs: string[] = [];

  beforeAll(async () => {
    external = await externalEnv('postgres');
    receiver = await startReceiver();
    redisPrefix = `quire-test:mi-${randomBytes(5).toString('hex')}:`;
    for (let i = 0; i < 3; i++) {
      ports.push(await freePort());
      dataDirs.push(fs.mkdtempSync(path.join(os.tmpdir(), `quire-instance-${i}-`)));
    }
    // Started together on the empty database: their migrations and installation secret must agree.
    const started = await Promise.allSettled(
      ports.map((port, i) =>
        startServer(
          {
            ...external.env,
            DATA_DIR: dataDirs[i],
            REDIS_URL: REDIS_URL!,
            REDIS_PREFIX: redisPrefix,
            RATE_LIMIT_DELIVERY: String(LIMIT),
            SCHEDULER_INTERVAL_MS: '100',
            WEBHOOK_POLL_MS: '100',
            WEBHOOK_ALLOW_PRIVATE: 'true',
            PUBLIC_URL: 'http://quire.test',
            LOG_LEVEL: 'warn',
          },
          port,
          45_000,
        ),
      ),
    );
    for (const s of started) if (s.status === 'fulfilled') children.push(s.value);
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    db = new pg.Pool({ connectionString: external.env.DATABASE_URL, max: 3 });
  }, 60_000);

  afterAll(async () => {
    // An instance that died during the suite explains the failures it caused.
    for (const [i, c] of children.entries()) {
      if (c.exitCode !== null || c.signalCode !== null) process.stderr.write(`instance ${i + 1} exited (${c.exitCode ?? c.signalCode}):\n${serverOutput(c)}\n`);
    }
    await Promise.all(children.map((c) => killed(c, 'SIGTERM')));
    await db?.end();
    await receiver?.close();
    await external?.cleanup();
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
    if (redisPrefix) {
      const redis = new Redis(REDIS_URL!, { maxRetriesPerRequest: 1 });
      try {
        const keys = await redis.keys(`${redisPrefix}*`);
        if (keys.length > 0) await redis.del(...keys);
      } finally {
        redis.disconnect();
      }
    }
  }, 30_000);

  let counter = 0;
  /** A new workspace (`quire bootstrap`), its owner and three keys. */
  async function workspace(name: string): Promise<Workspace> {
    counter += 1;
    const slug = `${name}-${counter}`;
    const email = `owner-${slug}@example.com`;
    const boot = await cli(['bootstrap', '--workspace', slug, '--email', email, '--json'], { env: { ...external.env, PUBLIC_URL: 'http://quire.test' } });
    expect(boot.code, boot.stderr).toBe(0);
    const out = boot.json();
    return { id: out.workspace.id, slug, email, keys: out.keys, setupToken: new URL(out.setup_url).searchParams.get('token')! };
  }

  /** The management API on instance `i` with `key`. */
  const manage = (i: number, key: string, method: string, url: string, body?: unknown) =>
    httpCall(ports[i], method, `${M}${url}`, { headers: { 'x-api-key': key }, body });
  /** The delivery API on instance `i` with `key`. */
  const deliver = (i: number, key: string, url: string, headers: Record<string, string> = {}) =>
    httpCall(ports[i], 'GET', `${P}${url}`, { headers: { 'x-api-key': key, ...headers } });
  /** Asserts a 2xx answer (with its body in the message) and returns it. */
  const ok = async (answer: Promise<HttpAnswer>): Promise<HttpAnswer> => {
    const res = await answer;
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    return res;
  };
  const postType = (key: string) =>
    ok(manage(0, key, 'POST', '/content-types', { name: 'Post', slug: 'post', fields: [{ name: 'title', field_type: 'text' }] }));
  const ofWorkspace = (id: string) => (r: Received) => r.json?.workspace_id === id;

  /** Webhook deliveries of `hookId` with their event and attempt count, once none is pending. */
  async function settledDeliveries(
    hookId: string,
    count: number,
  ): Promise<{ id: string; webhook_id: string; event_id: number; status: string; attempts: number }[]> {
    return eventually(`${count} deliveries of webhook ${hookId} settled`, async () => {
      const { rows } = await db.query<{ id: string; event_id: string; status: string; attempts: string }>(
        `select d.id, d.event_id, d.status, (select count(*) from webhook_attempts a where a.delivery_id = d.id) as attempts
           from webhook_deliveries d where d.webhook_id = $1 order by d.event_id`,
        [hookId],
      );
      if (rows.length < count || rows.some((r) => r.status === 'pending')) return undefined;
      return rows.map((r) => ({ id: r.id, webhook_id: hookId, event_id: Number(r.event_id), status: r.status, attempts: Number(r.attempts) }));
    });
  }

  /** Waits a few worker passes (100 ms each) so that a duplicate send, were there one, would arrive. */
  const settle = () => new Promise((r) => setTimeout(r, 500));

  it('publishes each scheduled entry and page exactly once', async () => {
    const w = await workspace('sched');
    const key = w.keys.management;
    const hook = await ok(manage(0, key, 'POST', '/webhooks', { url: receiver.url, events: ['entry.published', 'page.published'] }));
    await postType(key);
    const slugs = ['s1', 's2', 's3', 's4'];
    await Promise.all(
      slugs.map(async (slug, i) => {
        await ok(manage(i % 3, key, 'POST', '/content-types/post/entries', { slug, data: { title: slug } }));
        await ok(manage((i + 1) % 3, key, 'POST', '/pages', { slug: `p-${slug}`, seo: { title: slug } }));
      }),
    );
    // Before the time comes, instances 2 and 3 cache an empty list.
    for (const i of [1, 2]) {
      expect((await deliver(i, w.keys.delivery, '/entries?type=post')).body.data).toEqual([]);
      const again = await deliver(i, w.keys.delivery, '/entries?type=post');
      expect([again.body.data, again.headers.get('x-cache')]).toEqual([[], 'HIT']);
    }
    const publishAt = new Date(Date.now() + 2000).toISOString();
    await Promise.all(
      slugs.flatMap((slug, i) => [
        ok(manage(i % 3, key, 'PATCH', `/content-types/post/entries/${slug}/schedule`, { publish_at: publishAt })),
        ok(manage((i + 2) % 3, key, 'PATCH', `/pages/p-${slug}/schedule`, { publish_at: publishAt })),
      ]),
    );

    const entries = await eventually('the scheduled entries published', async () => {
      const { rows } = await db.query<{ id: string; slug: string; status: string }>(`select id, slug, status from entries where workspace_id = $1`, [w.id]);
      return rows.every((r) => r.status === 'published') ? rows : undefined;
    });
    const pages = await eventually('the scheduled pages published', async () => {
      const { rows } = await db.query<{ id: string; slug: string; status: string }>(`select id, slug, status from pages where workspace_id = $1`, [w.id]);
      return rows.every((r) => r.status === 'published') ? rows : undefined;
    });
    // The very next read on the instances that cached the empty list shows all four.
    for (const i of [1, 2])
      expect((await deliver(i, w.keys.delivery, '/entries?type=post')).body.data.map((e: { slug: string }) => e.slug).sort()).toEqual(slugs);

    const deliveries = await settledDeliveries(hook.body.data.id, 8);
    await settle();
    // One `publish` version per item.
    const entryVersions = await db.query<{ entry_id: string; n: string }>(
      `select entry_id, count(*) as n from entry_versions where action = 'publish' and entry_id = any($1) group by entry_id`,
      [entries.map((e) => e.id)],
    );
    expect(entryVersions.rows.map((r) => Number(r.n))).toEqual([1, 1, 1, 1]);
    const pageVersions = await db.query<{ page_id: string; n: string }>(
      `select page_id, count(*) as n from page_versions where action = 'publish' and page_id = any($1) group by page_id`,
      [pages.map((p) => p.id)],
    );
    expect(pageVersions.rows.map((r) => Number(r.n))).toEqual([1, 1, 1, 1]);
    // One event per item.
    const events = await db.query<{ id: string; type: string; slug: string }>(
      `select id, type, slug from events where workspace_id = $1 and type in ('entry.published', 'page.published')`,
      [w.id],
    );
    expect(events.rows.map((e) => `${e.type} ${e.slug}`).sort()).toEqual(
      [...slugs.map((s) => `entry.published ${s}`), ...slugs.map((s) => `page.published p-${s}`)].sort(),
    );
    // One delivery per event, sent once, received once.
    expect(deliveries.map((d) => d.event_id).sort()).toEqual(events.rows.map((e) => Number(e.id)).sort());
    expect(deliveries.map((d) => [d.status, d.attempts])).toEqual(Array.from({ length: 8 }, () => ['delivered', 1]));
    const got = receiver.received.filter(ofWorkspace(w.id));
    expect(got).toHaveLength(8);
    expect(new Set(got.map((r) => r.headers['webhook-id']))).toEqual(new Set(deliveries.map((d) => d.id)));
    for (const r of got) verify(hook.body.data.secret, r);
  });

  it('delivers every webhook of a burst of writes on all three instances exactly once', async () => {
    const w = await workspace('burst');
    const key = w.keys.management;
    await postType(key);
    // Three subscriptions, each created on another instance: every event makes three deliveries.
    const hooks = await Promise.all([0, 1, 2].map((i) => ok(manage(i, key, 'POST', '/webhooks', { url: receiver.url, events: ['entry.*'] }))));
    const n = 18;
    const slugs = Array.from({ length: n }, (_, i) => `b${i}`);
    const created = await Promise.all(slugs.map((slug, i) => ok(manage(i % 3, key, 'POST', '/content-types/post/entries', { slug, data: { title: slug } }))));
    const ids = created.map((c) => c.body.data.id as string);
    // Two bulk publications on two instances at once, and single writes on the third.
    await Promise.all([
      ok(manage(1, key, 'PATCH', '/content-types/post/entries/bulk', { action: 'publish', ids: ids.slice(0, n / 2) })),
      ok(manage(2, key, 'PATCH', '/content-types/post/entries/bulk', { action: 'publish', ids: ids.slice(n / 2) })),
      ...slugs.slice(0, 6).map((slug) => ok(manage(0, key, 'PUT', `/content-types/post/entries/${slug}`, { data: { title: `${slug}!` } }))),
    ]);
    await Promise.all(slugs.slice(6, 12).map((slug, i) => ok(manage(i % 3, key, 'PATCH', `/content-types/post/entries/${slug}/unpublish`))));

    const { rows } = await db.query<{ id: string }>(`select id from events where workspace_id = $1 and type like 'entry.%'`, [w.id]);
    const expected = rows.map((r) => Number(r.id)).sort((a, b) => a - b);
    expect(expected.length).toBe(n * 2 + 12);
    const deliveries = (await Promise.all(hooks.map((h) => settledDeliveries(h.body.data.id, expected.length)))).flat();
    await settle();
    expect(deliveries.filter((d) => d.status !== 'delivered' || d.attempts !== 1)).toEqual([]);
    // Per webhook and event: one delivery, received exactly once; nothing else received.
    const deliveryOf = new Map(deliveries.map((d) => [d.id, `${d.webhook_id} ${d.event_id}`]));
    const perDelivery = new Map<string, number>();
    for (const r of receiver.received.filter(ofWorkspace(w.id))) {
      const id = r.headers['webhook-id'];
      expect(deliveryOf.get(id), `a request for an unknown delivery ${id}`).toBeDefined();
      perDelivery.set(id, (perDelivery.get(id) ?? 0) + 1);
    }
    const expectedPairs = hooks.flatMap((h) => expected.map((e) => `${h.body.data.id} ${e}`)).sort();
    expect(deliveries.map((d) => deliveryOf.get(d.id)).sort()).toEqual(expectedPairs);
    expect([...perDelivery.keys()].map((id) => deliveryOf.get(id)).sort()).toEqual(expectedPairs);
    expect([...perDelivery.entries()].filter(([, count]) => count !== 1)).toEqual([]);
  });

  it('counts one rate limit per key and one sign-in throttle across the three', async () => {
    const w = await workspace('limits');
    for (let i = 0; i < LIMIT; i++) {
      const res = await deliver(i % 3, w.keys.delivery, '/schema');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(LIMIT - 1 - i));
    }
    for (const i of [0, 1, 2]) {
      const res = await deliver(i, w.keys.delivery, '/schema');
      expect([res.status, res.body.code]).toEqual([429, 'RATE_LIMITED']);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // Another key of the same workspace counts on its own.
    expect((await deliver(1, w.keys.preview, '/schema')).status).toBe(200);

    // Sign-in: 5 failures per account in 15 minutes, wherever they land.
    await ok(new Session(w.id).call(0, 'POST', `${M}/session/password`, { token: w.setupToken, password: PASSWORD }));
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await new Session(w.id).call(i % 3, 'POST', `${M}/session`, { email: w.email, password: 'wrong password!' })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    for (const i of [0, 1, 2]) expect((await new Session(w.id).call(i, 'POST', `${M}/session`, { email: w.email, password: PASSWORD })).status).toBe(429);
  });

  it('serves fresh content on the other instances on the very next request after a write', async () => {
    const w = await workspace('fresh');
    const key = w.keys.management;
    await postType(key);
    await ok(manage(0, key, 'POST', '/content-types/post/entries', { slug: 'hello', data: { title: 'v1' } }));
    await ok(manage(0, key, 'PATCH', '/content-types/post/entries/hello/publish'));
    await ok(manage(0, key, 'POST', '/pages', { slug: 'home', seo: { title: 'v1' } }));
    await ok(manage(0, key, 'PATCH', '/pages/home/publish'));
    const read = (i: number, url: string, headers?: Record<string, string>) => deliver(i, w.keys.delivery, url, headers);
    /** Reads `url` twice on instances 2 and 3: the second answer comes from their cache. */
    const warm = async (url: string, pick: (body: any) => unknown, expected: unknown): Promise<string> => {
      let etag = '';
      for (const i of [1, 2]) {
        expect(pick((await read(i, url)).body)).toEqual(expected);
        const hit = await read(i, url);
        expect([pick(hit.body), hit.headers.get('x-cache')]).toEqual([expected, 'HIT']);
        etag = hit.headers.get('etag')!;
      }
      return etag;
    };
    // Delivery sends an entry's `data` as a JSON string.
    const entryTitle = (b: any) => (typeof b.data?.entry?.data === 'string' ? JSON.parse(b.data.entry.data).title : undefined);
    const pageTitle = (b: any) => b.data?.page?.seo?.title;

    // An entry's new published version.
    const etag = await warm('/entries/hello?type=post', entryTitle, 'v1');
    await ok(manage(0, key, 'PUT', '/content-types/post/entries/hello', { data: { title: 'v2' } }));
    await ok(manage(0, key, 'PATCH', '/content-types/post/entries/hello/publish'));
    for (const i of [1, 2]) {
      const res = await read(i, '/entries/hello?type=post', { 'if-none-match': etag });
      expect([res.status, entryTitle(res.body), res.headers.get('x-cache')]).toEqual([200, 'v2', 'MISS']);
    }
    // A page's.
    await warm('/pages/home', pageTitle, 'v1');
    await ok(manage(0, key, 'PUT', '/pages/home', { seo: { title: 'v2' }, blocks: [] }));
    await ok(manage(0, key, 'PATCH', '/pages/home/publish'));
    for (const i of [1, 2]) expect(pageTitle((await read(i, '/pages/home')).body)).toBe('v2');
    // The content model.
    const fieldNames = (b: any) => b.data?.content_types?.find((t: { slug: string }) => t.slug === 'post')?.fields.map((f: { name: string }) => f.name);
    await warm('/schema', fieldNames, ['title']);
    await ok(manage(0, key, 'POST', '/content-types/post/fields', { name: 'summary', field_type: 'text' }));
    for (const i of [1, 2]) expect(fieldNames((await read(i, '/schema')).body)).toEqual(['title', 'summary']);
    // Unpublishing.
    await ok(manage(0, key, 'PATCH', '/content-types/post/entries/hello/unpublish'));
    await ok(manage(0, key, 'PATCH', '/pages/home/unpublish'));
    for (const i of [1, 2]) {
      expect((await read(i, '/entries/hello?type=post')).status).toBe(404);
      expect((await read(i, '/pages/home')).status).toBe(404);
    }
  });

  it('revokes keys, ends sessions and removes members on every instance at once', async () => {
    const w = await workspace('revoke');
    const owner = new Session(w.id);
    await ok(owner.call(0, 'POST', `${M}/session/password`, { token: w.setupToken, password: PASSWORD }));
    await postType(w.keys.management);

    // API keys: used (and cached) on instances 2 and 3, revoked on instance 1.
    const mk = await ok(owner.call(0, 'POST', `${M}/api-keys`, { name: 'ci', key_class: 'management', scopes: ['content:write'] }));
    const dk = await ok(owner.call(0, 'POST', `${M}/api-keys`, { name: 'site', key_class: 'delivery', environment: 'production' }));
    for (const i of [1, 2]) {
      for (let n = 0; n < 2; n++) expect((await manage(i, mk.body.data.key, 'GET', '/content-types')).status).toBe(200);
      expect((await deliver(i, dk.body.data.key, '/schema')).status).toBe(200);
      expect((await deliver(i, dk.body.data.key, '/schema')).headers.get('x-cache')).toBe('HIT');
    }
    await ok(owner.call(0, 'DELETE', `${M}/api-keys/${mk.body.data.id}`));
    await ok(owner.call(0, 'DELETE', `${M}/api-keys/${dk.body.data.id}`));
    for (const i of [1, 2]) {
      expect([(await manage(i, mk.body.data.key, 'GET', '/content-types')).status, (await deliver(i, dk.body.data.key, '/schema')).status]).toEqual([401, 401]);
    }

    // A session signed in on instance 2 and used on all three (no sticky sessions), signed out on
    // instance 1 with the CSRF token instance 2 issued; its cookie then fails on 2 and 3.
    const second = new Session(w.id);
    await ok(second.call(1, 'POST', `${M}/session`, { email: w.email, password: PASSWORD }));
    for (const i of [0, 1, 2]) expect((await second.call(i, 'GET', `${M}/content-types`)).status).toBe(200);
    const cookie = second.cookie;
    await ok(second.call(0, 'DELETE', `${M}/session`));
    for (const i of [1, 2]) {
      for (const url of ['/content-types', '/session']) {
        second.cookie = cookie; // the old cookie, as a browser tab still sends it (each 401 clears it)
        expect((await second.call(i, 'GET', `${M}${url}`)).status).toBe(401);
      }
    }

    // A member invited on instance 1, signed in on instance 2, with a key of their own made on
    // instance 3, removed on instance 1.
    const invited = await ok(owner.call(0, 'POST', `${M}/users/invitations`, { email: `admin-${w.slug}@example.com`, role: 'admin' }));
    const member = new Session(w.id);
    const token = new URL(invited.body.data.invitation_url).searchParams.get('token');
    const joined = await ok(member.call(1, 'POST', `${M}/session/password`, { token, password: PASSWORD }));
    const memberKey = await ok(member.call(2, 'POST', `${M}/api-keys`, { name: 'mine', key_class: 'management', scopes: ['content:write'] }));
    for (const i of [1, 2]) {
      expect((await member.call(i, 'GET', `${M}/content-types`)).status).toBe(200);
      expect((await manage(i, memberKey.body.data.key, 'GET', '/content-types')).status).toBe(200);
    }
    const memberCookie = member.cookie;
    await ok(owner.call(0, 'DELETE', `${M}/users/${joined.body.data.user.id}`));
    for (const i of [1, 2]) {
      member.cookie = memberCookie;
      expect((await member.call(i, 'GET', `${M}/content-types`)).status).toBe(401);
      expect((await manage(i, memberKey.body.data.key, 'GET', '/content-types')).status).toBe(401);
    }
    // The owner's own session still works everywhere.
    for (const i of [0, 1, 2]) expect((await owner.call(i, 'GET', `${M}/content-types`)).status).toBe(200);
  });

  // Runs last: scheduler passes, worker passes and writes racing on three instances (deadlocks,
  // serialization failures beyond the retries, a claim gone wrong) would show up as errors here.
  it('logged no error on any instance', () => {
    for (const [i, c] of children.entries()) {
      expect(c.exitCode, `instance ${i + 1} is still running`).toBeNull();
      const errors = serverOutput(c)
        .split('\n')
        .filter((line) => /"level":(50|60)/.test(line));
      expect(errors, `errors logged by instance ${i + 1}`).toEqual([]);
    }
  });
});
