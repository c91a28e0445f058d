/**
 * Webhooks across processes and instances (docs/api.md "Webhooks" (D82)), both dialects:
 * - A change committed by a server that is then killed with SIGKILL before its worker sent
 *   anything is delivered by the next server started on the database (the outbox row was
 *   written with the change). The server runs as a child process (`node dist/src/server.js`,
 *   rebuilt first when older than src/, so the sources under test, not a stale build).
 * - A scheduled publication seen by two instances on one database (two server processes, each
 *   running the scheduler and the delivery worker) reaches the receiver as exactly one
 *   `entry.published` delivery.
 * - On PostgreSQL, a worker claiming while another one's claim is still open takes other
 *   deliveries at once instead of the same ones (FOR UPDATE SKIP LOCKED): the race that timing
 *   alone rarely shows in test/multi-instance.test.ts, made to happen.
 */
import type { ChildProcess } from 'node:child_process';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createContext } from '../src/context.js';
import { createDb } from '../src/db/create-db.js';
import { claimDue, type ClaimedAttempt } from '../src/modules/webhooks/repository.js';
import { withTransaction } from '../src/db/transaction.js';
import { iso } from '../src/lib/time.js';
import { cli, externalEnv } from './cli-helpers.js';
import { call, dialects } from './helpers.js';
import { freePort, httpCall, killed, startServer } from './server-process.js';
import { startReceiver, verify, type Receiver } from './webhook-receiver.js';

const M = '/api/v1/manage';

async function api(port: number, key: string, method: string, url: string, body?: unknown): Promise<{ status: number; body: any }> {
  return httpCall(port, method, `${M}${url}`, { headers: { 'x-api-key': key }, body });
}

