/**
 * The Studio's management endpoints (D91; the Studio contract): people, invitations (with a real
 * SMTP conversation against a tiny node:net listener), API keys, workspace settings and the
 * overview, on every dialect: owner/admin rules, last-owner protection, session-only refusals of
 * keys, and every refusal in the envelope.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capabilitiesOf } from '../src/modules/access/authorize.js';
import { PRESET_ROLES } from '../src/modules/access/roles.js';
import type { BootstrapResult } from '../src/modules/auth/operations.js';
import { AppError } from '../src/errors.js';
import { readSession, sessionActor, setPasswordForUser } from '../src/modules/auth/sessions.js';
import { changeRole } from '../src/modules/users/operations.js';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from './helpers.js';
import { Browser, memberWithPassword, PASSWORD, signedIn } from './studio-helpers.js';

const M = '/api/v1/manage';
const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;

/** A minimal SMTP server (RFC 5321 happy path, no TLS, no auth) that keeps every message it accepts. */
async function smtpListener(): Promise<{ port: number; messages: { from: string; to: string[]; data: string }[]; close(): Promise<void> }> {
  const messages: { from: string; to: string[]; data: string }[] = [];
  const server = net.createServer((socket) => {
    let buffer = '';
    let inData = false;
    let current = { from: '', to: [] as string[], data: '' };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 test.local ESMTP');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          messages.push(current);
          current = { from: '', to: [], data: '' };
          reply('250 2.0.0 queued');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') reply('250 test.local');
        else if (verb === 'HELO') reply('250 test.local');
        else if (verb === 'MAIL') {
          current.from = line;
          reply('250 2.1.0 ok');
        } else if (verb === 'RCPT') {
          current.to.push(line);
          reply('250 2.1.5 ok');
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 go ahead');
        } else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
        } else if (verb === 'RSET' || verb === 'NOOP') reply('250 ok');
        else reply('502 5.5.2 not implemented');
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return { port, messages, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe.each(dialects())('Studio people, keys, workspace and overview on %s', (dialect) => {
  let env: TestEnv;
  let ws: BootstrapResult;
  let owner: Browser;
  let smtp: Awaited<ReturnType<typeof smtpListener>>;

  beforeAll(async () => {
    smtp = await smtpListener();
    env = await createTestEnv(dialect, { config: { smtpUrl: `smtp://127.0.0.1:${smtp.port}`, smtpFrom: 'Quire Test <studio@quire.test>' } });
    ws = await seedWorkspace(env.ctx);
    await setPasswordForUser(env.ctx, ws.user.id, PASSWORD);
    owner = await signedIn(env.app, ws.user.email);
  });
  afterAll(async () => {
    await env?.close();
    await smtp?.close();
  });

  it('refuses API keys on people, keys and settings (403), serves them GET /workspace and GET /overview', async () => {
    const key = ws.keys.management;
    for (const [method, url, body] of [
      ['GET', '/users', undefined],
      ['POST', '/users/invitations', { email: 'x@example.com', role: 'editor' }],
      ['PATCH', `/users/${ws.user.id}`, { role: 'admin' }],
      ['DELETE', `/users/${ws.user.id}`, undefined],
      ['GET', '/api-keys', undefined],
      ['POST', '/api-keys', { name: 'k', key_class: 'management' }],
      ['DELETE', '/api-keys/01a2e000-0000-7000-8000-000000000000', undefined],
      ['PATCH', '/workspace', { name: 'Renamed' }],
    ] as const) {
      const e = expectError(await call(env.app, method, `${M}${url}`, { key, body }), 403, 'FORBIDDEN');
      expect(e.message).toMatch(/needs a Studio session: keys cannot mint keys or change members$/);
    }
    expectError(await call(env.app, 'GET', `${M}/users`), 401, 'UNAUTHORIZED');
    const got = await call(env.app, 'GET', `${M}/workspace`, { key });
    expect(got.body.data).toEqual({
      id: ws.workspace.id,
      name: 'Test workspace',
      slug: ws.workspace.slug,
      default_locale: 'en',
      locales: ['en', 'de'],
      preview_url_template: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await call(env.app, 'GET', `${M}/overview`, { key })).status).toBe(200);
    expect((await owner.call('GET', `${M}/workspace`)).body.data.id).toBe(ws.workspace.id);
  });

  it('invites a new person: a pending invitation e-mailed to them (the admin never sees the link), who sets a password and joins', async () => {
    const res = await owner.call('POST', `${M}/users/invitations`, { body: { email: ' New.Editor@Example.com ', role: 'editor', name: 'Nia Editor' } });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      user: {
        id: null,
        invitation_id: expect.any(String),
        email: 'new.editor@example.com',
        name: 'Nia Editor',
        role: 'editor',
        status: 'pending',
        created_at: expect.any(String),
        last_sign_in_at: null,
        expires_at: expect.any(String),
      },
      invitation_url: null,
      expires_at: res.body.data.user.expires_at,
      emailed: true,
    });
    const mail = smtp.messages.at(-1)!;
    expect(mail.from).toContain('studio@quire.test');
    expect(mail.to.join()).toContain('new.editor@example.com');
    const body = mail.data.replace(/=\r\n/g, '').replace(/=3D/g, '=');
    const url = body.match(/http:\/\/quire\.test\/studio\/setup\?token=qt_[A-Za-z0-9_-]{43}/)![0];

    const described = await call(env.app, 'GET', `${M}/session/token?token=${tokenOf(url)}`);
    expect(described.body.data).toMatchObject({
      purpose: 'invitation',
      email: 'new.editor@example.com',
      workspace: { slug: ws.workspace.slug },
      action: 'set_password',
    });
    const b = new Browser(env.app);
    const set = await b.call('POST', `${M}/session/password`, { body: { token: tokenOf(url), password: 'editor password 1' } });
    expect(set.status).toBe(200);
    expect(set.body.data.workspaces).toEqual([
      {
        id: ws.workspace.id,
        slug: ws.workspace.slug,
        name: 'Test workspace',
        role: 'editor',
        permissions: PRESET_ROLES[2].permissions,
        capabilities: capabilitiesOf('editor'),
      },
    ]);
    const people = (await owner.call('GET', `${M}/users`)).body.data;
    expect(people.filter((p: { email: string }) => p.email === 'new.editor@example.com')).toEqual([
      expect.objectContaining({ id: set.body.data.user.id, status: 'active', name: 'Nia Editor', last_sign_in_at: expect.any(String), invitation_id: null }),
    ]);
    expect((await b.call('GET', `${M}/users`)).status).toBe(200);

    expectError(await owner.call('POST', `${M}/users/invitations`, { body: { email: 'new.editor@example.com', role: 'viewer' } }), 409, 'ALREADY_MEMBER');
  });

  it('invites a person who already has an account: pending, e-mailed, nothing said about the account; checks who may invite whom', async () => {
    const other = await seedWorkspace(env.ctx);
    const elsewhere = await memberWithPassword(env.ctx, other.workspace.slug, 'editor');
    const before = smtp.messages.length;
    const res = await owner.call('POST', `${M}/users/invitations`, { body: { email: elsewhere.email, role: 'author' } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ invitation_url: null, emailed: true, user: { id: null, status: 'pending', role: 'author', last_sign_in_at: null } });
    expect(smtp.messages.length).toBe(before + 1);
    expect(smtp.messages.at(-1)!.data.replace(/=\r\n/g, '')).toContain('Sign in as this address and accept');
    // Not a member until they accept.
    const them = await signedIn(env.app, elsewhere.email);
    expect((await them.call('GET', `${M}/session`)).body.data.workspaces.map((w: { id: string }) => w.id)).toEqual([other.workspace.id]);

    const admin = await signedIn(env.app, (await memberWithPassword(env.ctx, ws.workspace.slug, 'admin')).email);
    expect(
      expectError(await admin.call('POST', `${M}/users/invitations`, { body: { email: 'boss@example.com', role: 'owner' } }), 403, 'FORBIDDEN').message,
    ).toBe('Only owners can invite an owner');
    expect((await admin.call('POST', `${M}/users/invitations`, { body: { email: 'helper@example.com', role: 'admin' } })).status).toBe(201);
    const editor = await signedIn(env.app, (await memberWithPassword(env.ctx, ws.workspace.slug, 'editor')).email);
    expectError(await editor.call('POST', `${M}/users/invitations`, { body: { email: 'x@example.com', role: 'viewer' } }), 403, 'FORBIDDEN');
    expect(
      expectError(await admin.call('POST', `${M}/users/invitations`, { body: { email: 'not-an-email', role: 'viewer' } }), 400, 'VALIDATION_FAILED').errors[0]
        .path,
    ).toBe('body.email');
    expect(
      expectError(await admin.call('POST', `${M}/users/invitations`, { body: { email: 'a@example.com', role: 'boss' } }), 400, 'VALIDATION_FAILED').errors[0]
        .path,
    ).toBe('body.role');
    expectError(await admin.call('POST', `${M}/users/invitations`, { body: { email: 'a@example.com', role: 'viewer', extra: 1 } }), 400, 'VALIDATION_FAILED');
    // An admin cannot cancel an owner's invitation; an owner can.
    const boss = await owner.call('POST', `${M}/users/invitations`, { body: { email: 'boss@example.com', role: 'owner' } });
    expectError(await admin.call('DELETE', `${M}/users/invitations/${boss.body.data.user.invitation_id}`), 403, 'FORBIDDEN');
    expect((await owner.call('DELETE', `${M}/users/invitations/${boss.body.data.user.invitation_id}`)).status).toBe(200);
  });

  it('a link that could not be e-mailed is shown to the admin instead', async () => {
    const down = await createTestEnv(dialect, { config: { smtpUrl: 'smtp://127.0.0.1:1', smtpFrom: 'Quire Test <studio@quire.test>' } });
    try {
      const s = await seedWorkspace(down.ctx);
      await setPasswordForUser(down.ctx, s.user.id, PASSWORD);
      const o = await signedIn(down.app, s.user.email);
      const res = await o.call('POST', `${M}/users/invitations`, { body: { email: 'unreachable@example.com', role: 'author' } });
      expect(res.body.data).toMatchObject({ emailed: false, invitation_url: expect.stringMatching(/^http:\/\/quire\.test\/studio\/setup\?token=qt_/) });
    } finally {
      await down.close();
    }
  });

  it('changes roles: owners alone grant or take the owner role, the last owner stays', async () => {
    const admin = await signedIn(env.app, (await memberWithPassword(env.ctx, ws.workspace.slug, 'admin')).email);
    const target = await memberWithPassword(env.ctx, ws.workspace.slug, 'editor');
    const t = await signedIn(env.app, target.email);
    const changed = await admin.call('PATCH', `${M}/users/${target.id}`, { body: { role: 'viewer' } });
    expect(changed.body.data).toMatchObject({ id: target.id, role: 'viewer' });
    // Read per request: the demoted person's next write is refused.
    expectError(await t.call('POST', `${M}/content-types`, { body: { name: 'X', fields: [] } }), 403, 'FORBIDDEN');
    expectError(await admin.call('PATCH', `${M}/users/${target.id}`, { body: { role: 'owner' } }), 403, 'FORBIDDEN');
    expectError(await admin.call('PATCH', `${M}/users/${ws.user.id}`, { body: { role: 'admin' } }), 403, 'FORBIDDEN');
    expectError(await admin.call('PATCH', `${M}/users/999999`, { body: { role: 'viewer' } }), 404, 'NOT_FOUND');
    expectError(await admin.call('PATCH', `${M}/users/abc`, { body: { role: 'viewer' } }), 400, 'VALIDATION_FAILED');

    const last = expectError(await owner.call('PATCH', `${M}/users/${ws.user.id}`, { body: { role: 'admin' } }), 409, 'LAST_OWNER');
    expect(last.message).toMatch(/last owner/);
    expect((await owner.call('PATCH', `${M}/users/${target.id}`, { body: { role: 'owner' } })).body.data.role).toBe('owner');
    expect((await owner.call('PATCH', `${M}/users/${target.id}`, { body: { role: 'editor' } })).body.data.role).toBe('editor');
    expectError(await t.call('PATCH', `${M}/users/${target.id}`, { body: { role: 'admin' } }), 403, 'FORBIDDEN');
  });

  it('two owners demoting each other at once: exactly one wins, the other meets LAST_OWNER', async () => {
    const other = await seedWorkspace(env.ctx);
    await setPasswordForUser(env.ctx, other.user.id, PASSWORD);
    const second = await memberWithPassword(env.ctx, other.workspace.slug, 'owner');
    const a = await signedIn(env.app, other.user.email);
    const b = await signedIn(env.app, second.email);
    // "At once" means both are authenticated as owners before either writes. Two HTTP requests
    // do not promise that: under load the second one's role may be read after the first commits,
    // and it then rightly answers 403 (no longer an owner). So both actors are resolved first, as
    // the auth hook does, and the two operations race for the workspace lock.
    const actorOf = async (browser: Browser) => sessionActor(env.ctx, (await readSession(env.ctx, browser.cookie!))!, other.workspace.id);
    const [actorA, actorB] = await Promise.all([actorOf(a), actorOf(b)]);
    const statusOf = (p: Promise<unknown>) =>
      p.then(
        () => 200,
        (err: unknown) => (err instanceof AppError ? err.status : Promise.reject(err)),
      );
    const [ra, rb] = await Promise.all([
      statusOf(changeRole(env.ctx, actorA, second.id, { role: 'admin' })),
      statusOf(changeRole(env.ctx, actorB, other.user.id, { role: 'admin' })),
    ]);
    expect([ra, rb].sort()).toEqual([200, 409]);
    const owners = await env.ctx.db.kysely
      .selectFrom('memberships')
      .select('user_id')
      .where('workspace_id', '=', other.workspace.id)
      .where('role', '=', 'owner')
      .execute();
    expect(owners).toHaveLength(1);
  });

  it('removes a member: their sessions end and their management keys stop working; never the last owner', async () => {
    const admin = await signedIn(env.app, (await memberWithPassword(env.ctx, ws.workspace.slug, 'admin')).email);
    const leaving = await memberWithPassword(env.ctx, ws.workspace.slug, 'admin');
    const l = await signedIn(env.app, leaving.email);
    const minted = await l.call('POST', `${M}/api-keys`, { body: { name: 'soon gone', key_class: 'management' } });
    expect(minted.status).toBe(201);
    expect((await call(env.app, 'GET', `${M}/content-types`, { key: minted.body.data.key })).status).toBe(200);

    expectError(await admin.call('DELETE', `${M}/users/${ws.user.id}`), 403, 'FORBIDDEN');
    expectError(await owner.call('DELETE', `${M}/users/${ws.user.id}`), 409, 'LAST_OWNER');
    expectError(await admin.call('DELETE', `${M}/users/${leaving.id}`, { csrf: false }), 403, 'FORBIDDEN');
    const removed = await admin.call('DELETE', `${M}/users/${leaving.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.data).toBeNull();
    expectError(await l.call('GET', `${M}/session`), 401, 'UNAUTHORIZED');
    expectError(await call(env.app, 'GET', `${M}/content-types`, { key: minted.body.data.key }), 401, 'UNAUTHORIZED');
    expectError(await admin.call('DELETE', `${M}/users/${leaving.id}`), 404, 'NOT_FOUND');
    expect((await owner.call('GET', `${M}/users`)).body.data.some((p: { id: number }) => p.id === leaving.id)).toBe(false);
  });

  it('API keys: created for the signed-in person, value shown once, listed by hint, revoked at once', async () => {
    const created = await owner.call('POST', `${M}/api-keys`, { body: { name: 'CI', key_class: 'management', scopes: ['content:write'] } });
    expect(created.status).toBe(201);
    const k = created.body.data;
    expect(k).toMatchObject({
      name: 'CI',
      key_class: 'management',
      environment: null,
      scopes: ['content:write'],
      content_types: [],
      created_by: ws.user.id,
      revoked_at: null,
    });
    expect(k.key).toMatch(/^svc_mgmt_[A-Za-z0-9]{40}$/);
    const days = (Date.parse(k.expires_at) - Date.parse(k.created_at)) / 86_400_000;
    expect(Math.round(days)).toBe(90);
    expect(k.key_hint).toBe(`svc_mgmt_${k.key.slice(9, 13)}…${k.key.slice(-4)}`);
    const listed = (await owner.call('GET', `${M}/api-keys`)).body.data;
    const view = { ...k };
    delete view.key;
    expect(listed.find((x: { id: string }) => x.id === k.id)).toEqual(view);
    expect(JSON.stringify(listed)).not.toContain(k.key);
    expect(listed.length).toBeGreaterThanOrEqual(4);
    // The new key acts with its own scopes within the owner's role.
    expectError(await call(env.app, 'POST', `${M}/content-types`, { key: k.key, body: { name: 'Nope', fields: [] } }), 403, 'FORBIDDEN');

    const delivery = await owner.call('POST', `${M}/api-keys`, { body: { name: 'Site', key_class: 'delivery', environment: 'preview', expires_at: null } });
    expect(delivery.body.data).toMatchObject({ key_class: 'delivery', environment: 'preview', scopes: [], expires_at: null });
    expect(delivery.body.data.key).toMatch(/^svc_live_/);

    const bad = async (body: object, path: string) =>
      expect(expectError(await owner.call('POST', `${M}/api-keys`, { body }), 400, 'VALIDATION_FAILED').errors[0].path).toBe(path);
    await bad({ name: 'x', key_class: 'management', expires_at: new Date(Date.now() + 366 * 86_400_000).toISOString() }, 'body.expires_at');
    await bad({ name: 'x', key_class: 'management', expires_at: '2020-01-01T00:00:00.000Z' }, 'body.expires_at');
    await bad({ name: 'x', key_class: 'management', expires_at: 'tomorrow' }, 'body.expires_at');
    await bad({ name: 'x', key_class: 'management', scopes: ['everything'] }, 'body.scopes');
    await bad({ name: 'x', key_class: 'delivery', scopes: ['content:write'] }, 'body.scopes');
    await bad({ name: 'x', key_class: 'delivery', content_types: ['nope'] }, 'body.content_types');
    await bad({ name: 'x', key_class: 'management', environment: 'preview' }, 'body.environment');
    await bad({ name: 'x', key_class: 'both' }, 'body.key_class');

    // The answer holds the only copy of the key: Idempotency-Key is not honoured and nothing is stored.
    const idem = { 'idempotency-key': '01a2e000-0000-7000-8000-00000000beef' };
    const once = await owner.call('POST', `${M}/api-keys`, { body: { name: 'Twice', key_class: 'delivery' }, headers: idem });
    const twice = await owner.call('POST', `${M}/api-keys`, { body: { name: 'Twice', key_class: 'delivery' }, headers: idem });
    expect(once.status).toBe(201);
    expect(twice.headers['idempotent-replayed']).toBeUndefined();
    expect(twice.body.data.key).not.toBe(once.body.data.key);
    const stored = await env.ctx.db.kysely.selectFrom('idempotency_keys').select('response').execute();
    expect(stored.some((r) => (r.response ?? '').includes(once.body.data.key))).toBe(false);

    const editor = await signedIn(env.app, (await memberWithPassword(env.ctx, ws.workspace.slug, 'editor')).email);
    expectError(await editor.call('GET', `${M}/api-keys`), 403, 'FORBIDDEN');
    expectError(await editor.call('POST', `${M}/api-keys`, { body: { name: 'x', key_class: 'management' } }), 403, 'FORBIDDEN');

    const other = await seedWorkspace(env.ctx);
    const foreign = (await env.ctx.db.kysely.selectFrom('api_keys').select('id').where('workspace_id', '=', other.workspace.id).executeTakeFirstOrThrow()).id;
    expectError(await owner.call('DELETE', `${M}/api-keys/${foreign}`), 404, 'NOT_FOUND');
    expect((await call(env.app, 'GET', `${M}/content-types`, { key: other.keys.management })).status).toBe(200);
    expect((await owner.call('DELETE', `${M}/api-keys/${k.id}`)).status).toBe(200);
    expectError(await call(env.app, 'GET', `${M}/content-types`, { key: k.key }), 401, 'UNAUTHORIZED');
    expect((await owner.call('GET', `${M}/api-keys`)).body.data.find((x: { id: string }) => x.id === k.id).revoked_at).toEqual(expect.any(String));
  });

  it('workspace settings: name, locales, default locale, preview URL template, with their rules', async () => {
    const other = await seedWorkspace(env.ctx);
    await setPasswordForUser(env.ctx, other.user.id, PASSWORD);
    const o = await signedIn(env.app, other.user.email);
    const patch = (body: object) => o.call('PATCH', `${M}/workspace`, { body });
    const badAt = async (body: object, path: string) => {
      const e = expectError(await patch(body), 400, 'VALIDATION_FAILED');
      expect(e.errors[0].path).toBe(path);
      return e.errors[0].message as string;
    };

    // An empty workspace may change its default locale.
    expect((await patch({ locales: ['de', 'en', 'fr'], default_locale: 'de' })).body.data).toMatchObject({ default_locale: 'de', locales: ['de', 'en', 'fr'] });
    expect((await patch({ default_locale: 'en' })).body.data.default_locale).toBe('en');
    await badAt({ default_locale: 'es' }, 'body.default_locale');
    await badAt({ locales: ['de', 'fr'] }, 'body.locales');
    await badAt({ locales: ['en', 'x'] }, 'body.locales.1');
    await badAt({ locales: ['en', 'waytoolonglocale'] }, 'body.locales.1');
    await badAt({ name: '  ' }, 'body.name');

    const key = other.keys.management;
    await call(env.app, 'POST', `${M}/content-types`, { key, body: { name: 'Post', fields: [{ name: 'title', field_type: 'text', localizable: true }] } });
    await call(env.app, 'POST', `${M}/content-types/post/entries`, {
      key,
      body: { slug: 'a', data: { title: 'A' }, translations: { de: { data: { title: 'A de' } } } },
    });
    await call(env.app, 'POST', `${M}/content-types/post/entries`, {
      key,
      body: { slug: 'b', data: { title: 'B' }, translations: { de: { data: { title: 'B de' } } } },
    });
    expect(await badAt({ locales: ['en', 'fr'] }, 'body.locales')).toBe("locale 'de' still holds 2 translations; remove them before removing the locale");
    expect(await badAt({ default_locale: 'fr' }, 'body.default_locale')).toMatch(/only change while the workspace holds no entries or pages/);
    const removed = await patch({ locales: ['en', 'de'], name: 'Renamed' });
    expect(removed.body.data).toMatchObject({ name: 'Renamed', locales: ['en', 'de'] });

    const template = 'https://site.example.com/preview/{type}/{slug}?locale={locale}&token={token}&id={id}';
    expect((await patch({ preview_url_template: template })).body.data.preview_url_template).toBe(template);
    expect(await badAt({ preview_url_template: 'https://x.example.com/{page}' }, 'body.preview_url_template')).toMatch(/unknown placeholder \{page\}/);
    await badAt({ preview_url_template: 'ftp://x.example.com/{slug}' }, 'body.preview_url_template');
    await badAt({ preview_url_template: 'javascript:alert(1)//{slug}' }, 'body.preview_url_template');
    await badAt({ preview_url_template: '/relative/{slug}' }, 'body.preview_url_template');
    await badAt({ preview_url_template: 'https://x.example.com/{slug' }, 'body.preview_url_template');
    expect((await patch({ preview_url_template: null })).body.data.preview_url_template).toBeNull();
    expect((await call(env.app, 'GET', `${M}/workspace`, { key })).body.data).toMatchObject({ name: 'Renamed', preview_url_template: null });

    const viewer = await signedIn(env.app, (await memberWithPassword(env.ctx, other.workspace.slug, 'viewer')).email);
    expectError(await viewer.call('PATCH', `${M}/workspace`, { body: { name: 'Mine' } }), 403, 'FORBIDDEN');
    expect((await viewer.call('GET', `${M}/workspace`)).status).toBe(200);
  });

  it('overview: counts by effective status, newest versions, soonest scheduled, each under its title', async () => {
    const other = await seedWorkspace(env.ctx);
    const key = other.keys.management;
    const req = (method: 'POST' | 'PATCH', url: string, body?: object) => call(env.app, method, `${M}${url}`, { key, body });
    await req('POST', '/content-types', { name: 'Post', display_field: 'title', fields: [{ name: 'title', field_type: 'text' }] });
    await req('POST', '/content-types', { name: 'Hero', is_block: true, fields: [{ name: 'title', field_type: 'text' }] });
    // d2's display value is blank: its slug stands in.
    for (const slug of ['d1', 'd2', 'p1', 's1', 'a1'])
      await req('POST', '/content-types/post/entries', { slug, data: { title: slug === 'd2' ? ' ' : `Post ${slug}` } });
    await req('PATCH', '/content-types/post/entries/p1/publish');
    await req('PATCH', '/content-types/post/entries/s1/schedule', { publish_at: new Date(Date.now() + 3_600_000).toISOString() });
    await req('PATCH', '/content-types/post/entries/a1/archive');
    await req('POST', '/pages', { slug: 'about', seo: {} });
    await req('POST', '/pages', { slug: 'home', seo: { title: 'Home' } });

    const res = await call(env.app, 'GET', `${M}/overview`, { key });
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.content_types.map((t: { slug: string; is_block: boolean }) => [t.slug, t.is_block])).toEqual([
      ['hero', true],
      ['post', false],
    ]);
    expect(data.content_types[1].counts).toEqual({ draft: 2, scheduled: 1, published: 1, archived: 1, total: 5 });
    expect(data.pages).toEqual({ draft: 2, scheduled: 0, published: 0, archived: 0, total: 2 });
    expect(data.recent[0]).toMatchObject({ kind: 'page', slug: 'home', title: 'Home', content_type: null, action: 'create', version: 1, status: 'draft' });
    expect(data.recent[1]).toMatchObject({ kind: 'page', slug: 'about', title: 'about' });
    const entries = data.recent.filter((r: { kind: string }) => r.kind === 'entry') as { slug: string; title: string }[];
    expect(entries).toHaveLength(8);
    expect(new Map(entries.map((r) => [r.slug, r.title]))).toEqual(
      new Map([
        ['d1', 'Post d1'],
        ['d2', 'd2'],
        ['p1', 'Post p1'],
        ['s1', 'Post s1'],
        ['a1', 'Post a1'],
      ]),
    );
    expect(data.scheduled).toEqual([
      { kind: 'entry', id: expect.any(String), slug: 's1', title: 'Post s1', content_type: 'post', publish_at: expect.any(String) },
    ]);
  });
});
