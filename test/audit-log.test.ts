/**
 * The audit log (docs/access.md "Audit log" (D122); migration 029, src/modules/audit/): every
 * covered action writes exactly one row in its own transaction, naming the actor (a person in a
 * session, a key with its creator, the system for jobs and the CLI), the target and the request;
 * a write that fails writes none; failed sign-ins are recorded on their own. GET /audit-log:
 * filters, cursor pages, owners and admins in a session only. The retention prune and
 * `quire audit export` (NDJSON).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRow } from '../src/modules/audit/repository.js';
import { sql } from 'kysely';
import { createDb } from '../src/db/create-db.js';
import { withTransaction } from '../src/db/transaction.js';
import { pruneAuditLog } from '../src/modules/audit/operations.js';
import { authenticate } from '../src/modules/auth/operations.js';
import { updateEntry } from '../src/modules/entries/operations.js';
import { runSchedulerOnce } from '../src/modules/publishing/scheduler.js';
import { cli } from './cli-helpers.js';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from './helpers.js';
import { png, upload } from './media-fixtures.js';
import { ARTICLE_TYPE, M } from './pages-fixtures.js';
import { Browser, memberWithPassword, PASSWORD, signedIn } from './studio-helpers.js';

describe.each(dialects())('audit log on %s', (dialect) => {
  let env: TestEnv;
  let now = new Date('2026-06-01T12:00:00.000Z');
  let s: Awaited<ReturnType<typeof seedWorkspace>>;
  let owner: Browser;
  let keyId: string;
  const seen = new Set<string>();

  beforeAll(async () => {
    env = await createTestEnv(dialect, { clock: () => now, config: { webhookAllowPrivate: true } });
    s = await seedWorkspace(env.ctx);
    await memberWithPassword(env.ctx, s.workspace.slug, 'owner', `boss-${dialect}@example.com`);
    owner = await signedIn(env.app, `boss-${dialect}@example.com`, s.workspace.id);
    keyId = (
      await env.ctx.db.kysely
        .selectFrom('api_keys')
        .select('id')
        .where('name', '=', 'bootstrap management key')
        .where('workspace_id', '=', s.workspace.id)
        .executeTakeFirstOrThrow()
    ).id;
    await newRows();
  });
  afterAll(async () => env?.close());

  /** The rows recorded since the last call, oldest first. */
  async function newRows(): Promise<AuditRow[]> {
    const rows = await env.ctx.db.kysely.selectFrom('audit_log').selectAll().orderBy('at').orderBy('id').execute();
    const fresh = rows.filter((r) => !seen.has(r.id));
    for (const r of fresh) seen.add(r.id);
    return fresh;
  }
  /** Runs `write` (which must answer `status`) and returns the one row it recorded. */
  async function oneRow(write: () => Promise<{ status: number; body: unknown }>, status = 200): Promise<AuditRow> {
    const res = await write();
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    const rows = await newRows();
    expect(rows.map((r) => r.action)).toHaveLength(1);
    return rows[0];
  }
  const key = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown, headers?: Record<string, string>) =>
    call(env.app, method, `${M}${url}`, { key: s.keys.management, body, headers });
  const E = '/content-types/article/entries';

  it('content writes by a key: one row each, the key as actor with its creator, changed field names only', async () => {
    const ct = await oneRow(() => key('POST', '/content-types', ARTICLE_TYPE), 201);
    expect(ct).toMatchObject({
      workspace_id: s.workspace.id,
      action: 'content_type.created',
      actor_type: 'key',
      actor_id: keyId,
      actor_label: 'bootstrap management key',
      target_kind: 'content_type',
      target_slug: 'article',
      changed_fields: null,
    });
    expect(Number(ct.actor_user_id)).toBe(s.user.id);
    expect(ct.request_id).toMatch(/^req_/);
    expect(ct.ip).toBe('127.0.0.1');
    const field = await oneRow(() => key('POST', '/content-types/article/fields', { name: 'body', field_type: 'textarea' }), 201);
    expect(field).toMatchObject({ action: 'field.created', target_kind: 'field', target_slug: 'article.body' });
    expect((await oneRow(() => key('PATCH', '/content-types/article', { description: 'Posts' }))).changed_fields).toBe('["description"]');

    const created = await oneRow(() => key('POST', E, { slug: 'a', data: { title: 'A', summary: 'S' } }), 201);
    expect(created).toMatchObject({ action: 'entry.created', target_kind: 'entry', target_slug: 'a' });
    const updated = await oneRow(() =>
      key('PUT', `${E}/a`, { slug: 'a2', data: { title: 'A2', summary: 'S' }, translations: { de: { data: { summary: 'Z' } } } }),
    );
    expect(updated).toMatchObject({ action: 'entry.updated', target_id: created.target_id, target_slug: 'a2' });
    expect(JSON.parse(updated.changed_fields!)).toEqual(['slug', 'summary', 'title']);
    // Values never reach the log.
    expect(JSON.stringify(updated)).not.toContain('A2"');
    for (const [verb, action, body] of [
      ['publish', 'entry.published', undefined],
      ['unpublish', 'entry.unpublished', undefined],
      ['archive', 'entry.archived', undefined],
      ['schedule', 'entry.scheduled', { publish_at: '2026-06-01T13:00:00.000Z' }],
    ] as const) {
      expect((await oneRow(() => key('PATCH', `${E}/a2/${verb}`, body))).action).toBe(action);
    }
    expect((await oneRow(() => key('POST', `${E}/a2/versions/1/restore`))).action).toBe('entry.restored');
    expect((await oneRow(() => key('POST', `${E}/a2/duplicate`), 201)).target_slug).toBe('a2-copy');
    expect((await oneRow(() => key('DELETE', `${E}/a2-copy`))).action).toBe('entry.deleted');

    // Bulk: one row per item.
    const ids: string[] = [];
    for (const slug of ['b1', 'b2']) ids.push((await key('POST', E, { slug, data: { title: slug } })).body.data.id);
    await newRows();
    expect((await key('PATCH', `${E}/bulk`, { ids, action: 'publish' })).status).toBe(200);
    expect((await newRows()).map((r) => [r.action, r.target_slug])).toEqual([
      ['entry.published', 'b1'],
      ['entry.published', 'b2'],
    ]);

    const page = await oneRow(() => key('POST', '/pages', { slug: 'home', seo: { title: 'Home' }, blocks: [] }), 201);
    expect(page).toMatchObject({ action: 'page.created', target_kind: 'page', target_slug: 'home' });
    expect(JSON.parse((await oneRow(() => key('PATCH', '/pages/home', { seo: { title: 'Start' } }))).changed_fields!)).toEqual(['seo']);
    expect((await oneRow(() => key('DELETE', '/pages/home'))).action).toBe('page.deleted');

    const file = { name: 'file', filename: 'x.png', data: await png(4, 3), contentType: 'image/png' };
    const media = await oneRow(() => upload(env.app, { key: s.keys.management, workspaceId: s.workspace.id, parts: [file] }), 201);
    expect(media).toMatchObject({ action: 'media.created', target_kind: 'media', target_slug: 'x.png', actor_type: 'key' });
    const h = { 'x-workspace-id': s.workspace.id };
    expect(JSON.parse((await oneRow(() => key('PUT', `/media/${media.target_id}`, { alt_text: 'Alt' }, h))).changed_fields!)).toEqual(['alt_text']);
    expect((await oneRow(() => key('DELETE', `/media/${media.target_id}`, undefined, h))).action).toBe('media.deleted');
  });

  it('a write that fails records nothing: validation, a refused state change, a rolled-back transaction', async () => {
    expectError(await key('POST', E, { slug: 'bad', data: { title: 42 } }), 400, 'VALIDATION_FAILED');
    expectError(await key('PUT', `${E}/b1`, { data: { title: 'x' } }, { 'if-match': '"nope-1"' }), 412, 'PRECONDITION_FAILED');
    expectError(await key('PATCH', `${E}/b1/publish`), 409, 'INVALID_STATE_TRANSITION');
    expectError(await key('DELETE', '/content-types/article'), 409, 'CONTENT_TYPE_NOT_EMPTY');
    // A write that succeeded inside a transaction that then rolls back leaves neither change nor row.
    const actor = await authenticate(env.ctx, s.keys.management, 'management');
    await expect(
      withTransaction(env.ctx.db, async (db) => {
        await updateEntry({ ...env.ctx, db }, actor, 'article', { slug: 'b1' }, { data: { title: 'rolled back' } });
        expect((await db.kysely.selectFrom('audit_log').select('id').where('action', '=', 'entry.updated').execute()).length).toBeGreaterThan(0);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(JSON.parse((await key('GET', `${E}/b1`)).body.data.data)).toEqual({ title: 'b1' });
    expect(await newRows()).toEqual([]);
  });

  it('the scheduler publishes as the system', async () => {
    await key('POST', E, { slug: 'later', data: { title: 'Later' } });
    await key('PATCH', `${E}/later/schedule`, { publish_at: new Date(now.getTime() + 60_000).toISOString() });
    await newRows();
    now = new Date(now.getTime() + 3 * 3_600_000);
    await runSchedulerOnce(env.ctx);
    const rows = await newRows();
    // a2 was scheduled for 13:00 in the first test: both are due now.
    expect(rows.map((r) => [r.action, r.target_slug]).sort()).toEqual([
      ['entry.published', 'a2'],
      ['entry.published', 'later'],
    ]);
    for (const r of rows) expect(r).toMatchObject({ actor_type: 'system', actor_id: null, actor_label: 'scheduler', ip: null, request_id: null });
  });

  it('sign-in, failed sign-in (known and unknown email), sign-out and password change, with the request', async () => {
    // Another owner: a password change ends every session of its person.
    const { email } = await memberWithPassword(env.ctx, s.workspace.slug, 'owner');
    await newRows();
    const b = new Browser(env.app);
    const res = await b.signIn(email, PASSWORD);
    const signIn = (await newRows())[0];
    expect(signIn).toMatchObject({ workspace_id: '', action: 'session.sign_in', actor_type: 'user', actor_label: email, target_kind: 'user', ip: b.address });
    expect(signIn.request_id).toBe(res.headers['x-request-id']);
    expect(signIn.user_agent).toBeTruthy();

    const bad = await oneRow(() => new Browser(env.app).signIn(email, 'wrong password!'), 401);
    expect(bad).toMatchObject({ action: 'session.sign_in_failed', target_kind: 'user', target_id: signIn.target_id, target_slug: email, workspace_id: '' });
    const unknown = await oneRow(() => new Browser(env.app).signIn('nobody@example.com', 'whatever pass'), 401);
    expect(unknown).toMatchObject({ action: 'session.sign_in_failed', target_id: null, target_slug: 'nobody@example.com' });
    expect(JSON.stringify(unknown)).not.toContain('whatever pass');

    b.workspaceId = s.workspace.id;
    const changed = await b.call('POST', `${M}/session/password`, { body: { current_password: PASSWORD, password: PASSWORD } });
    expect(changed.status).toBe(200);
    expect((await newRows()).map((r) => r.action)).toEqual(['password.changed']);
    expect((await oneRow(() => b.call('DELETE', `${M}/session`))).action).toBe('session.sign_out');
  });

  it('people, keys, settings, webhooks and releases in a session: the person as actor', async () => {
    const userId = String(
      owner.workspaceId &&
        (await env.ctx.db.kysely.selectFrom('users').select('id').where('email', '=', `boss-${dialect}@example.com`).executeTakeFirstOrThrow()).id,
    );
    const settings = await oneRow(() => owner.call('PATCH', `${M}/workspace`, { body: { name: 'Renamed' } }));
    expect(settings).toMatchObject({
      action: 'workspace.settings_updated',
      actor_type: 'user',
      actor_id: userId,
      changed_fields: '["name"]',
      ip: owner.address,
    });

    const created = await owner.call('POST', `${M}/api-keys`, { body: { name: 'ci', key_class: 'delivery' } });
    expect(created.status).toBe(201);
    const keyRow = (await newRows())[0];
    expect(keyRow).toMatchObject({ action: 'key.created', target_kind: 'key', target_slug: 'ci', actor_type: 'user' });
    expect(JSON.stringify(keyRow)).not.toContain(created.body.data.key);
    expect((await oneRow(() => owner.call('DELETE', `${M}/api-keys/${created.body.data.id}`))).action).toBe('key.revoked');

    // An invitation accepted by setting a first password: the invited person is the actor.
    const accepted = await owner.call('POST', `${M}/users/invitations`, { body: { email: `joiner-${dialect}@example.com`, role: 'author' } });
    await newRows();
    const token = new URL(accepted.body.data.invitation_url).searchParams.get('token');
    const joiner = new Browser(env.app);
    const acceptance = await oneRow(() => joiner.call('POST', `${M}/session/password`, { body: { token, password: PASSWORD } }));
    expect(acceptance.ip).toBe(joiner.address);
    expect(acceptance).toMatchObject({
      action: 'invitation.accepted',
      actor_type: 'user',
      actor_label: `joiner-${dialect}@example.com`,
      workspace_id: s.workspace.id,
    });
    const inv = await owner.call('POST', `${M}/users/invitations`, { body: { email: 'new@example.com', role: 'editor' } });
    expect(inv.status).toBe(201);
    expect((await newRows()).map((r) => r.action)).toEqual(['invitation.created']);
    const invitationId = (await owner.call('GET', `${M}/users`)).body.data.find((m: { email: string }) => m.email === 'new@example.com').invitation_id;
    await newRows();
    expect(invitationId).toBeTruthy();
    expect((await oneRow(() => owner.call('DELETE', `${M}/users/invitations/${invitationId}`))).action).toBe('invitation.cancelled');
    const editor = await memberWithPassword(env.ctx, s.workspace.slug, 'editor');
    await newRows();
    const role = await oneRow(() => owner.call('PATCH', `${M}/users/${editor.id}`, { body: { role: 'author' } }));
    expect(role).toMatchObject({ action: 'member.role_changed', target_id: String(editor.id), target_slug: editor.email, changed_fields: '["role"]' });
    expect((await oneRow(() => owner.call('DELETE', `${M}/users/${editor.id}`))).action).toBe('member.removed');

    const hook = await owner.call('POST', `${M}/webhooks`, { body: { url: 'http://127.0.0.1:9/hook?token=s3cret', events: ['*'] } });
    expect(hook.status).toBe(201);
    const hookRow = (await newRows())[0];
    expect(hookRow).toMatchObject({ action: 'webhook.created', target_slug: '127.0.0.1:9' });
    const hookId = hook.body.data.id;
    expect((await oneRow(() => owner.call('PATCH', `${M}/webhooks/${hookId}`, { body: { enabled: false } }))).changed_fields).toBe('["enabled"]');
    const rotated = await owner.call('POST', `${M}/webhooks/${hookId}/rotate-secret`, { body: {} });
    expect(rotated.status).toBe(200);
    const rotation = (await newRows())[0];
    expect(rotation.action).toBe('webhook.secret_rotated');
    for (const secret of [hook.body.data.secret, rotated.body.data.secret, 's3cret']) expect(JSON.stringify([hookRow, rotation])).not.toContain(secret);
    expect((await oneRow(() => owner.call('DELETE', `${M}/webhooks/${hookId}`))).action).toBe('webhook.deleted');

    const rel = await owner.call('POST', `${M}/releases`, { body: { title: 'Launch' } });
    expect(rel.status).toBe(201);
    expect((await newRows()).map((r) => [r.action, r.target_slug])).toEqual([['release.created', 'Launch']]);
    const relId = rel.body.data.id;
    expect((await oneRow(() => owner.call('PATCH', `${M}/releases/${relId}`, { body: { title: 'Launch 2' } }))).changed_fields).toBe('["title"]');
    const entryId = (await key('GET', `${E}/b1`)).body.data.id;
    await newRows();
    expect((await oneRow(() => owner.call('POST', `${M}/releases/${relId}/items`, { body: { kind: 'entry', id: entryId, action: 'unpublish' } }))).action).toBe(
      'release.item_added',
    );
    const b2 = (await key('GET', `${E}/b2`)).body.data.id;
    await owner.call('POST', `${M}/releases/${relId}/items`, { body: { kind: 'entry', id: b2, action: 'publish' } });
    await newRows();
    const variant = await oneRow(() => owner.call('PUT', `${M}${E}/b2?release=${relId}`, { body: { data: { title: 'b2 next' } } }));
    expect(variant).toMatchObject({ action: 'release.item_updated', target_kind: 'release', target_id: relId, changed_fields: '["title"]' });
    const at = new Date(now.getTime() + 3_600_000).toISOString();
    expect((await oneRow(() => owner.call('POST', `${M}/releases/${relId}/schedule`, { body: { publish_at: at } }))).action).toBe('release.scheduled');
    expect((await oneRow(() => owner.call('POST', `${M}/releases/${relId}/unschedule`))).action).toBe('release.unscheduled');
    expect((await oneRow(() => owner.call('POST', `${M}/releases/${relId}/publish`))).action).toBe('release.published');
    expect((await oneRow(() => owner.call('POST', `${M}/releases/${relId}/revert`, { body: {} }))).action).toBe('release.reverted');
  });

  it('GET /audit-log: owners and admins in a session; filters; cursor pages', async () => {
    const editor = await memberWithPassword(env.ctx, s.workspace.slug, 'editor');
    const eb = await signedIn(env.app, editor.email, s.workspace.id);
    expectError(await eb.call('GET', `${M}/audit-log`), 403, 'FORBIDDEN');
    expectError(await key('GET', '/audit-log'), 403, 'FORBIDDEN');
    expectError(await call(env.app, 'GET', `${M}/audit-log`), 401, 'UNAUTHORIZED');

    const all: { id: string; at: string; action: string; actor: { type: string; id: string | null }; target: { kind: string; id: string | null } }[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: any } = await owner.call('GET', `${M}/audit-log?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.status).toBe(200);
      all.push(...page.body.data);
      cursor = page.body.meta.next_cursor;
    } while (cursor);
    const stored = await env.ctx.db.kysely.selectFrom('audit_log').select('id').where('workspace_id', '=', s.workspace.id).execute();
    // Every row of the workspace once, plus the members' sign-in rows; newest first.
    expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
    for (const r of stored) expect(all.some((a) => a.id === r.id)).toBe(true);
    expect(all.some((r) => r.action === 'session.sign_in_failed' && r.target.id !== null)).toBe(true);
    expect(all.some((r) => r.action === 'session.sign_in_failed' && r.target.id === null)).toBe(false);
    expect(all.map((r) => r.at)).toEqual([...all.map((r) => r.at)].sort().reverse());

    const q = async (query: string) => {
      const res = await owner.call('GET', `${M}/audit-log?limit=100&${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data as typeof all;
    };
    const entries = await q('action=entry.*');
    expect(entries.length).toBeGreaterThan(5);
    expect(entries.every((r) => r.action.startsWith('entry.'))).toBe(true);
    expect((await q('action=entry.updated')).every((r) => r.action === 'entry.updated')).toBe(true);
    expect((await q('action=entry_x.*')).length).toBe(0);
    // Members' sign-ins come from the installation-wide rows, merged into the workspace's order.
    const sessions = await q('action=session.*');
    expect(sessions.length).toBeGreaterThan(2);
    expect(sessions.every((r) => r.action.startsWith('session.'))).toBe(true);
    expect(sessions.map((r) => r.at)).toEqual([...sessions.map((r) => r.at)].sort().reverse());
    const ownerRows = await q(`target=user:${sessions[0].target.id}`);
    expect(ownerRows.length).toBeGreaterThan(0);
    expect(ownerRows.every((r) => r.target.kind === 'user' && r.target.id === sessions[0].target.id)).toBe(true);
    const byKey = await q(`actor=key:${keyId}`);
    expect(byKey.length).toBeGreaterThan(0);
    expect(byKey.every((r) => r.actor.type === 'key' && r.actor.id === keyId)).toBe(true);
    expect((await q('actor=system')).every((r) => r.actor.type === 'system')).toBe(true);
    const target = entries[0].target;
    expect((await q(`target=${target.kind}:${target.id}`)).every((r) => r.target.id === target.id)).toBe(true);
    const mid = all[Math.floor(all.length / 2)].at;
    const before = await q(`to=${encodeURIComponent(mid)}`);
    const after = await q(`from=${encodeURIComponent(mid)}`);
    expect(before.every((r) => r.at < mid) && after.every((r) => r.at >= mid)).toBe(true);
    expect(before.length + after.length).toBe(all.length);

    const first: { body: any } = await owner.call('GET', `${M}/audit-log?limit=2&action=entry.*`);
    const next = first.body.meta.next_cursor as string;
    expectError(await owner.call('GET', `${M}/audit-log?limit=2&cursor=${encodeURIComponent(next)}`), 400, 'VALIDATION_FAILED');
    expectError(await owner.call('GET', `${M}/audit-log?cursor=${encodeURIComponent(`${next}x`)}&action=entry.*`), 400, 'VALIDATION_FAILED');
    for (const bad of ['actor=robot', 'action=Entry', 'target=entry:', 'from=yesterday', 'from=2026-06-02T00:00:00Z&to=2026-06-01T00:00:00Z']) {
      expectError(await owner.call('GET', `${M}/audit-log?${bad}`), 400, 'VALIDATION_FAILED');
    }
    // Read-only: no route writes or deletes rows.
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) expect((await owner.call(method, `${M}/audit-log`)).status).toBe(405);
  });

  it('retention: rows older than AUDIT_RETENTION_DAYS are pruned, newer ones kept; 0 keeps all', async () => {
    const old = { ...(await env.ctx.db.kysely.selectFrom('audit_log').selectAll().limit(1).executeTakeFirstOrThrow()) };
    const rows = Array.from({ length: 3 }, (_, i) => ({
      ...old,
      id: `00000000-0000-7000-8000-00000000000${i}`,
      at: new Date(now.getTime() - (400 + i) * 86_400_000).toISOString(),
    }));
    await env.ctx.db.kysely.insertInto('audit_log').values(rows).execute();
    const count = async () =>
      Number(
        (
          await env.ctx.db.kysely
            .selectFrom('audit_log')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const total = await count();
    expect(await pruneAuditLog({ ...env.ctx, config: { ...env.ctx.config, auditRetentionDays: 0 } })).toBe(0);
    expect(await pruneAuditLog(env.ctx)).toBe(3);
    expect(await count()).toBe(total - 3);
    expect(await pruneAuditLog(env.ctx)).toBe(0);

    // Two instances pruning at once (on PostgreSQL a second pool, as a second instance has) delete each old row once, and all of them.
    const many = Array.from({ length: 2500 }, (_, i) => ({
      ...old,
      id: `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`,
      at: new Date(now.getTime() - (500 + (i % 50)) * 86_400_000).toISOString(),
    }));
    for (let i = 0; i < many.length; i += 250)
      await env.ctx.db.kysely
        .insertInto('audit_log')
        .values(many.slice(i, i + 250))
        .execute();
    const schema = dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(env.ctx.db.kysely)).rows[0].s : null;
    const other = schema ? await createDb(env.config, { pgSchema: schema, poolSize: 2 }) : env.ctx.db;
    try {
      const [a, b] = await Promise.all([pruneAuditLog(env.ctx), pruneAuditLog({ ...env.ctx, db: other })]);
      expect(a + b).toBe(2500);
    } finally {
      if (other !== env.ctx.db) await other.close();
    }
    expect(await count()).toBe(total - 3);
  });

  it('quire export and quire import quire are recorded as the command line', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-audit-'));
    await newRows();
    try {
      const out = path.join(dir, 'ws');
      expect((await cli(['export', '--workspace', s.workspace.slug, '--out', out], { context: env.ctx })).code).toBe(0);
      expect((await newRows()).map((r) => [r.action, r.actor_type, r.actor_label, r.target_slug])).toEqual([
        ['workspace.exported', 'system', 'cli', s.workspace.slug],
      ]);
      // Into this database the ids clash: the restore rolls back, and so does its row.
      expect((await cli(['import', 'quire', out, '--workspace', `copy-${dialect}`], { context: env.ctx })).code).toBe(1);
      expect(await newRows()).toEqual([]);
      const other = await createTestEnv(dialect);
      try {
        const restored = await cli(['import', 'quire', out, '--workspace', `copy-${dialect}`], { context: other.ctx });
        expect(restored.code, restored.stderr).toBe(0);
        const rows = await other.ctx.db.kysely.selectFrom('audit_log').selectAll().execute();
        expect(rows.map((r) => [r.action, r.actor_type, r.actor_label, r.target_slug])).toEqual([['workspace.restored', 'system', 'cli', `copy-${dialect}`]]);
      } finally {
        await other.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a Contentful import is one workspace.imported row, its writes named import', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-audit-'));
    try {
      const file = path.join(dir, 'space.json');
      const type = {
        sys: { id: 'note', type: 'ContentType' },
        name: 'Note',
        displayField: 'title',
        fields: [{ id: 'title', name: 'Title', type: 'Symbol', localized: false, required: false }],
      };
      fs.writeFileSync(file, JSON.stringify({ locales: [{ code: 'en-US', default: true, name: 'English' }], contentTypes: [type], entries: [], assets: [] }));
      await newRows();
      const run = await cli(['import', 'contentful', file, '--workspace', `imported-${dialect}`], { context: env.ctx });
      expect(run.code, run.stderr).toBe(0);
      const rows = await newRows();
      expect(rows.filter((r) => r.action === 'workspace.imported').map((r) => [r.actor_type, r.actor_label, r.target_slug])).toEqual([
        ['system', 'import', `imported-${dialect}`],
      ]);
      expect(rows.find((r) => r.action === 'content_type.created')).toMatchObject({ actor_type: 'system', actor_label: 'import', target_slug: 'note' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the command line: bootstrap, users create, users set-role and keys are the system actor cli', async () => {
    await newRows();
    const boot = await cli(['bootstrap', '--workspace', `cli-${dialect}`, '--email', `cli-${dialect}@example.com`, '--json'], { context: env.ctx });
    expect(boot.code, boot.stderr).toBe(0);
    const rows = await newRows();
    expect(rows.map((r) => r.action)).toEqual(['workspace.created', 'member.added', 'key.created', 'key.created', 'key.created']);
    for (const r of rows) expect(r).toMatchObject({ actor_type: 'system', actor_label: 'cli', workspace_id: boot.json().workspace.id, ip: null });
    expect(
      (await cli(['users', 'create', '--workspace', `cli-${dialect}`, '--email', `w-${dialect}@example.com`, '--role', 'author'], { context: env.ctx })).code,
    ).toBe(0);
    expect((await newRows()).map((r) => [r.action, r.target_slug])).toEqual([['member.added', `w-${dialect}@example.com`]]);
    expect(
      (await cli(['users', 'set-role', '--workspace', `cli-${dialect}`, '--email', `w-${dialect}@example.com`, '--role', 'editor'], { context: env.ctx })).code,
    ).toBe(0);
    expect((await newRows()).map((r) => [r.action, r.changed_fields])).toEqual([['member.role_changed', '["role"]']]);
    const made = await cli(['keys', 'create', '--workspace', `cli-${dialect}`, '--class', 'delivery', '--json'], { context: env.ctx });
    const revoked = await cli(['keys', 'revoke', '--id', made.json().id], { context: env.ctx });
    expect(revoked.code).toBe(0);
    expect((await newRows()).map((r) => [r.action, r.target_id, r.actor_label])).toEqual([
      ['key.created', made.json().id, 'cli'],
      ['key.revoked', made.json().id, 'cli'],
    ]);
  });

  it('quire audit export writes NDJSON, oldest first, within the range and workspace', async () => {
    const other = await seedWorkspace(env.ctx);
    await call(env.app, 'POST', `${M}/content-types`, { key: other.keys.management, body: ARTICLE_TYPE });
    const since = '2026-01-01T00:00:00Z';
    const run = await cli(['audit', 'export', '--since', since, '--workspace', s.workspace.slug], { context: env.ctx });
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThan(20);
    expect(lines.map((l) => l.at)).toEqual([...lines.map((l) => l.at)].sort());
    expect(lines.some((l) => l.target.slug === other.workspace.slug)).toBe(false);
    expect(lines[0]).toMatchObject({
      id: expect.any(String),
      actor: { type: expect.any(String) },
      action: expect.any(String),
      target: { kind: expect.any(String) },
    });
    const everything = await cli(['audit', 'export', '--since', since], { context: env.ctx });
    expect(everything.stdout.trimEnd().split('\n').length).toBeGreaterThan(lines.length);
    const until = lines.find((l) => l.at > lines[0].at).at;
    const early = await cli(['audit', 'export', '--since', since, '--until', until, '--workspace', s.workspace.slug], { context: env.ctx });
    const earlyAts = early.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l).at as string);
    expect(earlyAts).toEqual(lines.map((l) => l.at as string).filter((at) => at < until));
    expect((await cli(['audit', 'export', '--since', 'last week'], { context: env.ctx })).code).toBe(2);
    expect((await cli(['audit', 'export'], { context: env.ctx })).code).toBe(2);
  });
});
