/**
 * Webhooks are not a way into the server's own network (issue 23, finding 3). Unless
 * WEBHOOK_ALLOW_PRIVATE is set, a webhook is refused, when it is saved and at every attempt, for
 * any URL whose host is or resolves to a loopback, private, CGNAT, link-local, multicast,
 * broadcast, unspecified or reserved address, in any spelling (`0`, `127.1`, `0x7f.1`,
 * `2130706433`, IPv4-mapped, IPv4-translated, IPv4-compatible, NAT64, 6to4, Teredo); a name that
 * resolves to a public address when saved and to loopback when delivered (DNS rebinding) is
 * refused at connect time. A loopback listener stands for the internal service: it must see no
 * connection at all. The guard is on by default, with or without DATABASE_URL.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { Context } from '../../src/context.js';
import { withTransaction } from '../../src/db/transaction.js';
import { AppError } from '../../src/errors.js';
import { systemActor } from '../../src/modules/auth/permissions.js';
import { createWebhook, pingWebhook } from '../../src/modules/webhooks/operations.js';
import { enqueueDeliveries } from '../../src/modules/webhooks/outbox.js';
import { runWebhookWorkerOnce } from '../../src/modules/webhooks/worker.js';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from '../helpers.js';

const M = '/api/v1/manage';

/** The internal service: answers 200 with a secret on 127.0.0.1 and, when the host has IPv6, on ::1 (same port). */
interface Listener {
  port: number;
  connections: number;
  requests: { url: string; host: string | undefined }[];
  close(): Promise<void>;
}

async function startListener(
  answer: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_req, res) => res.end('internal secret'),
): Promise<Listener> {
  const servers: http.Server[] = [];
  const state: Listener = {
    port: 0,
    connections: 0,
    requests: [],
    close: () => Promise.all(servers.map((s) => new Promise<void>((resolve) => (s.closeAllConnections(), s.close(() => resolve()))))).then(() => undefined),
  };
  const make = () => {
    const server = http.createServer((req, res) => {
      state.requests.push({ url: req.url ?? '', host: req.headers.host });
      answer(req, res);
    });
    server.on('connection', (_socket: Socket) => {
      state.connections += 1;
    });
    servers.push(server);
    return server;
  };
  const v4 = make();
  await new Promise<void>((resolve) => v4.listen(0, '127.0.0.1', resolve));
  state.port = (v4.address() as AddressInfo).port;
  const v6 = make();
  await new Promise<void>((resolve) => {
    v6.once('error', () => {
      servers.pop();
      resolve();
    });
    v6.listen(state.port, '::1', resolve);
  });
  return state;
}

/** Hosts that are the loopback listener under another spelling, then other non-public addresses. */
const LOOPBACK_HOSTS = [
  '127.0.0.1',
  '0',
  '127.1',
  '0x7f.1',
  '2130706433',
  '0177.0.0.1',
  'localhost',
  '[::1]',
  '[::]',
  '[::ffff:127.0.0.1]',
  '[::ffff:0:7f00:1]',
  '[::127.0.0.1]',
  '[64:ff9b::7f00:1]',
  '[64:ff9b:1::7f00:1]',
  '[2002:7f00:1::1]',
  '[2001:0:7f00:1::1]',
];
const OTHER_PRIVATE_HOSTS = [
  '10.0.0.1',
  '172.16.0.1',
  '192.168.0.1',
  '100.64.0.1',
  '169.254.169.254',
  '224.0.0.1',
  '255.255.255.255',
  '192.0.2.1',
  '198.18.0.1',
  '240.0.0.1',
  '[::ffff:10.0.0.1]',
  '[::ffff:169.254.169.254]',
  '[fd00::1]',
  '[fe80::1]',
  '[fec0::1]',
  '[ff02::1]',
  '[2001:db8::1]',
  '[100::1]',
];

/** A resolver standing in for DNS: answers from `table`, counting the questions per name. */
function fakeResolver(table: Record<string, (n: number) => string[]>) {
  const asked: Record<string, number> = {};
  const resolve = (hostname: string): Promise<LookupAddress[]> => {
    const n = (asked[hostname] = (asked[hostname] ?? 0) + 1);
    const answer = table[hostname];
    if (!answer) return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
    return Promise.resolve(answer(n).map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };
  return { resolve, asked };
}

describe('webhook SSRF guard: configuration', () => {
  it('is on by default, with the embedded SQLite database and with DATABASE_URL', () => {
    expect(loadConfig({}).webhookAllowPrivate).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/x' }).webhookAllowPrivate).toBe(false);
  });

  it('is turned off only by WEBHOOK_ALLOW_PRIVATE set explicitly', () => {
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: '1' }).webhookAllowPrivate).toBe(true);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'true' }).webhookAllowPrivate).toBe(true);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: '0' }).webhookAllowPrivate).toBe(false);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: '' }).webhookAllowPrivate).toBe(false);
  });
});

