/**
 * Single sign-on with OpenID Connect (D121; docs/access.md "Single sign-on") against a real
 * OpenID provider on loopback (oidc-provider, test/oidc-fixtures.ts), on every dialect: the whole
 * authorization code flow by HTTP (Quire's routes through inject, the provider's login and
 * consent pages by fetch, cookies carried by hand), people matched by verified email and created
 * with the roles OIDC_ROLE_MAP grants, refusals shown on the Studio's sign-in page, state, nonce
 * and code checks, and OIDC_ONLY turning passwords off.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.js';
import { createContext } from '../src/context.js';
import { oidcSettingsFrom } from '../src/modules/auth/oidc-config.js';
import { setMemberRole } from '../src/modules/auth/operations.js';
import { findUserByEmail } from '../src/modules/auth/repository.js';
import { setPasswordForUser } from '../src/modules/auth/sessions.js';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from './helpers.js';
import { CLIENT_ID, CLIENT_SECRET, startProvider, walkProvider, type TestProvider } from './oidc-fixtures.js';
import { memberWithPassword, PASSWORD } from './studio-helpers.js';
import type { BootstrapResult } from '../src/modules/auth/operations.js';

const M = '/api/v1/manage';
const CALLBACK = 'http://quire.test/api/v1/manage/session/oidc/callback';

/** The value of cookie `name` among a response's Set-Cookie lines, and its whole line. */
function setCookie(headers: Record<string, unknown>, name: string): { value: string; line: string } | null {
  const raw = headers['set-cookie'];
  const lines = Array.isArray(raw) ? (raw as string[]) : typeof raw === 'string' ? [raw] : [];
  const line = lines.find((l) => l.startsWith(`${name}=`));
  return line ? { value: line.slice(name.length + 1, line.indexOf(';')), line } : null;
}

interface FlowResult {
  status: number;
  location: string;
  session: string | null;
  callbackUrl: URL;
  flowCookie: string;
}