describe.each(dialects())('webhooks across processes on %s', (dialect) => {
  let external: Awaited<ReturnType<typeof externalEnv>>;
  let receiver: Receiver;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    external = await externalEnv(dialect);
    receiver = await startReceiver();
  }, 60_000);
  afterAll(async () => {
    for (const c of children) await killed(c, 'SIGKILL');
    await receiver?.close();
    await external?.cleanup();
  });

  it('a change committed before SIGKILL is delivered by the next start', async () => {
    const boot = await cli(['bootstrap', '--workspace', 'hooks', '--json'], { env: external.env });
    expect(boot.code, boot.stderr).toBe(0);
    const key = boot.json().keys.management as string;
    const port = await freePort();
    // A worker that would not look at the outbox for a minute: nothing is sent before the kill.
    const first = await startServer({ ...external.env, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '60000' }, port);
    children.push(first);
    const hook = await api(port, key, 'POST', '/webhooks', { url: receiver.url, events: ['entry.published'] });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    expect((await api(port, key, 'POST', '/content-types', { name: 'Post', slug: 'post', fields: [{ name: 'title', field_type: 'text' }] })).status).toBe(201);
    expect((await api(port, key, 'POST', '/content-types/post/entries', { slug: 'kept', data: { title: 'Kept' } })).status).toBe(201);
    expect((await api(port, key, 'PATCH', '/content-types/post/entries/kept/publish')).status).toBe(200);
    await killed(first, 'SIGKILL');
    expect(receiver.received).toHaveLength(0);

    const second = await startServer({ ...external.env, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '100' }, port);
    children.push(second);
    const [got] = await receiver.waitFor(1, () => true, 15_000);
    expect(verify(hook.body.data.secret, got)).toMatchObject({ type: 'entry.published', data: { slug: 'kept', content_type: 'post', status: 'published' } });
    const log = await api(port, key, 'GET', `/webhooks/${hook.body.data.id}/deliveries`);
    expect(log.body.data).toHaveLength(1);
    expect(log.body.data[0]).toMatchObject({ status: 'delivered', attempt_count: 1, event_type: 'entry.published' });
    await killed(second, 'SIGTERM');
    expect(receiver.received).toHaveLength(1);
  }, 90_000);

  // Two server processes, as instances run: on SQLite two connections in one process would take
  // turns blocking its only thread while each waits (busy_timeout, synchronous) for the write lock
  // the other holds across an await, and a loaded machine made that last past the test's 15 s.
  it('two instances on one database deliver a scheduled publication exactly once', async () => {
    receiver.received.length = 0;
    const boot = await cli(['bootstrap', '--workspace', 'twice', '--json'], { env: external.env });
    expect(boot.code, boot.stderr).toBe(0);
    const key = boot.json().keys.management as string;
    const env = { ...external.env, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '50', SCHEDULER_INTERVAL_MS: '100' };
    const ports = [await freePort(), await freePort()];
    const instances = await Promise.all(ports.map((port) => startServer(env, port)));
    children.push(...instances);
    try {
      const req = (method: string, url: string, body?: unknown) => api(ports[0], key, method, url, body);
      const hook = await req('POST', '/webhooks', { url: receiver.url, events: ['entry.published', 'page.published'] });
      expect(hook.status, JSON.stringify(hook.body)).toBe(201);
      expect((await req('POST', '/content-types', { name: 'Post', slug: 'post', fields: [{ name: 'title', field_type: 'text' }] })).status).toBe(201);
      const publishAt = new Date(Date.now() + 3000).toISOString();
      for (const slug of ['s1', 's2', 's3']) {
        expect((await req('POST', '/content-types/post/entries', { slug, data: { title: slug } })).status).toBe(201);
        expect((await req('PATCH', `/content-types/post/entries/${slug}/schedule`, { publish_at: publishAt })).status).toBe(200);
      }
      await receiver.waitFor(3, () => true, 20_000);
      // Give a duplicate time to show up: several scheduler and worker passes of both instances.
      await new Promise((r) => setTimeout(r, 1500));
      const published = receiver.received.map((r) => verify(hook.body.data.secret, r) as { type: string; data: { slug: string } });
      expect(published.map((p) => `${p.type} ${p.data.slug}`).sort()).toEqual(['entry.published s1', 'entry.published s2', 'entry.published s3']);
      expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(3);
      // Read through the other instance: both see the one delivery log.
      const log = await api(ports[1], key, 'GET', `/webhooks/${hook.body.data.id}/deliveries`);
      expect(log.body.data.map((d: { attempt_count: number; status: string }) => [d.status, d.attempt_count])).toEqual([
        ['delivered', 1],
        ['delivered', 1],
        ['delivered', 1],
      ]);
    } finally {
      for (const child of instances) await killed(child, 'SIGTERM');
    }
  }, 90_000);

  // SQLite has one process per file, and a second connection waiting for its write lock would
  // block this test's only thread: there the claim goes through the write lock instead.
  it.runIf(dialect === 'postgres')('a worker claiming while another claim is open takes other deliveries at once', async () => {
    const config = loadConfig({ ...external.env, LOG_LEVEL: 'silent' }, { demo: false, webhookAllowPrivate: true });
    const [a, b] = [await createDb(config), await createDb(config)];
    const app = await buildApp(await createContext(config, a, { log: pino({ level: 'silent' }) }));
    try {
      const boot = await cli(['bootstrap', '--workspace', 'claims', '--json'], { env: external.env });
      const key = boot.json().keys.management as string;
      const req = (method: 'POST', url: string, body: unknown) => call(app, method, `${M}${url}`, { key, body });
      expect((await req('POST', '/webhooks', { url: receiver.url, events: ['entry.created'] })).status).toBe(201);
      await req('POST', '/content-types', { name: 'Post', slug: 'post', fields: [{ name: 'title', field_type: 'text' }] });
      for (let i = 0; i < 6; i++) expect((await req('POST', '/content-types/post/entries', { slug: `c${i}`, data: { title: 'C' } })).status).toBe(201);
      const now = iso(new Date(Date.now() + 1000));
      const lease = iso(new Date(Date.now() + 60_000));
      let second: Promise<ClaimedAttempt[]> | undefined;
      const first = await withTransaction(a, async (tx) => {
        const claimed = await claimDue(tx, now, lease, 4);
        // These four rows stay locked until this transaction ends; meanwhile another worker claims.
        second = withTransaction(b, (tx2) => claimDue(tx2, now, lease, 10));
        const finished = await Promise.race([second.then(() => true), new Promise((r) => setTimeout(() => r(false), 5000))]);
        expect(finished, 'the second claim waited for the first one to end').toBe(true);
        return claimed;
      });
      const other = await second!;
      expect(first).toHaveLength(4);
      expect(other).toHaveLength(2);
      expect(new Set([...first, ...other].map((c) => c.deliveryId)).size).toBe(6);
      // Everything is leased now: a third worker finds nothing due.
      expect(await withTransaction(b, (tx) => claimDue(tx, now, lease, 10))).toEqual([]);
    } finally {
      await app.close();
      await a.close();
      await b.close();
    }
  });
});
