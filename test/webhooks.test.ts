/**
 * Webhooks (docs/api.md "Webhooks" (D82)): CRUD and validation, the webhooks:write scope, the secret shown
 * once and stored sealed, signed deliveries to a real receiver on loopback (verified with
 * standardwebhooks), retries until a failing receiver recovers, the SSRF guard at create and at
 * delivery time, ping, manual retry and the delivery log; both dialects.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../src/db/transaction.js';
import { createMember, createApiKey } from '../src/modules/auth/operations.js';
import { blockedReason } from '../src/modules/webhooks/address-guard.js';
import { checkEventPatterns, matchesEvent } from '../src/modules/webhooks/events.js';
import { enqueueDeliveries, type OutboxEvent } from '../src/modules/webhooks/outbox.js';
import { openSecret } from '../src/modules/webhooks/secrets.js';
import { retryDelayMs, runWebhookWorkerOnce, startWebhookWorker } from '../src/modules/webhooks/worker.js';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from './helpers.js';
import { startReceiver, verify, type Receiver } from './webhook-receiver.js';

const M = '/api/v1/manage';

describe('webhook rules without a database', () => {
  it('refuses loopback, private, link-local, unique-local, multicast and unspecified addresses, IPv4-mapped included', () => {
    const refused = [
      '127.0.0.1',
      '127.255.0.9',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fe80::1%eth0',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '::ffff:a9fe:a9fe',
      '::127.0.0.1',
      '64:ff9b::10.0.0.1',
      'localhost',
    ];
    for (const a of refused) expect(blockedReason(a), a).not.toBeNull();
    for (const a of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '192.169.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '2001:4860:4860::8888'])
      expect(blockedReason(a), a).toBeNull();
    expect(blockedReason('::ffff:192.168.0.1')).toBe('private (IPv4 in IPv6)');
  });

  it('matches event patterns and the content type filter', () => {
    expect(matchesEvent(['*'], [], 'media.deleted', null)).toBe(true);
    expect(matchesEvent(['entry.*'], [], 'entry.published', 'post')).toBe(true);
    expect(matchesEvent(['entry.*'], [], 'page.published', null)).toBe(false);
    expect(matchesEvent(['content_type.*'], [], 'content_type.updated', 'post')).toBe(true);
    expect(matchesEvent(['entry.published'], ['post'], 'entry.published', 'author')).toBe(false);
    expect(matchesEvent(['entry.published', 'page.*'], ['post'], 'page.published', null)).toBe(true);
    expect(checkEventPatterns(['entry.published', 'media.*', '*', 'content_type.deleted'], 'e')).toEqual([]);
    expect(checkEventPatterns(['entry.nope', 'ping', 'user.*'], 'e').map((x) => x.path)).toEqual(['e.0', 'e.1', 'e.2']);
    // An action of every kind that has it (docs/workflow.md: `*.stage_changed`).
    expect(checkEventPatterns(['*.stage_changed', '*.published'], 'e')).toEqual([]);
    expect(checkEventPatterns(['*.nope', '*.*'], 'e').map((x) => x.path)).toEqual(['e.0', 'e.1']);
    expect(matchesEvent(['*.stage_changed'], [], 'page.stage_changed', null)).toBe(true);
    expect(matchesEvent(['*.stage_changed'], ['post'], 'entry.stage_changed', 'post')).toBe(true);
    expect(matchesEvent(['*.stage_changed'], [], 'entry.updated', 'post')).toBe(false);
  });

  it('backs off 5 s, 30 s, 2 min, 10 min, 1 h, then hourly, jittered within 10 %', () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 4, 5, 6, 20].map((n) => retryDelayMs(n, undefined, mid))).toEqual([5_000, 30_000, 120_000, 600_000, 3_600_000, 3_600_000, 3_600_000]);
    expect(retryDelayMs(1, undefined, () => 0)).toBe(4_500);
    expect(retryDelayMs(1, undefined, () => 0.999999)).toBe(5_500);
  });
});

/** An event as recordEvent hands it to the outbox. */
function fakeEvent(workspaceId: string, id: number, type = 'entry.published', contentType: string | null = 'post'): OutboxEvent {
  return {
    id,
    workspaceId,
    type,
    itemKind: type.split('.')[0],
    itemId: `00000000-0000-7000-8000-${String(id).padStart(12, '0')}`,
    slug: `item-${id}`,
    contentType,
    status: 'published',
    version: id,
    createdAt: new Date().toISOString(),
  };
}

