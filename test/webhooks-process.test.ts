/**
 * Webhooks across processes and instances (DECISIONS.md D82), both dialects:
 * - A change committed by a server that is then killed with SIGKILL before its worker sent
 *   anything is delivered by the next server started on the database (the outbox row was
 *   written with the change). The server runs as a child process (`node --import tsx
 *   src/server.ts`, so the sources under test, not a stale build).
 * - A scheduled publication seen by two instances on one database (two contexts with their own
 *   connections, each running the scheduler and the delivery worker) reaches the receiver as
 *   exactly one `entry.published` delivery.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createContext, type Context } from '../src/context.js';
import { createDb } from '../src/db/create-db.js';
import type { Db } from '../src/db/types.js';
import { startScheduler } from '../src/modules/publishing/scheduler.js';
import { startWebhookWorker } from '../src/modules/webhooks/worker.js';
import { cli, externalEnv } from './cli-helpers.js';
import { call, dialects } from './helpers.js';
import { startReceiver, verify, type Receiver } from './webhook-receiver.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const M = '/api/v1/manage';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts `src/server.ts` in a child process and waits until /readyz answers. */
async function startServer(env: Record<string, string>, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src', 'server.ts')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env, PORT: String(port), HOST: '127.0.0.1', QUIRE_DEMO: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${stderr}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return child;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function api(port: number, key: string, method: string, url: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`http://127.0.0.1:${port}${M}${url}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

function killed(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
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

  it('two instances on one database deliver a scheduled publication exactly once', async () => {
    receiver.received.length = 0;
    const config = loadConfig(
      { ...external.env, LOG_LEVEL: 'silent' },
      { demo: false, schedulerIntervalMs: 100, webhookAllowPrivate: true, webhookPollMs: 50 },
    );
    const dbs: Db[] = [];
    const contexts: Context[] = [];
    for (let i = 0; i < 2; i++) {
      const db = await createDb(config);
      dbs.push(db);
      contexts.push(await createContext(config, db, { log: pino({ level: 'silent' }) }));
    }
    const app = await buildApp(contexts[0]);
    const jobs: { stop(): Promise<void> }[] = [];
    try {
      const boot = await cli(['bootstrap', '--workspace', 'twice', '--json'], { env: external.env });
      const key = boot.json().keys.management as string;
      const req = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) => call(app, method, `${M}${url}`, { key, body });
      const hook = await req('POST', '/webhooks', { url: receiver.url, events: ['entry.published', 'page.published'] });
      expect(hook.status).toBe(201);
      await req('POST', '/content-types', { name: 'Post', slug: 'post', fields: [{ name: 'title', field_type: 'text' }] });
      const publishAt = new Date(Date.now() + 1500).toISOString();
      for (const slug of ['s1', 's2', 's3']) {
        expect((await req('POST', '/content-types/post/entries', { slug, data: { title: slug } })).status).toBe(201);
        expect((await req('PATCH', `/content-types/post/entries/${slug}/schedule`, { publish_at: publishAt })).status).toBe(200);
      }
      for (const ctx of contexts) jobs.push(startScheduler(ctx), startWebhookWorker(ctx, { pollMs: 50 }));
      await receiver.waitFor(3, () => true, 15_000);
      // Give a duplicate time to show up: several scheduler and worker passes of both instances.
      await new Promise((r) => setTimeout(r, 1500));
      const published = receiver.received.map((r) => verify(hook.body.data.secret, r) as { type: string; data: { slug: string } });
      expect(published.map((p) => `${p.type} ${p.data.slug}`).sort()).toEqual(['entry.published s1', 'entry.published s2', 'entry.published s3']);
      expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(3);
      const log = await req('GET', `/webhooks/${hook.body.data.id}/deliveries`);
      expect(log.body.data.map((d: { attempt_count: number; status: string }) => [d.status, d.attempt_count])).toEqual([
        ['delivered', 1],
        ['delivered', 1],
        ['delivered', 1],
      ]);
    } finally {
      for (const j of jobs) await j.stop();
      await app.close();
      for (const db of dbs) await db.close();
    }
  }, 60_000);
});