describe.each(dialects())('single sign-on on %s', (dialect) => {
  let provider: TestProvider;
  let env: TestEnv;
  let alpha: BootstrapResult;
  let beta: BootstrapResult;
  let now = new Date();

  /** GET /session/oidc/start: the provider URL and the flow cookie. */
  async function start(app = env.app): Promise<{ url: string; cookie: string; line: string }> {
    const res = await app.inject({ method: 'GET', url: `${M}/session/oidc/start` });
    expect(res.statusCode).toBe(303);
    const cookie = setCookie(res.headers, 'quire_oidc')!;
    return { url: res.headers.location as string, cookie: cookie.value, line: cookie.line };
  }

  /** The callback as the browser makes it: the provider's redirect, with the flow cookie (if any). */
  async function callback(url: URL, flowCookie: string | null, app = env.app): Promise<{ status: number; location: string; session: string | null }> {
    const res = await app.inject({
      method: 'GET',
      url: `${url.pathname}${url.search}`,
      headers: flowCookie ? { cookie: `quire_oidc=${flowCookie}` } : {},
    });
    return { status: res.statusCode, location: res.headers.location as string, session: setCookie(res.headers, 'quire_session')?.value ?? null };
  }

  /** A whole sign-in as `login`; `tamper` may change the authorization URL first. */
  async function signInAs(login: string, tamper?: (url: URL) => void, app = env.app): Promise<FlowResult> {
    const begun = await start(app);
    const url = new URL(begun.url);
    tamper?.(url);
    const back = await walkProvider(url.href, login, CALLBACK);
    const done = await callback(back, begun.cookie, app);
    return { ...done, callbackUrl: back, flowCookie: begun.cookie };
  }

  async function sessionOf(cookie: string) {
    return call(env.app, 'GET', `${M}/session`, { headers: { cookie: `quire_session=${cookie}` } });
  }

  beforeAll(async () => {
    provider = await startProvider([CALLBACK], {
      alice: { email: 'Alice@Example.com', email_verified: true, name: 'Alice Liddell', groups: ['quire-editors', 'staff'] },
      bob: { email: 'bob@example.com', email_verified: false, groups: ['quire-editors'] },
      carol: { email: 'carol@example.com', email_verified: true, groups: ['marketing-interns'] },
      dave: { email: 'dave@example.com', email_verified: true, groups: ['quire-admins', 'quire-editors'] },
    });
    env = await createTestEnv(dialect, {
      clock: () => now,
      config: {
        oidc: oidcSettingsFrom({
          OIDC_ISSUER: provider.issuer,
          OIDC_CLIENT_ID: CLIENT_ID,
          OIDC_CLIENT_SECRET: CLIENT_SECRET,
          OIDC_ROLE_CLAIM: 'groups',
          OIDC_ROLE_MAP: JSON.stringify({
            'quire-admins': { 'sso-alpha': 'admin' },
            'quire-editors': { 'sso-alpha': 'editor', 'sso-beta': 'viewer', 'sso-gone': 'editor' },
            staff: { 'sso-gamma': 'no-such-role' },
          }),
          OIDC_NAME: 'Test IdP',
        }),
      },
    });
    alpha = await seedWorkspace(env.ctx, { slug: 'sso-alpha' });
    beta = await seedWorkspace(env.ctx, { slug: 'sso-beta' });
    await seedWorkspace(env.ctx, { slug: 'sso-gamma' });
  });
  afterAll(async () => {
    await env?.close();
    await provider?.close();
  });

  it('says how people sign in: password and the provider by name', async () => {
    const res = await call(env.app, 'GET', `${M}/session/methods`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ password: true, sso: { name: 'Test IdP', start_url: `${M}/session/oidc/start` } });
  });

  it('starts the code flow with PKCE (S256), state and nonce in a signed, HttpOnly, short-lived cookie', async () => {
    const begun = await start();
    const url = new URL(begun.url);
    expect(url.origin).toBe(provider.issuer);
    const q = url.searchParams;
    expect(q.get('client_id')).toBe(CLIENT_ID);
    expect(q.get('redirect_uri')).toBe(CALLBACK);
    expect(q.get('response_type')).toBe('code');
    expect(q.get('scope')).toBe('openid email profile');
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get('state')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(q.get('nonce')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(begun.line).toMatch(/; HttpOnly/);
    expect(begun.line).toMatch(/; SameSite=Lax/);
    expect(begun.line).toMatch(/; Path=\/api\/v1\/manage\/session\/oidc(;|$)/);
    const expires = Date.parse(/Expires=([^;]+)/.exec(begun.line)![1]);
    expect(expires - Date.now()).toBeGreaterThan(8 * 60_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(10 * 60_000);
    // The verifier itself never leaves in the URL.
    expect(begun.url).not.toContain(JSON.parse(Buffer.from(begun.cookie.split('.')[0], 'base64url').toString()).verifier);
  });

  it('a first sign-in creates the person with the roles the claim maps to; the second reuses them', async () => {
    expect(await findUserByEmail(env.ctx.db, 'alice@example.com')).toBeNull();
    const first = await signInAs('alice');
    expect(first.status).toBe(303);
    expect(first.location).toBe('/studio/');
    expect(first.session).toMatch(/^qs_[A-Za-z0-9_-]{43}$/);
    const info = (await sessionOf(first.session!)).body.data;
    expect(info.user).toEqual({ id: expect.any(Number), email: 'alice@example.com', name: 'Alice Liddell' });
    // sso-gone is no workspace and no-such-role (for sso-gamma) no role: both skipped. One value of
    // the claim grants two workspaces.
    expect(info.workspaces.map((w: { slug: string; role: string }) => [w.slug, w.role])).toEqual([
      ['sso-alpha', 'editor'],
      ['sso-beta', 'viewer'],
    ]);
    // The session acts in the management API with its role.
    const wrote = await call(env.app, 'POST', `${M}/content-types`, {
      headers: { cookie: `quire_session=${first.session}`, 'x-csrf-token': info.csrf_token, 'x-workspace-id': alpha.workspace.id },
      body: { slug: 'post', name: 'Post', fields: [{ name: 'title', type: 'text' }] },
    });
    expectError(wrote, 403, 'FORBIDDEN');

    // Roles changed in Quire stay: the map is read only while the person has no workspace.
    await setMemberRole(env.ctx, 'sso-beta', 'alice@example.com', 'author');
    const second = await signInAs('alice');
    expect(second.status).toBe(303);
    expect(second.session).not.toBe(first.session);
    const again = (await sessionOf(second.session!)).body.data;
    expect(again.user.id).toBe(info.user.id);
    expect(again.workspaces.map((w: { slug: string; role: string }) => [w.slug, w.role])).toEqual([
      ['sso-alpha', 'editor'],
      ['sso-beta', 'author'],
    ]);
    const rows = await env.ctx.db.kysely.selectFrom('users').select('id').where('email', '=', 'alice@example.com').execute();
    expect(rows).toHaveLength(1);

    // One call records password and single sign-ons alike in the audit log (D122), with where the callback came from.
    const audit = await env.ctx.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'actor_user_id', 'actor_label', 'changed_fields', 'user_agent', 'request_id'])
      .where('action', '=', 'session.sign_in')
      .where('actor_user_id', '=', info.user.id)
      .execute();
    expect(audit).toHaveLength(2);
    expect(audit[0]).toMatchObject({ actor_label: 'alice@example.com', changed_fields: JSON.stringify(['oidc']), request_id: expect.stringMatching(/^req_/) });
    expect(audit[0].user_agent).toEqual(expect.any(String));
    // The memberships the role map made are recorded too, once each, by the system actor 'oidc'.
    const added = await env.ctx.db.kysely
      .selectFrom('audit_log')
      .select(['workspace_id', 'actor_type', 'actor_label'])
      .where('action', '=', 'member.added')
      .where('target_id', '=', String(info.user.id))
      .execute();
    expect(added.map((r) => [r.actor_type, r.actor_label])).toEqual([
      ['system', 'oidc'],
      ['system', 'oidc'],
    ]);
    expect(added.map((r) => r.workspace_id)).toContain(alpha.workspace.id);
  });

  it('another instance on the same database finishes a sign-in this one began (nothing kept in memory)', async () => {
    const ctx = await createContext(env.config, env.ctx.db, { log: env.ctx.log, clock: () => now });
    const other = await buildApp(ctx, { logger: false });
    try {
      const begun = await start();
      const back = await walkProvider(begun.url, 'alice', CALLBACK);
      const done = await callback(back, begun.cookie, other);
      expect([done.status, done.location]).toEqual([303, '/studio/']);
      expect((await sessionOf(done.session!)).body.data.user.email).toBe('alice@example.com');
    } finally {
      // Only the app: the database is the suite's.
      await other.close();
    }
  });

  it('the first entry of the map naming a workspace decides its role', async () => {
    const res = await signInAs('dave');
    const info = (await sessionOf(res.session!)).body.data;
    expect(info.workspaces.map((w: { slug: string; role: string }) => [w.slug, w.role])).toEqual([
      ['sso-alpha', 'admin'],
      ['sso-beta', 'viewer'],
    ]);
  });

  it('an existing account (a password user) is the same person when the provider verifies its email', async () => {
    const member = await memberWithPassword(env.ctx, beta.workspace.slug, 'editor');
    provider.accounts.set('erin', { email: member.email.toUpperCase(), email_verified: true, groups: ['nothing-mapped'] });
    const res = await signInAs('erin');
    expect(res.status).toBe(303);
    const info = (await sessionOf(res.session!)).body.data;
    expect(info.user.id).toBe(member.id);
    expect(info.workspaces.map((w: { slug: string; role: string }) => [w.slug, w.role])).toEqual([['sso-beta', 'editor']]);
  });

  it('refuses an unverified email and a claim that maps to nothing on the Studio sign-in page, creating nobody', async () => {
    const unverified = await signInAs('bob');
    expect(unverified.status).toBe(303);
    expect(unverified.location).toBe('/studio/sign-in?sso_error=email_unverified');
    expect(unverified.session).toBeNull();
    expect(await findUserByEmail(env.ctx.db, 'bob@example.com')).toBeNull();

    const unmapped = await signInAs('carol');
    expect(unmapped.status).toBe(303);
    expect(unmapped.location).toBe('/studio/sign-in?sso_error=not_mapped');
    expect(unmapped.session).toBeNull();
    expect(await findUserByEmail(env.ctx.db, 'carol@example.com')).toBeNull();
    const failed = await env.ctx.db.kysely
      .selectFrom('audit_log')
      .select(['target_slug', 'changed_fields'])
      .where('action', '=', 'session.sign_in_failed')
      .where('target_slug', 'in', ['bob@example.com', 'carol@example.com'])
      .orderBy('target_slug')
      .execute();
    expect(failed).toEqual([
      { target_slug: 'bob@example.com', changed_fields: JSON.stringify(['oidc']) },
      { target_slug: 'carol@example.com', changed_fields: JSON.stringify(['oidc']) },
    ]);
  });

  it('refuses a state that does not match, a nonce that does not match, a replayed code and a missing flow cookie', async () => {
    // Why each was refused is logged (the person is shown one "could not be completed" message).
    const logged = vi.spyOn(env.ctx.log, 'info');
    const lastWhy = () => String((logged.mock.calls.at(-1)?.[0] as { detail?: string } | undefined)?.detail);
    const state = await signInAs('alice', (url) => url.searchParams.set('state', 'another-state-of-the-attacker-1234'));
    expect(state.callbackUrl.searchParams.get('code')).toBeTruthy();
    expect([state.status, state.location, state.session]).toEqual([303, '/studio/sign-in?sso_error=failed', null]);
    expect(lastWhy()).toMatch(/unexpected "state" response parameter value/);

    // Another flow's cookie with this flow's answer: the state differs too.
    const other = await start();
    const begun = await start();
    const back = await walkProvider(begun.url, 'alice', CALLBACK);
    const crossed = await callback(back, other.cookie);
    expect([crossed.status, crossed.location, crossed.session]).toEqual([303, '/studio/sign-in?sso_error=failed', null]);
    expect(lastWhy()).toMatch(/"state"/);

    const nonce = await signInAs('alice', (url) => url.searchParams.set('nonce', 'a-nonce-quire-never-issued-5678'));
    expect([nonce.status, nonce.location, nonce.session]).toEqual([303, '/studio/sign-in?sso_error=failed', null]);
    expect(lastWhy()).toMatch(/unexpected ID Token "nonce" claim value/);

    const good = await signInAs('alice');
    expect(good.session).not.toBeNull();
    const replayed = await callback(good.callbackUrl, good.flowCookie);
    expect([replayed.status, replayed.location, replayed.session]).toEqual([303, '/studio/sign-in?sso_error=failed', null]);
    expect(lastWhy()).toMatch(/invalid_grant/);
    const cookieless = await callback(good.callbackUrl, null);
    expect([cookieless.status, cookieless.location, cookieless.session]).toEqual([303, '/studio/sign-in?sso_error=expired', null]);
    const forged = await callback(good.callbackUrl, `${good.flowCookie.split('.')[0]}.${'A'.repeat(43)}`);
    expect(forged.location).toBe('/studio/sign-in?sso_error=expired');
    logged.mockRestore();
  });

  it('a flow older than 10 minutes has expired', async () => {
    const begun = await start();
    const back = await walkProvider(begun.url, 'alice', CALLBACK);
    now = new Date(now.getTime() + 10 * 60_000 + 1000);
    const res = await callback(back, begun.cookie);
    expect([res.status, res.location, res.session]).toEqual([303, '/studio/sign-in?sso_error=expired', null]);
  });

  it('a person who cancels at the provider comes back to the sign-in page', async () => {
    const begun = await start();
    const url = new URL(CALLBACK);
    url.searchParams.set('error', 'access_denied');
    url.searchParams.set('state', new URL(begun.url).searchParams.get('state')!);
    const res = await callback(url, begun.cookie);
    expect([res.status, res.location, res.session]).toEqual([303, '/studio/sign-in?sso_error=provider_error', null]);
  });

  it('an issuer that cannot be reached sends the browser back to the sign-in page, and the next try discovers again', async () => {
    const closed = await startProvider([CALLBACK], {});
    const issuer = closed.issuer;
    await closed.close();
    const down = await createTestEnv(dialect, { config: { oidc: { ...env.config.oidc!, issuer } } });
    try {
      const res = await down.app.inject({ method: 'GET', url: `${M}/session/oidc/start` });
      expect([res.statusCode, res.headers.location]).toEqual([303, '/studio/sign-in?sso_error=provider_error']);
      expect(setCookie(res.headers, 'quire_oidc')).toBeNull();
      // A failed discovery is not remembered.
      expect(down.ctx.caches.oidc.client).toBeUndefined();
    } finally {
      await down.close();
    }
  });

  it('returns to the Studio path asked for, never elsewhere', async () => {
    const res = await env.app.inject({ method: 'GET', url: `${M}/session/oidc/start?next=${encodeURIComponent('/sso-alpha/model')}` });
    const back = await walkProvider(res.headers.location as string, 'alice', CALLBACK);
    const done = await callback(back, setCookie(res.headers, 'quire_oidc')!.value);
    expect(done.location).toBe('/studio/sso-alpha/model');
    const away = await env.app.inject({ method: 'GET', url: `${M}/session/oidc/start?next=${encodeURIComponent('//evil.example/x')}` });
    const back2 = await walkProvider(away.headers.location as string, 'alice', CALLBACK);
    expect((await callback(back2, setCookie(away.headers, 'quire_oidc')!.value)).location).toBe('/studio/');
  });

  it('OIDC_ONLY turns password sign-in and password setting off, with a clear error; single sign-on still works', async () => {
    const only = await createTestEnv(dialect, { config: { oidc: { ...env.config.oidc!, only: true } } });
    try {
      const ws = await seedWorkspace(only.ctx, { slug: 'sso-alpha' });
      const methods = await call(only.app, 'GET', `${M}/session/methods`);
      expect(methods.body.data).toEqual({ password: false, sso: { name: 'Test IdP', start_url: `${M}/session/oidc/start` } });
      const token = new URL(ws.setup_url!).searchParams.get('token')!;
      const set = expectError(await call(only.app, 'POST', `${M}/session/password`, { body: { token, password: PASSWORD } }), 403, 'FORBIDDEN');
      expect(set.message).toBe('Passwords are turned off on this Quire (OIDC_ONLY): sign in with Test IdP');
      const signIn = expectError(await call(only.app, 'POST', `${M}/session`, { body: { email: ws.user.email, password: PASSWORD } }), 403, 'FORBIDDEN');
      expect(signIn.message).toMatch(/OIDC_ONLY/);
      // The bootstrap owner signs in with the provider, by email.
      provider.accounts.set('owner', { email: ws.user.email, email_verified: true });
      const res = await signInAs('owner', undefined, only.app);
      expect(res.status).toBe(303);
      const info = (await call(only.app, 'GET', `${M}/session`, { headers: { cookie: `quire_session=${res.session}` } })).body.data;
      expect(info.workspaces.map((w: { slug: string; role: string }) => w.role)).toEqual(['owner']);

      // Changing a password on a session, and the CLI's set-password, refuse too.
      const session = { cookie: `quire_session=${res.session}`, 'x-csrf-token': info.csrf_token, 'x-workspace-id': ws.workspace.id };
      const change = await call(only.app, 'POST', `${M}/session/password`, {
        headers: session,
        body: { current_password: PASSWORD, password: 'a new password 123' },
      });
      expect(expectError(change, 403, 'FORBIDDEN').message).toMatch(/OIDC_ONLY/);
      await expect(setPasswordForUser(only.ctx, ws.user.id, PASSWORD)).rejects.toThrow(/OIDC_ONLY/);
      // An invitation asks the invited person to sign in (with the provider) and accept, never for a password.
      const invited = await call(only.app, 'POST', `${M}/users/invitations`, { headers: session, body: { email: 'newcomer@example.com', role: 'author' } });
      expect(invited.status).toBe(201);
      const link = new URL(invited.body.data.invitation_url).searchParams.get('token')!;
      expect((await call(only.app, 'GET', `${M}/session/token?token=${link}`)).body.data.action).toBe('sign_in');
      expectError(await call(only.app, 'POST', `${M}/session/password`, { body: { token: link, password: PASSWORD } }), 403, 'FORBIDDEN');
    } finally {
      await only.close();
    }
  });
});