describe.each(dialects())('webhooks on %s', (dialect) => {
  let env: TestEnv;
  let receiver: Receiver;
  let key: string;
  let wsId: string;
  let wsSlug: string;

  const req = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, k = key) => call(env.app, method, `${M}${url}`, { key: k, body });
  const createHook = async (body: Record<string, unknown>) => {
    const res = await req('POST', '/webhooks', { url: receiver.url, events: ['*'], ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data as { id: string; secret: string; url: string };
  };

  beforeAll(async () => {
    env = await createTestEnv(dialect, { config: { webhookAllowPrivate: true, webhookTimeoutMs: 2000 } });
    const ws = await seedWorkspace(env.ctx);
    key = ws.keys.management;
    wsId = ws.workspace.id;
    wsSlug = ws.workspace.slug;
    receiver = await startReceiver();
    await req('POST', '/content-types', { name: 'Post', slug: 'post', fields: [{ name: 'title', field_type: 'text' }] });
  });
  afterAll(async () => {
    await receiver?.close();
    await env?.close();
  });

  it('creates, lists, reads, changes and deletes a webhook; the secret is shown once and stored sealed', async () => {
    const created = await createHook({ events: ['entry.published', 'entry.*'], content_types: ['post'], description: 'site rebuild' });
    expect(created).toMatchObject({
      url: receiver.url,
      events: ['entry.published', 'entry.*'],
      content_types: ['post'],
      enabled: true,
      description: 'site rebuild',
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);

    const row = await env.ctx.db.kysely.selectFrom('webhooks').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    const bare = created.secret.slice('whsec_'.length);
    for (const value of Object.values(row)) {
      expect(String(value)).not.toContain(bare);
      expect(String(value)).not.toContain(Buffer.from(bare, 'base64').toString('hex'));
    }
    expect(openSecret(env.ctx.secret, created.id, row.secret_encrypted)).toBe(created.secret);
    expect(() => openSecret(env.ctx.secret, '00000000-0000-7000-8000-000000000000', row.secret_encrypted)).toThrow();

    const one = await req('GET', `/webhooks/${created.id}`);
    expect(one.status).toBe(200);
    expect(one.body.data).not.toHaveProperty('secret');
    expect(JSON.stringify(one.body)).not.toContain(bare);
    const list = await req('GET', '/webhooks?limit=100');
    expect(list.body.data.some((w: { id: string }) => w.id === created.id)).toBe(true);
    expect(list.body.meta).toMatchObject({ current_page: 1 });
    expect(JSON.stringify(list.body)).not.toContain(bare);

    const patched = await req('PATCH', `/webhooks/${created.id}`, { events: ['page.*'], content_types: [], enabled: false, description: null });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ events: ['page.*'], content_types: [], enabled: false, description: null });
    expect(patched.body.data.updated_at >= patched.body.data.created_at).toBe(true);

    expect((await req('DELETE', `/webhooks/${created.id}`)).status).toBe(200);
    expectError(await req('GET', `/webhooks/${created.id}`), 404, 'NOT_FOUND');
    expectError(await req('DELETE', `/webhooks/${created.id}`), 404, 'NOT_FOUND');
  });

  it('refuses bad bodies with every problem named', async () => {
    const bad = expectError(
      await req('POST', '/webhooks', { url: 'ftp://example.com/x', events: ['entry.nope', 'entry.*'], content_types: ['nosuch'] }),
      400,
      'VALIDATION_FAILED',
    );
    expect(bad.errors.map((e: { path: string }) => e.path).sort()).toEqual(['body.content_types.0', 'body.events.0', 'body.url']);
    const empty = expectError(await req('POST', '/webhooks', { url: receiver.url, events: [] }), 400, 'VALIDATION_FAILED');
    expect(empty.errors[0].path).toBe('body.events');
    expectError(await req('POST', '/webhooks', { url: receiver.url, events: ['*'], secret: 'mine' }), 400, 'VALIDATION_FAILED');
    expectError(await req('POST', '/webhooks', { url: 'not a url', events: ['*'] }), 400, 'VALIDATION_FAILED');
    expectError(await req('GET', '/webhooks/not-a-uuid'), 400, 'VALIDATION_FAILED');
    const hook = await createHook({});
    expectError(await req('PATCH', `/webhooks/${hook.id}`, { events: ['ping'] }), 400, 'VALIDATION_FAILED');
    expectError(await req('GET', `/webhooks/${hook.id}/deliveries?status=lost`), 400, 'VALIDATION_FAILED');
  });

  it('needs webhooks:write, for reads too: a key without it and an editor are refused', async () => {
    const hook = await createHook({});
    const owner = await env.ctx.db.kysely
      .selectFrom('memberships')
      .select('user_id')
      .where('workspace_id', '=', wsId)
      .where('role', '=', 'owner')
      .executeTakeFirstOrThrow();
    const contentOnly = await createApiKey(env.ctx, wsId, owner.user_id, { keyClass: 'management', scopes: ['content:write'] });
    const refusal = expectError(await req('GET', '/webhooks', undefined, contentOnly.key), 403, 'FORBIDDEN');
    expect(refusal.message).toContain('webhooks:write');
    expectError(await req('POST', '/webhooks', { url: receiver.url, events: ['*'] }, contentOnly.key), 403, 'FORBIDDEN');
    expectError(await req('POST', `/webhooks/${hook.id}/ping`, undefined, contentOnly.key), 403, 'FORBIDDEN');
    const editor = await createMember(env.ctx, wsSlug, `editor-${dialect}@example.com`, 'editor');
    const editorKey = await createApiKey(env.ctx, wsId, editor.id, { keyClass: 'management' });
    const byRole = expectError(await req('GET', `/webhooks/${hook.id}`, undefined, editorKey.key), 403, 'FORBIDDEN');
    expect(byRole.message).toContain("role 'editor'");
    // Another workspace's webhook does not exist for this key.
    const other = await seedWorkspace(env.ctx);
    expectError(await req('GET', `/webhooks/${hook.id}`, undefined, other.keys.management), 404, 'NOT_FOUND');
  });

  it('pings a real receiver with a Standard Webhooks signature it verifies, and logs the attempt', async () => {
    const hook = await createHook({});
    const before = receiver.received.length;
    const res = await req('POST', `/webhooks/${hook.id}/ping`);
    expect(res.status).toBe(200);
    const delivery = res.body.data;
    expect(delivery).toMatchObject({ webhook_id: hook.id, event_id: null, event_type: 'ping', status: 'delivered', attempt_count: 1, next_attempt_at: null });
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0]).toMatchObject({ number: 1, status_code: 200, response_excerpt: 'thanks', error: null });
    expect(delivery.attempts[0].duration_ms).toBeGreaterThanOrEqual(0);

    const got = receiver.received[before];
    expect(got.headers['webhook-id']).toBe(delivery.id);
    expect(got.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    expect(verify(hook.secret, got)).toEqual({
      type: 'ping',
      timestamp: expect.any(String),
      workspace_id: wsId,
      data: { id: hook.id, slug: null, status: null, version: null },
    });
    expect(() => verify('whsec_' + Buffer.alloc(24).toString('base64'), got)).toThrow();
  });

  it('rotates the secret: the new one answered once, both signing for the grace period, then only the new one', async () => {
    const hook = await createHook({});
    const ping = async () => {
      const res = await req('POST', `/webhooks/${hook.id}/ping`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return receiver.received.find((r) => r.headers['webhook-id'] === res.body.data.id)!;
    };
    const stored = () => env.ctx.db.kysely.selectFrom('webhooks').selectAll().where('id', '=', hook.id).executeTakeFirstOrThrow();
    const before = Date.now();
    const rotated = await req('POST', `/webhooks/${hook.id}/rotate-secret`);
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    const first = rotated.body.data as { id: string; secret: string; previous_secret_expires_at: string };
    expect(first).toMatchObject({ id: hook.id, url: hook.url, secret: expect.stringMatching(/^whsec_/) });
    expect(first.secret).not.toBe(hook.secret);
    // 24 hours by default.
    expect(Date.parse(first.previous_secret_expires_at) - before).toBeGreaterThanOrEqual(86_400_000 - 1000);
    expect(Date.parse(first.previous_secret_expires_at) - Date.now()).toBeLessThanOrEqual(86_400_000);
    // Sealed like the current secret; a read never shows either.
    const row = await stored();
    expect(row.previous_secret_expires_at).toBe(first.previous_secret_expires_at);
    expect(openSecret(env.ctx.secret, hook.id, row.previous_secret_encrypted!)).toBe(hook.secret);
    expect(openSecret(env.ctx.secret, hook.id, row.secret_encrypted)).toBe(first.secret);
    expect(JSON.stringify(row)).not.toContain(hook.secret.slice(6));
    expect(JSON.stringify((await req('GET', `/webhooks/${hook.id}`)).body)).not.toMatch(/secret/);

    // Grace period: two space-separated signatures, the new secret's first; either secret verifies.
    const both = await ping();
    const signatures = both.headers['webhook-signature'].split(' ');
    expect(signatures).toHaveLength(2);
    expect(verify(first.secret, { ...both, headers: { ...both.headers, 'webhook-signature': signatures[0] } })).toMatchObject({ type: 'ping' });
    expect(verify(hook.secret, { ...both, headers: { ...both.headers, 'webhook-signature': signatures[1] } })).toMatchObject({ type: 'ping' });
    expect(verify(hook.secret, both)).toMatchObject({ type: 'ping' });
    expect(verify(first.secret, both)).toMatchObject({ type: 'ping' });

    // Idempotency-Key is ignored: the same key rotates again, with a new secret, not a replay.
    const idem = { 'idempotency-key': '0f6f3d56-8a51-4b0f-9a4c-1f2e3d4c5b6a' };
    const again = await call(env.app, 'POST', `${M}/webhooks/${hook.id}/rotate-secret`, { key, body: { grace_seconds: 60 }, headers: idem });
    const replay = await call(env.app, 'POST', `${M}/webhooks/${hook.id}/rotate-secret`, { key, body: { grace_seconds: 60 }, headers: idem });
    expect(again.status).toBe(200);
    expect(replay.status).toBe(200);
    expect(replay.body.data.secret).not.toBe(again.body.data.secret);
    expect(Date.parse(replay.body.data.previous_secret_expires_at) - Date.now()).toBeLessThanOrEqual(60_000);
    // Only the secret being replaced is kept: the original and the first rotation's no longer sign.
    const now = await ping();
    expect(verify(replay.body.data.secret, now)).toMatchObject({ type: 'ping' });
    expect(verify(again.body.data.secret, now)).toMatchObject({ type: 'ping' });
    expect(() => verify(hook.secret, now)).toThrow();
    expect(() => verify(first.secret, now)).toThrow();

    // After the grace period only the new secret signs, and the worker's next pass drops the old one.
    await env.ctx.db.kysely
      .updateTable('webhooks')
      .set({ previous_secret_expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', hook.id)
      .execute();
    const after = await ping();
    expect(after.headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(verify(replay.body.data.secret, after)).toMatchObject({ type: 'ping' });
    expect(() => verify(again.body.data.secret, after)).toThrow();
    await runWebhookWorkerOnce(env.ctx);
    expect(await stored()).toMatchObject({ previous_secret_encrypted: null, previous_secret_expires_at: null });

    // grace_seconds 0: the replaced secret stops at once.
    const sharp = await req('POST', `/webhooks/${hook.id}/rotate-secret`, { grace_seconds: 0 });
    expect(sharp.body.data.previous_secret_expires_at).toBeNull();
    const single = await ping();
    expect(single.headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(verify(sharp.body.data.secret, single)).toMatchObject({ type: 'ping' });
    expect(() => verify(replay.body.data.secret, single)).toThrow();
  });

  it('two rotations at once both hold: each answered secret still signs', async () => {
    const hook = await createHook({});
    const [a, b] = await Promise.all([req('POST', `/webhooks/${hook.id}/rotate-secret`), req('POST', `/webhooks/${hook.id}/rotate-secret`)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const res = await req('POST', `/webhooks/${hook.id}/ping`);
    const got = receiver.received.find((r) => r.headers['webhook-id'] === res.body.data.id)!;
    expect(verify(a.body.data.secret, got)).toMatchObject({ type: 'ping' });
    expect(verify(b.body.data.secret, got)).toMatchObject({ type: 'ping' });
  });

  it('refuses a grace period out of bounds or other body keys, and an unknown webhook', async () => {
    const hook = await createHook({});
    for (const body of [{ grace_seconds: 604_801 }, { grace_seconds: -1 }, { grace_seconds: 1.5 }, { grace_seconds: '60' }, { grace: 60 }]) {
      const err = expectError(await req('POST', `/webhooks/${hook.id}/rotate-secret`, body), 400, 'VALIDATION_FAILED');
      expect(err.errors[0].path).toMatch(/^body/);
    }
    const longest = await req('POST', `/webhooks/${hook.id}/rotate-secret`, { grace_seconds: 604_800 });
    expect(longest.status).toBe(200);
    expectError(await req('POST', `/webhooks/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}/rotate-secret`), 404, 'NOT_FOUND');
  });

  it('delivers every event to a receiver that fails with 500s and recovers; the log keeps each attempt', async () => {
    // Only this webhook receives the events below.
    await env.ctx.db.kysely.deleteFrom('webhooks').where('workspace_id', '=', wsId).execute();
    const hook = await createHook({ events: ['entry.*'], content_types: ['post'] });
    const mine = (r: { json: any }) => r.json?.data?.id?.startsWith('00000000-0000-7000-8000-0000000001');
    let failures = 0;
    receiver.respond = (_n, r) => (mine(r) && failures++ < 5 ? 500 : 200);
    // Matching events, one of another content type (filtered out) and one in a rolled-back write.
    await withTransaction(env.ctx.db, async (db) => {
      for (let i = 1; i <= 3; i++) await enqueueDeliveries(db, fakeEvent(wsId, 100 + i));
      expect(await enqueueDeliveries(db, fakeEvent(wsId, 110, 'entry.published', 'author'))).toBe(0);
    });
    await expect(
      withTransaction(env.ctx.db, async (db) => {
        await enqueueDeliveries(db, fakeEvent(wsId, 120));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const worker = startWebhookWorker(env.ctx, { backoffMs: [30, 60], pollMs: 20 });
    try {
      const got = await receiver.waitFor(8, mine);
      const ids = new Set(got.map((r) => r.json.data.id));
      expect([...ids].sort()).toEqual([101, 102, 103].map((n) => `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`));
      for (const r of got)
        expect(verify(hook.secret, r)).toMatchObject({ type: 'entry.published', workspace_id: wsId, data: { content_type: 'post', status: 'published' } });
      // Wait until every delivery is delivered.
      for (let i = 0; i < 200; i++) {
        const log = await req('GET', `/webhooks/${hook.id}/deliveries?status=delivered`);
        if (log.body.meta.total_data === 3) break;
        await new Promise((r) => setTimeout(r, 25));
      }
    } finally {
      await worker.stop();
      receiver.respond = () => 200;
    }
    const log = await req('GET', `/webhooks/${hook.id}/deliveries?limit=100`);
    expect(log.status).toBe(200);
    expect(log.body.meta).toMatchObject({ total_data: 3, current_page: 1 });
    expect(log.body.data.every((d: { status: string }) => d.status === 'delivered')).toBe(true);
    const attempts = log.body.data.flatMap((d: { attempts: unknown[] }) => d.attempts);
    expect(attempts).toHaveLength(8);
    const failed = attempts.filter((a: { status_code: number }) => a.status_code === 500);
    expect(failed).toHaveLength(5);
    for (const a of failed) {
      expect(a.error).toBe('answered HTTP 500');
      expect(Buffer.byteLength(a.response_excerpt)).toBe(1024);
    }
    const page = await req('GET', `/webhooks/${hook.id}/deliveries?limit=1&page=2`);
    expect(page.body.data).toHaveLength(1);
    expect(page.body.meta).toMatchObject({ total_data: 3, current_page: 2, total_pages: 3 });
  });

  it('retries a failed delivery by hand; a ping that fails is logged, not retried', async () => {
    const hook = await createHook({});
    receiver.respond = () => 503;
    const ping = await req('POST', `/webhooks/${hook.id}/ping`);
    expect(ping.body.data).toMatchObject({ status: 'failed', attempt_count: 1, next_attempt_at: null });
    expect(ping.body.data.attempts[0]).toMatchObject({ status_code: 503, error: 'answered HTTP 503' });
    receiver.respond = () => 200;
    const retried = await req('POST', `/webhooks/${hook.id}/deliveries/${ping.body.data.id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body.data).toMatchObject({ id: ping.body.data.id, status: 'delivered', attempt_count: 2 });
    expect(retried.body.data.attempts.map((a: { number: number; status_code: number }) => [a.number, a.status_code])).toEqual([
      [2, 200],
      [1, 503],
    ]);
    const again = receiver.received.filter((r) => r.headers['webhook-id'] === ping.body.data.id);
    expect(again).toHaveLength(2);
    expect(verify(hook.secret, again[1])).toMatchObject({ type: 'ping' });
    expectError(await req('POST', `/webhooks/${hook.id}/deliveries/00000000-0000-7000-8000-000000000000/retry`), 404, 'NOT_FOUND');
  });

  it('logs a network failure and a redirect, which is never followed', async () => {
    const down = await createHook({ url: 'http://127.0.0.1:9/closed' });
    const res = await req('POST', `/webhooks/${down.id}/ping`);
    expect(res.body.data.status).toBe('failed');
    expect(res.body.data.attempts[0]).toMatchObject({ status_code: null, response_excerpt: null });
    expect(res.body.data.attempts[0].error).toMatch(/ECONNREFUSED/);
    const hook = await createHook({});
    receiver.respond = () => 302;
    const redirected = await req('POST', `/webhooks/${hook.id}/ping`);
    receiver.respond = () => 200;
    expect(redirected.body.data.attempts[0]).toMatchObject({ status_code: 302, error: 'redirect not followed' });
  });
});

describe.each(dialects())('webhook SSRF guard on %s (WEBHOOK_ALLOW_PRIVATE off)', (dialect) => {
  let env: TestEnv;
  let receiver: Receiver;
  let key: string;
  beforeAll(async () => {
    env = await createTestEnv(dialect, { config: { webhookAllowPrivate: false, webhookTimeoutMs: 2000 } });
    key = (await seedWorkspace(env.ctx)).keys.management;
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await env?.close();
  });

  it('refuses private targets when the webhook is created or changed', async () => {
    for (const url of [
      receiver.url,
      'http://localhost:8080/x',
      'http://[::1]/x',
      'http://[::ffff:127.0.0.1]/x',
      'http://10.0.0.5/x',
      'https://169.254.169.254/latest',
      'http://[fd00::1]/',
    ]) {
      const res = expectError(await call(env.app, 'POST', `${M}/webhooks`, { key, body: { url, events: ['*'] } }), 400, 'VALIDATION_FAILED');
      expect(res.errors[0].path).toBe('body.url');
      expect(res.errors[0].message).toMatch(/^refused: /);
    }
  });

  it('refuses them again at delivery time (a stored URL now pointing at a private address)', async () => {
    // As if created while allowed, or as if its host now resolved elsewhere: write the row directly.
    const created = await call(env.app, 'POST', `${M}/webhooks`, { key, body: { url: 'https://93.184.216.34/hook', events: ['*'] } });
    expect(created.status).toBe(201);
    for (const url of [receiver.url, `http://localhost:${new URL(receiver.url).port}/hook`]) {
      await env.ctx.db.kysely.updateTable('webhooks').set({ url }).where('id', '=', created.body.data.id).execute();
      const before = receiver.received.length;
      const ping = await call(env.app, 'POST', `${M}/webhooks/${created.body.data.id}/ping`, { key });
      expect(ping.body.data.status).toBe('failed');
      expect(ping.body.data.attempts[0].error).toMatch(/^refused: .*loopback/);
      expect(receiver.received.length).toBe(before);
    }
  });
});