describe.each(dialects())('webhook SSRF guard on %s (default configuration)', (dialect) => {
  let env: TestEnv;
  let listener: Listener;
  let key: string;
  let workspaceId: string;
  let userId: number;
  let hookId: string;

  const url = (host: string) => `http://${host}:${listener.port}/hook`;
  /** Points the stored webhook at `target` behind the guard's back (as if saved while allowed). */
  const repoint = (target: string) => env.ctx.db.kysely.updateTable('webhooks').set({ url: target }).where('id', '=', hookId).execute();

  beforeAll(async () => {
    // No webhookAllowPrivate here: the default is under test.
    env = await createTestEnv(dialect, { config: { webhookTimeoutMs: 2000 } });
    const seeded = await seedWorkspace(env.ctx);
    key = seeded.keys.management;
    workspaceId = seeded.workspace.id;
    userId = seeded.user.id;
    listener = await startListener();
    const created = await call(env.app, 'POST', `${M}/webhooks`, { key, body: { url: 'https://93.184.216.34/hook', events: ['*'] } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    hookId = created.body.data.id;
  });
  afterAll(async () => {
    await listener?.close();
    await env?.close();
  });

  it('has the guard on', () => {
    expect(env.config.webhookAllowPrivate).toBe(false);
  });

  it('refuses every spelling of a loopback or other non-public host when a webhook is created or changed', async () => {
    for (const host of [...LOOPBACK_HOSTS, ...OTHER_PRIVATE_HOSTS]) {
      for (const target of [url(host), url(host).replace('http:', 'https:')]) {
        const created = expectError(await call(env.app, 'POST', `${M}/webhooks`, { key, body: { url: target, events: ['*'] } }), 400, 'VALIDATION_FAILED');
        expect(created.errors, target).toEqual([expect.objectContaining({ path: 'body.url', message: expect.stringMatching(/^refused: /) })]);
      }
      const changed = expectError(await call(env.app, 'PATCH', `${M}/webhooks/${hookId}`, { key, body: { url: url(host) } }), 400, 'VALIDATION_FAILED');
      expect(changed.errors[0]).toMatchObject({ path: 'body.url', message: expect.stringMatching(/^refused: /) });
    }
    const hook = await call(env.app, 'GET', `${M}/webhooks/${hookId}`, { key });
    expect(hook.body.data.url).toBe('https://93.184.216.34/hook');
    const { count } = await env.ctx.db.kysely
      .selectFrom('webhooks')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(1);
    expect(listener.connections).toBe(0);
  });

  it('refuses them again at every attempt: nothing reaches the listener and no answer is logged', async () => {
    for (const host of [...LOOPBACK_HOSTS, ...OTHER_PRIVATE_HOSTS]) {
      await repoint(url(host));
      const ping = await call(env.app, 'POST', `${M}/webhooks/${hookId}/ping`, { key });
      expect(ping.status, host).toBe(200);
      expect(ping.body.data.status, host).toBe('failed');
      expect(ping.body.data.attempts[0], host).toMatchObject({ status_code: null, response_excerpt: null, error: expect.stringMatching(/^refused: /) });
    }
    expect(listener.requests).toEqual([]);
    expect(listener.connections).toBe(0);
  }, 120_000);

  it('refuses a name that resolves to loopback, alone or among public addresses, at save and at delivery', async () => {
    const dns = fakeResolver({
      'intranet.example': () => ['127.0.0.1'],
      'mixed.example': () => ['93.184.216.34', '127.0.0.1'],
      'mapped.example': () => ['::ffff:7f00:1'],
      'translated.example': () => ['::ffff:0:7f00:1'],
    });
    const ctx: Context = { ...env.ctx, resolveHost: dns.resolve };
    const actor = systemActor(workspaceId, userId);
    for (const name of ['intranet.example', 'mixed.example', 'mapped.example', 'translated.example']) {
      const err = await createWebhook(ctx, actor, { url: url(name), events: ['*'] }).catch((e: unknown) => e);
      expect(err, name).toBeInstanceOf(AppError);
      expect((err as AppError).errors, name).toEqual([
        expect.objectContaining({ path: 'body.url', message: expect.stringMatching(`^refused: ${name} resolves to `) }),
      ]);

      await repoint(url(name));
      const ping = await pingWebhook(ctx, actor, hookId);
      expect(ping.status, name).toBe('failed');
      expect(ping.attempts[0], name).toMatchObject({
        status_code: null,
        response_excerpt: null,
        error: expect.stringMatching(`^refused: ${name} resolves to `),
      });
    }
    expect(dns.asked['intranet.example']).toBe(2);
    expect(listener.connections).toBe(0);
  });

  it('refuses DNS rebinding: a name public when saved and loopback when connected is refused at connect time, by ping and by the worker', async () => {
    const dns = fakeResolver({ 'rebind.example': (n) => (n === 1 ? ['93.184.216.34'] : ['127.0.0.1']) });
    const ctx: Context = { ...env.ctx, resolveHost: dns.resolve };
    const actor = systemActor(workspaceId, userId);
    const hook = await createWebhook(ctx, actor, { url: url('rebind.example'), events: ['entry.published'] });
    expect(dns.asked['rebind.example']).toBe(1);

    const ping = await pingWebhook(ctx, actor, hook.id);
    expect(ping.attempts[0]).toMatchObject({
      status_code: null,
      response_excerpt: null,
      error: 'refused: rebind.example resolves to 127.0.0.1, a loopback address',
    });
    expect(dns.asked['rebind.example']).toBe(2);

    // Only the rebinding webhook gets the event.
    await env.ctx.db.kysely.updateTable('webhooks').set({ enabled: 0 }).where('id', '=', hookId).execute();
    const queued = await withTransaction(env.ctx.db, (db) =>
      enqueueDeliveries(db, {
        id: 1,
        workspaceId,
        type: 'entry.published',
        itemKind: 'entry',
        itemId: '00000000-0000-7000-8000-000000000001',
        slug: 'x',
        contentType: 'post',
        status: 'published',
        version: 1,
        createdAt: new Date().toISOString(),
      }),
    );
    expect(queued).toBe(1);
    expect(await runWebhookWorkerOnce(ctx)).toBe(1);
    const log = await call(env.app, 'GET', `${M}/webhooks/${hook.id}/deliveries`, { key });
    const delivery = log.body.data.find((d: { event_type: string }) => d.event_type === 'entry.published');
    expect(delivery.attempts[0]).toMatchObject({
      status_code: null,
      response_excerpt: null,
      error: 'refused: rebind.example resolves to 127.0.0.1, a loopback address',
    });
    expect(dns.asked['rebind.example']).toBe(3);
    expect(listener.connections).toBe(0);
  });
});

describe.each(dialects())('webhooks with WEBHOOK_ALLOW_PRIVATE set on %s', (dialect) => {
  let env: TestEnv;
  let listener: Listener;
  let second: Listener;
  let key: string;

  beforeAll(async () => {
    env = await createTestEnv(dialect, { config: { ...pick(loadConfig({ WEBHOOK_ALLOW_PRIVATE: '1' })), webhookTimeoutMs: 2000 } });
    key = (await seedWorkspace(env.ctx)).keys.management;
    second = await startListener();
    listener = await startListener((req, res) => {
      if (req.url === '/redirect') res.writeHead(302, { location: `http://127.0.0.1:${second.port}/hook` }).end();
      else res.end('internal secret');
    });
  });
  afterAll(async () => {
    await listener?.close();
    await second?.close();
    await env?.close();
  });

  it('delivers to a loopback receiver', async () => {
    for (const host of ['127.0.0.1', 'localhost']) {
      const created = await call(env.app, 'POST', `${M}/webhooks`, { key, body: { url: `http://${host}:${listener.port}/hook`, events: ['*'] } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const ping = await call(env.app, 'POST', `${M}/webhooks/${created.body.data.id}/ping`, { key });
      expect(ping.body.data).toMatchObject({ status: 'delivered' });
      expect(ping.body.data.attempts[0]).toMatchObject({ status_code: 200, response_excerpt: 'internal secret', error: null });
    }
    expect(listener.requests.length).toBe(2);
  });

  it('never follows a redirect (so not to a private address either)', async () => {
    const created = await call(env.app, 'POST', `${M}/webhooks`, { key, body: { url: `http://127.0.0.1:${listener.port}/redirect`, events: ['*'] } });
    const ping = await call(env.app, 'POST', `${M}/webhooks/${created.body.data.id}/ping`, { key });
    expect(ping.body.data.status).toBe('failed');
    expect(ping.body.data.attempts[0]).toMatchObject({ status_code: 302, error: `redirect to http://127.0.0.1:${second.port}/hook not followed` });
    expect(second.connections).toBe(0);
  });
});

/** The guard's setting as loaded from an environment. */
function pick(config: { webhookAllowPrivate: boolean }) {
  return { webhookAllowPrivate: config.webhookAllowPrivate };
}
