/**
 * Accounts belong to their person (issue 23, finding 2). An invitation never hands an existing
 * account to a workspace: it stays pending until the person, signed in as themselves, accepts it
 * with the invitation's own token. An invitation link sets a password only for a brand-new
 * account (never signed in, no password, no membership), so the admin who carried one link holds
 * no other workspace's door. Invitation answers and the People list say nothing about other
 * workspaces: inviting an address with an account elsewhere looks exactly like inviting a new one.
 * Runs without SMTP_URL (the inviting admin gets the link, the strongest position for an
 * attacker); test/studio-admin.test.ts covers the e-mailed path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capabilitiesOf } from '../../src/modules/access/authorize.js';
import type { BootstrapResult } from '../../src/modules/auth/operations.js';
import { createMember } from '../../src/modules/auth/operations.js';
import { issueToken, setPasswordForUser } from '../../src/modules/auth/sessions.js';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type Res, type TestEnv } from '../helpers.js';
import { Browser, memberWithPassword, PASSWORD, signedIn } from '../studio-helpers.js';

const M = '/api/v1/manage';
const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;

describe.each(dialects())('invitations and accounts on %s', (dialect) => {
  let env: TestEnv;
  let a: BootstrapResult;
  let b: BootstrapResult;
  let ownerA: Browser;
  let ownerB: Browser;

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    a = await seedWorkspace(env.ctx);
    b = await seedWorkspace(env.ctx);
    await setPasswordForUser(env.ctx, a.user.id, PASSWORD);
    await setPasswordForUser(env.ctx, b.user.id, PASSWORD);
    ownerA = await signedIn(env.app, a.user.email);
    ownerB = await signedIn(env.app, b.user.email);
  });
  afterAll(async () => env?.close());

  const invite = (owner: Browser, email: string, role = 'editor', name?: string) =>
    owner.call('POST', `${M}/users/invitations`, { body: { email, role, ...(name ? { name } : {}) } });
  const workspacesOf = (res: Res) => (res.body.data.workspaces as { id: string }[]).map((w) => w.id);

  it('an admin who chose the password of an address they invited does not get into another workspace that invites it', async () => {
    const victim = `victim-${dialect}@example.com`;
    const first = await invite(ownerA, victim);
    expect(first.status).toBe(201);
    const squatter = new Browser(env.app);
    expect(
      (await squatter.call('POST', `${M}/session/password`, { body: { token: tokenOf(first.body.data.invitation_url), password: 'chosen by admin A' } }))
        .status,
    ).toBe(200);

    const second = await invite(ownerB, victim);
    expect(second.status).toBe(201);
    expect(second.body.data.user.status).toBe('pending');
    // Admin A signs in as the address: workspace B is not theirs, whatever they send.
    const signedInAgain = await squatter.signIn(victim, 'chosen by admin A');
    expect(workspacesOf(signedInAgain)).toEqual([a.workspace.id]);
    squatter.workspaceId = b.workspace.id;
    expectError(await squatter.call('GET', `${M}/content-types`), 403, 'FORBIDDEN');
    // The invitation of B is accepted only with its own token, which went to B's admin (or the mailbox).
    squatter.workspaceId = null;
    expectError(await squatter.call('POST', `${M}/session/invitations/accept`, { body: { token: tokenOf(first.body.data.invitation_url) } }), 404, 'NOT_FOUND');
    const members = (await ownerB.call('GET', `${M}/users`)).body.data as { email: string; status: string }[];
    expect(members.find((m) => m.email === victim)?.status).toBe('pending');
  });

  it('inviting an address with an account elsewhere answers exactly like inviting a new one', async () => {
    const elsewhere = await memberWithPassword(env.ctx, a.workspace.slug, 'admin');
    expect((await signedIn(env.app, elsewhere.email)).cookie).not.toBeNull(); // it has signed in: last_sign_in_at is set
    const existing = await invite(ownerB, elsewhere.email, 'author');
    const fresh = await invite(ownerB, `never-seen-${dialect}@example.com`, 'author');
    expect(existing.status).toBe(201);
    expect(fresh.status).toBe(201);
    const shape = (res: Res) => {
      const { user, invitation_url, expires_at, emailed } = res.body.data;
      return {
        user: { ...user, email: '-', invitation_id: typeof user.invitation_id, created_at: typeof user.created_at, expires_at: typeof user.expires_at },
        invitation_url: typeof invitation_url,
        expires_at: typeof expires_at,
        emailed,
      };
    };
    expect(shape(existing)).toEqual(shape(fresh));
    expect(existing.body.data.user).toMatchObject({ id: null, status: 'pending', last_sign_in_at: null, name: null, role: 'author' });
    // The People list of B shows both the same way, and neither as a member yet.
    const members = (await ownerB.call('GET', `${M}/users`)).body.data as Record<string, unknown>[];
    const rowOf = (email: string) => {
      const { email: _e, invitation_id: _i, created_at: _c, expires_at: _x, ...rest } = members.find((m) => m.email === email)!;
      return rest;
    };
    expect(rowOf(elsewhere.email)).toEqual(rowOf(`never-seen-${dialect}@example.com`));
    expect(workspacesOf(await (await signedIn(env.app, elsewhere.email)).call('GET', `${M}/session`))).toEqual([a.workspace.id]);
  });

  it('an invitation link never sets the password of an account that has one, has signed in or belongs to a workspace', async () => {
    const withPassword = await memberWithPassword(env.ctx, a.workspace.slug, 'editor');
    // A member of A made by the operator, who has no password yet: still someone's account.
    const noPassword = await createMember(env.ctx, a.workspace.slug, `cli-made-${dialect}@example.com`, 'author');
    for (const email of [withPassword.email, noPassword.email]) {
      const res = await invite(ownerB, email, 'admin');
      expect(res.status).toBe(201);
      const token = tokenOf(res.body.data.invitation_url);
      const described = await call(env.app, 'GET', `${M}/session/token?token=${token}`);
      expect(described.body.data).toMatchObject({ purpose: 'invitation', email, action: 'sign_in', role: 'admin' });
      const thief = new Browser(env.app);
      const refused = expectError(await thief.call('POST', `${M}/session/password`, { body: { token, password: 'taken over by B' } }), 403, 'FORBIDDEN');
      expect(refused.message).toMatch(/already has an account: sign in/);
      expect(thief.cookie).toBeNull();
      expectError(await new Browser(env.app).signIn(email, 'taken over by B'), 401, 'UNAUTHORIZED');
    }
    expect((await new Browser(env.app).signIn(withPassword.email, PASSWORD)).status).toBe(200);
  });

  it('the invited person accepts while signed in as themselves, with the invitation token; nobody else can', async () => {
    const person = await memberWithPassword(env.ctx, a.workspace.slug, 'viewer');
    const res = await invite(ownerB, person.email, 'editor');
    const token = tokenOf(res.body.data.invitation_url);
    const accept = (browser: Browser, opts: { csrf?: boolean } = {}) => browser.call('POST', `${M}/session/invitations/accept`, { body: { token }, ...opts });

    expectError(await accept(new Browser(env.app)), 401, 'UNAUTHORIZED');
    const other = await signedIn(env.app, (await memberWithPassword(env.ctx, a.workspace.slug, 'admin')).email);
    expect(expectError(await accept(other), 403, 'FORBIDDEN').message).toMatch(/another email address/);
    const me = await signedIn(env.app, person.email);
    expectError(await accept(me, { csrf: false }), 403, 'FORBIDDEN');
    expectError(await me.call('POST', `${M}/session/invitations/accept`, { body: { token: 'qt_nope' } }), 404, 'NOT_FOUND');
    expectError(await me.call('POST', `${M}/session/invitations/accept`, { body: {} }), 400, 'VALIDATION_FAILED');
    expect(workspacesOf(await me.call('GET', `${M}/session`))).toEqual([a.workspace.id]);

    const accepted = await accept(me);
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.workspaces).toContainEqual(
      expect.objectContaining({
        id: b.workspace.id,
        slug: b.workspace.slug,
        name: 'Test workspace',
        role: 'editor',
        capabilities: capabilitiesOf('editor'),
      }),
    );
    me.workspaceId = b.workspace.id;
    expect((await me.call('GET', `${M}/content-types`)).status).toBe(200);
    expectError(await accept(me), 404, 'NOT_FOUND');
    const members = (await ownerB.call('GET', `${M}/users`)).body.data as { id: number | null; email: string; status: string }[];
    expect(members.find((m) => m.email === person.email)).toMatchObject({ id: person.id, status: 'active' });
  });

  it('a brand-new address sets its password with the link and joins; the other pending invitations then need a sign-in', async () => {
    const email = `brand-new-${dialect}@example.com`;
    const fromA = await invite(ownerA, email, 'author', 'Nia');
    const fromB = await invite(ownerB, email, 'viewer');
    const tokenA = tokenOf(fromA.body.data.invitation_url);
    const tokenB = tokenOf(fromB.body.data.invitation_url);
    expect((await call(env.app, 'GET', `${M}/session/token?token=${tokenA}`)).body.data).toMatchObject({ action: 'set_password', role: 'author' });
    const person = new Browser(env.app);
    const set = await person.call('POST', `${M}/session/password`, { body: { token: tokenA, password: 'my own password' } });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ user: { email, name: 'Nia' }, workspaces: [{ id: a.workspace.id, role: 'author' }] });
    // B's link no longer sets a password; the person accepts it signed in.
    expect((await call(env.app, 'GET', `${M}/session/token?token=${tokenB}`)).body.data).toMatchObject({ action: 'sign_in' });
    expectError(await new Browser(env.app).call('POST', `${M}/session/password`, { body: { token: tokenB, password: 'someone else pw' } }), 403, 'FORBIDDEN');
    const accepted = await person.call('POST', `${M}/session/invitations/accept`, { body: { token: tokenB } });
    expect(workspacesOf(accepted).sort()).toEqual([a.workspace.id, b.workspace.id].sort());
  });

  it('two links of one new address redeemed at once: one chooses the password, the other is refused', async () => {
    const email = `race-${dialect}@example.com`;
    const tokens = [tokenOf((await invite(ownerA, email)).body.data.invitation_url), tokenOf((await invite(ownerB, email)).body.data.invitation_url)];
    const answers = await Promise.all(
      tokens.map((token, i) => new Browser(env.app).call('POST', `${M}/session/password`, { body: { token, password: `racing password ${i}` } })),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 403]);
    const winner = answers.findIndex((r) => r.status === 200);
    expect((await new Browser(env.app).signIn(email, `racing password ${winner}`)).status).toBe(200);
    expectError(await new Browser(env.app).signIn(email, `racing password ${1 - winner}`), 401, 'UNAUTHORIZED');
    expect(workspacesOf(answers[winner])).toEqual([[a, b][winner].workspace.id]);
  });

  it('pending invitations are listed as pending, re-inviting replaces the link, cancelling retires it', async () => {
    const email = `changed-mind-${dialect}@example.com`;
    const first = await invite(ownerB, email, 'author');
    const second = await invite(ownerB, email, 'viewer');
    expect(second.status).toBe(201);
    expectError(await call(env.app, 'GET', `${M}/session/token?token=${tokenOf(first.body.data.invitation_url)}`), 404, 'NOT_FOUND');
    const listed = ((await ownerB.call('GET', `${M}/users`)).body.data as { email: string }[]).filter((m) => m.email === email);
    expect(listed).toEqual([
      {
        id: null,
        invitation_id: second.body.data.user.invitation_id,
        email,
        name: null,
        role: 'viewer',
        status: 'pending',
        created_at: expect.any(String),
        last_sign_in_at: null,
        expires_at: second.body.data.expires_at,
      },
    ]);
    const viewer = await signedIn(env.app, (await memberWithPassword(env.ctx, b.workspace.slug, 'viewer')).email);
    expectError(await viewer.call('DELETE', `${M}/users/invitations/${second.body.data.user.invitation_id}`), 403, 'FORBIDDEN');
    expectError(await ownerA.call('DELETE', `${M}/users/invitations/${second.body.data.user.invitation_id}`), 404, 'NOT_FOUND');
    expect((await ownerB.call('DELETE', `${M}/users/invitations/${second.body.data.user.invitation_id}`)).status).toBe(200);
    const token = tokenOf(second.body.data.invitation_url);
    expectError(await call(env.app, 'GET', `${M}/session/token?token=${token}`), 404, 'NOT_FOUND');
    expectError(await new Browser(env.app).call('POST', `${M}/session/password`, { body: { token, password: 'too late password' } }), 404, 'NOT_FOUND');
    expectError(await ownerB.call('DELETE', `${M}/users/invitations/not-a-uuid`), 400, 'VALIDATION_FAILED');
    expectError(await invite(ownerB, b.user.email), 409, 'ALREADY_MEMBER');
  });

  it('an invitation link of an earlier version (a one-time token) works only while its account is brand new', async () => {
    const withPassword = await memberWithPassword(env.ctx, b.workspace.slug, 'editor');
    const inTwo = await createMember(env.ctx, b.workspace.slug, `two-places-${dialect}@example.com`, 'author');
    await createMember(env.ctx, a.workspace.slug, inTwo.email, 'author');
    for (const user of [withPassword, inTwo]) {
      const { token } = await issueToken(env.ctx, user.id, b.workspace.id, 'invitation');
      expectError(await call(env.app, 'GET', `${M}/session/token?token=${token}`), 404, 'NOT_FOUND');
      expectError(await new Browser(env.app).call('POST', `${M}/session/password`, { body: { token, password: 'taken over by B' } }), 404, 'NOT_FOUND');
    }
    const fresh = await createMember(env.ctx, b.workspace.slug, `legacy-fresh-${dialect}@example.com`, 'author');
    const { token } = await issueToken(env.ctx, fresh.id, b.workspace.id, 'invitation');
    expect((await call(env.app, 'GET', `${M}/session/token?token=${token}`)).body.data).toMatchObject({ purpose: 'invitation', action: 'set_password' });
    expect((await new Browser(env.app).call('POST', `${M}/session/password`, { body: { token, password: 'legacy password 1' } })).status).toBe(200);
  });
});
