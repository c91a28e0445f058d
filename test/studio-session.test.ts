/**
 * Studio sessions (D90; the Studio contract): setup links, sign-in, the session actor of the
 * management API, CSRF, throttling, sign-out, password changes, session lifetimes and the CLI's
 * set-password, on every dialect. Every refusal is checked in the error envelope.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capabilitiesOf } from '../src/modules/access/authorize.js';
import { PRESET_ROLES } from '../src/modules/access/roles.js';
import { buildApp } from '../src/app.js';
import { createLogger } from '../src/lib/logger.js';
import { demoBanner, seedDemo } from '../src/modules/demo/seed.js';
import { linesWithSecrets } from './log-scan.js';
import { runCli } from '../src/cli/index.js';
import { createMember, setMemberRole } from '../src/modules/auth/operations.js';
import { deleteMembership, findUserByEmail } from '../src/modules/auth/repository.js';
import type { BootstrapResult } from '../src/modules/auth/operations.js';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from './helpers.js';
import { Browser, memberWithPassword, PASSWORD, sessionCookieLine, signedIn } from './studio-helpers.js';

const M = '/api/v1/manage';
const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;

describe.each(dialects())('Studio sessions on %s', (dialect) => {
  let env: TestEnv;
  let ws: BootstrapResult;
  let now = new Date('2026-06-01T12:00:00.000Z');
  const advance = (ms: number) => (now = new Date(now.getTime() + ms));

  beforeAll(async () => {
    env = await createTestEnv(dialect, { clock: () => now });
    ws = await seedWorkspace(env.ctx);
  });
  afterAll(async () => env?.close());

  it('bootstrap hands out a one-time setup link: described, redeemed once (HttpOnly, SameSite=Lax cookie), then gone', async () => {
    expect(ws.setup_url).toMatch(/^http:\/\/quire\.test\/studio\/setup\?token=qt_[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(ws.setup_url!);
    const described = await call(env.app, 'GET', `${M}/session/token?token=${token}`);
    expect(described.status).toBe(200);
    expect(described.body.data).toEqual({
      purpose: 'setup',
      email: ws.user.email,
      workspace: { slug: ws.workspace.slug, name: 'Test workspace' },
      role: null,
      expires_at: '2026-06-04T12:00:00.000Z',
      action: 'set_password',
    });

    const b = new Browser(env.app);
    const short = expectError(await b.call('POST', `${M}/session/password`, { body: { token, password: 'short' } }), 400, 'VALIDATION_FAILED');
    expect(short.errors[0].path).toBe('body.password');
    const long = expectError(await b.call('POST', `${M}/session/password`, { body: { token, password: 'x'.repeat(201) } }), 400, 'VALIDATION_FAILED');
    expect(long.errors[0].path).toBe('body.password');

    const res = await b.call('POST', `${M}/session/password`, { body: { token, password: PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      user: { id: ws.user.id, email: ws.user.email, name: null },
      workspaces: [
        {
          id: ws.workspace.id,
          slug: ws.workspace.slug,
          name: 'Test workspace',
          role: 'owner',
          permissions: PRESET_ROLES[0].permissions,
          capabilities: capabilitiesOf('owner'),
        },
      ],
      csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    const line = sessionCookieLine(res)!;
    expect(line).toMatch(/^quire_session=qs_[A-Za-z0-9_-]{43}; /);
    expect(line).toMatch(/; HttpOnly/);
    expect(line).toMatch(/; SameSite=Lax/);
    expect(line).toMatch(/; Path=\//);
    expect(line).not.toMatch(/; Secure/);
    expect((await b.call('GET', `${M}/session`)).body.data.user.email).toBe(ws.user.email);

    expectError(await call(env.app, 'POST', `${M}/session/password`, { body: { token, password: 'another good password' } }), 404, 'NOT_FOUND');
    expectError(await call(env.app, 'GET', `${M}/session/token?token=${token}`), 404, 'NOT_FOUND');
    expectError(await call(env.app, 'GET', `${M}/session/token?token=qt_unknown`), 404, 'NOT_FOUND');
    // The session stores only digests: the cookie value and the token appear nowhere in the database.
    const sessions = await env.ctx.db.kysely.selectFrom('sessions').select('id_hash').execute();
    expect(sessions.some((s) => s.id_hash === b.cookie)).toBe(false);
    expect(sessions.every((s) => /^[0-9a-f]{64}$/.test(s.id_hash))).toBe(true);
    const tokens = await env.ctx.db.kysely.selectFrom('one_time_tokens').select('token_hash').execute();
    expect(tokens.some((t) => t.token_hash === token)).toBe(false);
  });

  it('an expired setup link answers 404; a new link from the CLI retires the older one', async () => {
    const other = await seedWorkspace(env.ctx);
    const first = tokenOf(other.setup_url!);
    advance(72 * 3_600_000);
    expectError(await call(env.app, 'GET', `${M}/session/token?token=${first}`), 404, 'NOT_FOUND');
    expectError(await call(env.app, 'POST', `${M}/session/password`, { body: { token: first, password: PASSWORD } }), 404, 'NOT_FOUND');

    let out = '';
    const code = await runCli(['users', 'set-password', '--workspace', other.workspace.slug, '--email', other.user.email, '--link', '--json'], {
      env: {},
      stdout: { write: (s: string) => (out += s) },
      stderr: { write: () => true },
      context: env.ctx,
    });
    expect(code).toBe(0);
    const json = JSON.parse(out);
    expect(json).toEqual({ id: other.user.id, email: other.user.email, setup_url: expect.stringMatching(/token=qt_/), expires_at: expect.any(String) });
    const second = tokenOf(json.setup_url);
    expect((await call(env.app, 'GET', `${M}/session/token?token=${second}`)).status).toBe(200);
    await runCli(['users', 'set-password', '--workspace', other.workspace.slug, '--email', other.user.email, '--link'], {
      env: {},
      stdout: { write: () => true },
      stderr: { write: () => true },
      context: env.ctx,
    });
    expectError(await call(env.app, 'GET', `${M}/session/token?token=${second}`), 404, 'NOT_FOUND');
  });

  it('quire users set-password reads the password from stdin and ends the member’s sessions', async () => {
    const m = await memberWithPassword(env.ctx, ws.workspace.slug, 'editor');
    const b = await signedIn(env.app, m.email);
    let out = '';
    const run = (stdin: string) =>
      runCli(['users', 'set-password', '--workspace', ws.workspace.slug, '--email', m.email, '--json'], {
        env: {},
        stdin,
        stdout: { write: (s: string) => (out += s) },
        stderr: { write: () => true },
        context: env.ctx,
      });
    expect(await run('')).toBe(2);
    expect(await run('too short\n')).toBe(1);
    out = '';
    expect(await run('a brand new password\n')).toBe(0);
    expect(JSON.parse(out)).toEqual({ id: m.id, email: m.email, password_set: true });
    expectError(await b.call('GET', `${M}/session`), 401, 'UNAUTHORIZED');
    expect((await new Browser(env.app).signIn(m.email, 'a brand new password')).status).toBe(200);
  });

  it('refuses bad credentials with one answer: unknown email, no password yet, wrong password', async () => {
    const noPassword = await createMember(env.ctx, ws.workspace.slug, 'nopass@example.com', 'editor');
    const m = await memberWithPassword(env.ctx, ws.workspace.slug, 'editor');
    const b = new Browser(env.app);
    const answers = [];
    for (const [email, password] of [
      ['nobody@example.com', PASSWORD],
      [noPassword.email, PASSWORD],
      [m.email, 'wrong password!'],
      [m.email.toUpperCase(), 'wrong password!'],
    ]) {
      const res = await b.signIn(email, password);
      const e = expectError(res, 401, 'UNAUTHORIZED');
      expect(sessionCookieLine(res)).toBeUndefined();
      answers.push(e.message);
    }
    expect(new Set(answers)).toEqual(new Set(['Invalid email or password']));
    expectError(await b.call('POST', `${M}/session`, { body: { email: m.email } }), 400, 'VALIDATION_FAILED');
    expect((await b.signIn(` ${m.email.toUpperCase()} `, PASSWORD)).status).toBe(200);
    expect((await env.ctx.db.kysely.selectFrom('users').select('last_sign_in_at').where('id', '=', m.id).executeTakeFirstOrThrow()).last_sign_in_at).toBe(
      now.toISOString(),
    );
  });

  it('throttles 5 failures per account (even the right password then) with Retry-After, until 15 minutes pass', async () => {
    const m = await memberWithPassword(env.ctx, ws.workspace.slug, 'author');
    for (let i = 0; i < 5; i++) expectError(await new Browser(env.app).signIn(m.email, 'wrong password!'), 401, 'UNAUTHORIZED');
    const throttled = await new Browser(env.app).signIn(m.email, PASSWORD);
    expectError(throttled, 429, 'RATE_LIMITED');
    expect(Number(throttled.headers['retry-after'])).toBe(900);
    advance(10 * 60_000);
    const later = await new Browser(env.app).signIn(m.email, PASSWORD);
    expectError(later, 429, 'RATE_LIMITED');
    expect(Number(later.headers['retry-after'])).toBe(300);
    advance(5 * 60_000);
    expect((await new Browser(env.app).signIn(m.email, PASSWORD)).status).toBe(200);
  });

  it('throttles guesses sent all at once: 12 parallel wrong passwords get at most 5 password checks', async () => {
    const m = await memberWithPassword(env.ctx, ws.workspace.slug, 'author');
    const answers = await Promise.all(Array.from({ length: 12 }, () => new Browser(env.app).signIn(m.email, 'wrong password!')));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    // A right password sent beside wrong ones is not counted as a failure.
    const other = await memberWithPassword(env.ctx, ws.workspace.slug, 'author');
    const b = new Browser(env.app);
    const mixed = await Promise.all([b.signIn(other.email, PASSWORD), ...Array.from({ length: 4 }, () => b.signIn(other.email, 'wrong password!'))]);
    expect(mixed[0].status).toBe(200);
    expect((await b.signIn(other.email, PASSWORD)).status).toBe(200);
  });

  it('throttles 20 failures per client address across accounts', async () => {
    const b = new Browser(env.app);
    for (let i = 0; i < 20; i++) expectError(await b.signIn(`guess-${i}@example.com`, 'wrong password!'), 401, 'UNAUTHORIZED');
    const m = await memberWithPassword(env.ctx, ws.workspace.slug, 'author');
    const res = await b.signIn(m.email, PASSWORD);
    expectError(res, 429, 'RATE_LIMITED');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await new Browser(env.app).signIn(m.email, PASSWORD)).status).toBe(200);
  });

  it('a session works the management API with the role’s scopes; writes need X-CSRF-Token', async () => {
    const m = await memberWithPassword(env.ctx, ws.workspace.slug, 'editor');
    const b = await signedIn(env.app, m.email);
    expect((await b.call('GET', `${M}/content-types`)).status).toBe(200);
    const type = `note-${dialect}`;
    expect(
      (
        await call(env.app, 'POST', `${M}/content-types`, {
          key: ws.keys.management,
          body: { name: 'Note', slug: type, fields: [{ name: 'title', field_type: 'text' }] },
        })
      ).status,
    ).toBe(201);
    const url = `${M}/content-types/${type}/entries`;
    const body = { slug: 'hello', data: { title: 'Hi' } };
    expect(expectError(await b.call('POST', url, { body, csrf: false }), 403, 'FORBIDDEN').message).toBe('Missing or invalid CSRF token');
    expectError(
      await b.call('POST', url, { body, headers: { 'x-csrf-token': `${b.csrf!.slice(0, -1)}${b.csrf!.endsWith('A') ? 'B' : 'A'}` } }),
      403,
      'FORBIDDEN',
    );
    expectError(await b.call('POST', url, { body, headers: { 'x-csrf-token': 'short' } }), 403, 'FORBIDDEN');
    expect(await env.ctx.db.kysely.selectFrom('entries').select('id').where('slug', '=', 'hello').execute()).toEqual([]);
    const entry = await b.call('POST', url, { body });
    expect(entry.status).toBe(201);
    expect(entry.body.data.created_by).toBe(m.id);
  });

  it('reads the role per request: a viewer session is refused writes (403), a demoted editor at once', async () => {
    const viewer = await memberWithPassword(env.ctx, ws.workspace.slug, 'viewer');
    const v = await signedIn(env.app, viewer.email);
    expect((await v.call('GET', `${M}/content-types`)).status).toBe(200);
    const refused = expectError(await v.call('POST', `${M}/content-types`, { body: { name: 'Nope', fields: [] } }), 403, 'FORBIDDEN');
    expect(refused.message).toBe("Your role 'viewer' lacks permission for 'schema:write'");

    const editor = await memberWithPassword(env.ctx, ws.workspace.slug, 'editor');
    const e = await signedIn(env.app, editor.email);
    await setMemberRole(env.ctx, ws.workspace.slug, editor.email, 'viewer');
    expectError(await e.call('POST', `${M}/content-types`, { body: { name: 'Nope', fields: [] } }), 403, 'FORBIDDEN');
    await deleteMembership(env.ctx.db, ws.workspace.id, editor.id);
    expectError(await e.call('GET', `${M}/content-types`), 403, 'FORBIDDEN');
  });

  it('names the workspace with X-Workspace-ID when the person belongs to several', async () => {
    const second = await seedWorkspace(env.ctx);
    const third = await seedWorkspace(env.ctx);
    const m = await memberWithPassword(env.ctx, ws.workspace.slug, 'editor');
    await createMember(env.ctx, second.workspace.slug, m.email, 'viewer');
    const b = await signedIn(env.app, m.email);
    expect((await b.call('GET', `${M}/session`)).body.data.workspaces.map((w: { role: string }) => w.role).sort()).toEqual(['editor', 'viewer']);
    const missing = expectError(await b.call('GET', `${M}/content-types`), 400, 'VALIDATION_FAILED');
    expect(missing.errors[0].path).toBe('headers.x-workspace-id');
    expectError(await b.call('GET', `${M}/content-types`, { headers: { 'x-workspace-id': 'not-a-uuid' } }), 400, 'VALIDATION_FAILED');
    expectError(await b.call('GET', `${M}/content-types`, { headers: { 'x-workspace-id': third.workspace.id } }), 403, 'FORBIDDEN');
    expect((await b.call('GET', `${M}/content-types`, { headers: { 'x-workspace-id': second.workspace.id } })).status).toBe(200);
    expectError(
      await b.call('POST', `${M}/content-types`, { headers: { 'x-workspace-id': second.workspace.id }, body: { name: 'X', fields: [] } }),
      403,
      'FORBIDDEN',
    );
  });

  it('sign-out needs the CSRF token, ends the session and clears the cookie', async () => {
    const m = await memberWithPassword(env.ctx, ws.workspace.slug, 'author');
    const b = await signedIn(env.app, m.email);
    const cookie = b.cookie;
    expectError(await b.call('DELETE', `${M}/session`, { csrf: false }), 403, 'FORBIDDEN');
    const out = await b.call('DELETE', `${M}/session`);
    expect(out.status).toBe(200);
    expect(out.body.data).toBeNull();
    expect(sessionCookieLine(out)).toMatch(/^quire_session=; .*Expires=Thu, 01 Jan 1970/);
    b.cookie = cookie;
    expect(expectError(await b.call('GET', `${M}/session`), 401, 'UNAUTHORIZED').message).toMatch(/session has ended/);
    expectError(await b.call('GET', `${M}/content-types`), 401, 'UNAUTHORIZED');
    expectError(await new Browser(env.app).call('GET', `${M}/session`), 401, 'UNAUTHORIZED');
  });

  it('a password change ends every session of the person and starts a new one', async () => {
    const m = await memberWithPassword(env.ctx, ws.workspace.slug, 'author');
    const one = await signedIn(env.app, m.email);
    const two = await signedIn(env.app, m.email);
    const wrong = expectError(
      await one.call('POST', `${M}/session/password`, { body: { current_password: 'not my password', password: 'new password 123' } }),
      400,
      'VALIDATION_FAILED',
    );
    expect(wrong.errors[0].path).toBe('body.current_password');
    expectError(
      await one.call('POST', `${M}/session/password`, { body: { current_password: PASSWORD, password: 'new password 123' }, csrf: false }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await one.call('POST', `${M}/session/password`, { body: { token: 'qt_x', current_password: PASSWORD, password: 'new password 123' } }),
      400,
      'VALIDATION_FAILED',
    );
    const oldCookie = one.cookie;
    const changed = await one.call('POST', `${M}/session/password`, { body: { current_password: PASSWORD, password: 'new password 123' } });
    expect(changed.status).toBe(200);
    expect(one.cookie).not.toBe(oldCookie);
    expect((await one.call('GET', `${M}/content-types`)).status).toBe(200);
    expectError(await two.call('GET', `${M}/session`), 401, 'UNAUTHORIZED');
    const stale = new Browser(env.app);
    stale.cookie = oldCookie;
    expectError(await stale.call('GET', `${M}/session`), 401, 'UNAUTHORIZED');
    expectError(await new Browser(env.app).signIn(m.email, PASSWORD), 401, 'UNAUTHORIZED');
    expect((await new Browser(env.app).signIn(m.email, 'new password 123')).status).toBe(200);
  });

  it('ends a session after SESSION_IDLE_HOURS without a request and SESSION_MAX_AGE_HOURS after sign-in', async () => {
    const m = await memberWithPassword(env.ctx, ws.workspace.slug, 'author');
    const idle = await signedIn(env.app, m.email);
    advance(23 * 3_600_000);
    expect((await idle.call('GET', `${M}/session`)).status).toBe(200);
    advance(23 * 3_600_000);
    expect((await idle.call('GET', `${M}/session`)).status).toBe(200);
    advance(24 * 3_600_000 + 1);
    expectError(await idle.call('GET', `${M}/session`), 401, 'UNAUTHORIZED');

    // An abandoned session's row is swept at the next sign-in of anyone.
    const abandoned = await signedIn(env.app, m.email);
    const digestCount = async () =>
      Number(
        (
          await env.ctx.db.kysely
            .selectFrom('sessions')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('user_id', '=', m.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(abandoned.cookie).not.toBeNull();
    const before = await digestCount();
    advance(25 * 3_600_000);
    await signedIn(env.app, (await memberWithPassword(env.ctx, ws.workspace.slug, 'viewer')).email);
    expect(await digestCount()).toBe(before - 1);

    const busy = await signedIn(env.app, m.email);
    for (let h = 0; h < 336; h += 20) {
      advance(20 * 3_600_000);
      const res = await busy.call('GET', `${M}/session`);
      expect(res.status).toBe(h + 20 < 336 ? 200 : 401);
    }
  });

  it('key requests are unaffected: a key wins over a cookie, needs no CSRF token, and cannot use /session', async () => {
    const m = await memberWithPassword(env.ctx, ws.workspace.slug, 'viewer');
    const b = await signedIn(env.app, m.email);
    const res = await b.call('POST', `${M}/content-types`, {
      csrf: false,
      headers: { 'x-api-key': ws.keys.management },
      body: { name: 'Key made', fields: [] },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.slug).toBe('key-made');
    expectError(await call(env.app, 'GET', `${M}/session`, { key: ws.keys.management }), 401, 'UNAUTHORIZED');
    expectError(await call(env.app, 'GET', `${M}/content-types`), 401, 'UNAUTHORIZED');
    expectError(await call(env.app, 'GET', `${M}/content-types`, { headers: { cookie: 'quire_session=qs_forged' } }), 401, 'UNAUTHORIZED');
  });

  // The demo is seeded on embedded databases only (D60).
  // The demo is created on the embedded database only (D60), so this runs on SQLite.
  if (dialect === 'sqlite')
    it('npm start prints the demo owner’s one-time setup link beside the keys', async () => {
      const demoEnv = await createTestEnv(dialect, { config: { demo: true } });
      try {
        const demo = await seedDemo(demoEnv.ctx);
        expect(demo?.setup_url).toMatch(/^http:\/\/quire\.test\/studio\/setup\?token=qt_/);
        const banner = demoBanner(demo!, demoEnv.config.publicUrl);
        expect(banner).toContain(demo!.keys.management);
        expect(banner).toContain(demo!.setup_url!);
        const res = await new Browser(demoEnv.app).call('POST', `${M}/session/password`, { body: { token: tokenOf(demo!.setup_url!), password: PASSWORD } });
        expect(res.body.data.workspaces).toEqual([expect.objectContaining({ slug: 'demo', role: 'owner' })]);
      } finally {
        await demoEnv.close();
      }
    });

  it('marks the cookie Secure when PUBLIC_URL is https', async () => {
    const secureEnv = await createTestEnv(dialect, { config: { publicUrl: 'https://cms.example.com' } });
    try {
      const other = await seedWorkspace(secureEnv.ctx);
      expect(other.setup_url).toMatch(/^https:\/\/cms\.example\.com\/studio\/setup\?token=/);
      const user = await findUserByEmail(secureEnv.ctx.db, other.user.email);
      expect(user).not.toBeNull();
      const res = await new Browser(secureEnv.app).call('POST', `${M}/session/password`, { body: { token: tokenOf(other.setup_url!), password: PASSWORD } });
      expect(sessionCookieLine(res)).toMatch(/; Secure/);
    } finally {
      await secureEnv.close();
    }
  });

  it('logs no session id, setup token, password or CSRF token (debug level), and the scanner would catch them', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    const app = await buildApp({ ...env.ctx, log: createLogger('debug', sink) }, { logger: true });
    await app.ready();
    const secrets: string[] = [];
    try {
      const other = await seedWorkspace(env.ctx);
      const token = tokenOf(other.setup_url!);
      const b = new Browser(app);
      await b.call('GET', `${M}/session/token?token=${token}`);
      await b.call('POST', `${M}/session/password`, { body: { token, password: PASSWORD } });
      await b.call('POST', `${M}/session/password`, { body: { token, password: PASSWORD } });
      await b.call('GET', `${M}/content-types`);
      await b.call('POST', `${M}/content-types`, { body: { name: 'Logged', fields: [] }, csrf: false });
      await b.call('POST', `${M}/session/password`, { body: { current_password: PASSWORD, password: 'second password!' } });
      await new Browser(app).signIn(other.user.email, 'wrong password!');
      secrets.push(token, b.cookie!, b.csrf!, PASSWORD, 'second password!', 'wrong password!');
      await b.call('DELETE', `${M}/session`);
    } finally {
      await app.close();
    }
    expect(lines.length).toBeGreaterThan(8);
    const text = lines.join('\n');
    expect(linesWithSecrets(text)).toEqual([]);
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(linesWithSecrets(`{"cookie":"quire_session=${secrets[1]}"}\n{"url":"/x?t=${secrets[0]}"}\n{"h":"scrypt$15$8$1$abc$def"}`)).toHaveLength(3);
  });
});
