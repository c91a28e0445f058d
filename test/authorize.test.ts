/**
 * The permission check against the API, table-driven, on every dialect: for every credential (a
 * Studio session of each preset role; a management key of each creator role holding all scopes
 * or one; a delivery key with and without a whitelist) and every action (each scope, each
 * people, key and settings action, the owner rules, the delivery whitelist), the API's answer
 * equals `authorize`'s: refused with the same status, code and message, or let through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/errors.js';
import { decide, type Action, type Resource } from '../src/modules/access/authorize.js';
import { authenticate, createApiKey } from '../src/modules/auth/operations.js';
import { ROLES, SCOPES, type Actor, type Role, type Scope } from '../src/modules/auth/permissions.js';
import { readSession, sessionActor, setPasswordForUser } from '../src/modules/auth/sessions.js';
import { call, createTestEnv, dialects, seedWorkspace, type Res, type TestEnv } from './helpers.js';
import { memberWithPassword, PASSWORD, signedIn, type Browser } from './studio-helpers.js';

const M = '/api/v1/manage';
const D = '/api/v1/public';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface Credential {
  label: string;
  actor: Actor;
  send(method: Method, url: string, body?: unknown): Promise<Res>;
}
interface Probe {
  action: Action;
  resource?: Resource;
  method: Method;
  url: string;
  body?: unknown;
  /** The status when allowed (the request is harmless: it fails after the check, or changes nothing). */
  allowed: number;
}

describe.each(dialects())('authorize: the API answers as the check decides, on %s', (dialect) => {
  let env: TestEnv;
  const managers: Credential[] = [];
  const readers: Credential[] = [];
  const probes: Probe[] = [];

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    const s = await seedWorkspace(env.ctx);
    const ws = s.workspace;
    const post = await call(env.app, 'POST', `${M}/content-types`, {
      key: s.keys.management,
      body: { name: 'Post', slug: 'post', fields: [{ name: 'title', field_type: 'text' }] },
    });
    expect(post.status, JSON.stringify(post.body)).toBe(201);
    const other = await call(env.app, 'POST', `${M}/content-types`, {
      key: s.keys.management,
      body: { name: 'Note', slug: 'note', fields: [{ name: 'title', field_type: 'text' }] },
    });
    expect(other.status).toBe(201);

    const users: Record<Role, number> = { owner: s.user.id, admin: 0, editor: 0, author: 0, viewer: 0 };
    const browsers: Partial<Record<Role, Browser>> = {};
    await setPasswordForUser(env.ctx, s.user.id, PASSWORD);
    browsers.owner = await signedIn(env.app, s.user.email, ws.id);
    for (const role of ROLES.filter((r) => r !== 'owner')) {
      const m = await memberWithPassword(env.ctx, ws.slug, role);
      users[role] = m.id;
      browsers[role] = await signedIn(env.app, m.email, ws.id);
    }
    for (const role of ROLES) {
      const b = browsers[role]!;
      const actor = await sessionActor(env.ctx, (await readSession(env.ctx, b.cookie!))!, ws.id);
      managers.push({ label: `session of ${role}`, actor, send: (method, url, body) => b.call(method, url, { body }) });
      for (const scopes of [undefined, ...SCOPES.map((sc) => [sc])] as (Scope[] | undefined)[]) {
        const key = (await createApiKey(env.ctx, ws.id, users[role], { keyClass: 'management', scopes })).key;
        const actor = await authenticate(env.ctx, key, 'management');
        managers.push({
          label: `key of ${role} with ${scopes?.join(',') ?? 'all scopes'}`,
          actor,
          send: (method, url, body) => call(env.app, method, url, { key, body }),
        });
      }
    }
    for (const contentTypes of [[], ['post']]) {
      const key = (await createApiKey(env.ctx, ws.id, s.user.id, { keyClass: 'delivery', contentTypes })).key;
      const actor = await authenticate(env.ctx, key, 'delivery');
      readers.push({ label: `delivery key, whitelist [${contentTypes.join(',')}]`, actor, send: (method, url) => call(env.app, method, url, { key }) });
    }

    // Each probe fails after the check (unknown target, invalid body) or changes nothing, so the
    // table can run every credential against every probe.
    probes.push(
      { action: 'content:write', method: 'POST', url: `${M}/content-types/missing/entries`, body: {}, allowed: 400 },
      { action: 'content:publish', method: 'PATCH', url: `${M}/content-types/post/entries/bulk`, body: {}, allowed: 400 },
      { action: 'schema:write', method: 'PATCH', url: `${M}/content-types/missing`, body: {}, allowed: 404 },
      { action: 'media:write', method: 'PUT', url: `${M}/media/${UNKNOWN}`, body: {}, allowed: 404 },
      { action: 'webhooks:write', method: 'GET', url: `${M}/webhooks/${UNKNOWN}`, allowed: 404 },
      { action: 'people:list', method: 'GET', url: `${M}/users`, allowed: 200 },
      { action: 'people:invite', method: 'POST', url: `${M}/users/invitations`, body: { email: 'not-an-email', role: 'editor' }, allowed: 400 },
      {
        action: 'people:invite',
        resource: { grant: 'owner' },
        method: 'POST',
        url: `${M}/users/invitations`,
        body: { email: 'not-an-email', role: 'owner' },
        allowed: 400,
      },
      { action: 'people:cancel-invitation', method: 'DELETE', url: `${M}/users/invitations/${UNKNOWN}`, allowed: 404 },
      { action: 'people:change-role', method: 'PATCH', url: `${M}/users/999999`, body: { role: 'editor' }, allowed: 404 },
      { action: 'people:change-role', method: 'PATCH', url: `${M}/users/${users.editor}`, body: { role: 'editor' }, allowed: 200 },
      {
        action: 'people:change-role',
        resource: { role: 'owner', grant: 'admin', owners: 1 },
        method: 'PATCH',
        url: `${M}/users/${users.owner}`,
        body: { role: 'admin' },
        allowed: 200,
      },
      { action: 'people:remove', method: 'DELETE', url: `${M}/users/999999`, allowed: 404 },
      { action: 'people:remove', resource: { role: 'owner', owners: 1 }, method: 'DELETE', url: `${M}/users/${users.owner}`, allowed: 204 },
      { action: 'keys:list', method: 'GET', url: `${M}/api-keys`, allowed: 200 },
      { action: 'keys:create', method: 'POST', url: `${M}/api-keys`, body: { name: ' ', key_class: 'management' }, allowed: 400 },
      { action: 'keys:revoke', method: 'DELETE', url: `${M}/api-keys/${UNKNOWN}`, allowed: 404 },
      { action: 'settings:update', method: 'PATCH', url: `${M}/workspace`, body: { name: ' ' }, allowed: 400 },
      { action: 'audit:read', method: 'GET', url: `${M}/audit-log`, allowed: 200 },
      { action: 'roles:list', method: 'GET', url: `${M}/roles`, allowed: 200 },
      { action: 'roles:write', method: 'POST', url: `${M}/roles`, body: { name: ' ', permissions: [] }, allowed: 400 },
      { action: 'roles:write', method: 'DELETE', url: `${M}/roles/${UNKNOWN}`, allowed: 404 },
    );
  });

  afterAll(async () => {
    await env?.close();
  });

  async function expectSameAnswer(credential: Credential, probe: Probe, res: Res): Promise<void> {
    const denial = decide(credential.actor, probe.action, probe.resource);
    const what = `${credential.label} → ${probe.method} ${probe.url}: ${res.status} ${JSON.stringify(res.body)}`;
    if (denial) {
      expect({ status: res.status, code: res.body?.code, message: res.body?.message }, what).toEqual({
        status: new AppError(denial.code, '').status,
        code: denial.code,
        message: denial.message,
      });
    } else {
      expect(res.status, what).toBe(probe.allowed);
    }
  }

  it('every management credential × every action', async () => {
    expect(managers).toHaveLength(ROLES.length * (SCOPES.length + 2));
    for (const probe of probes) {
      for (const credential of managers) await expectSameAnswer(credential, probe, await credential.send(probe.method, probe.url, probe.body));
    }
  });

  it('the session lists the capabilities the check grants the role', async () => {
    for (const credential of managers.filter((c) => c.actor.session)) {
      const allowed = probes.filter((p) => !p.resource && decide(credential.actor, p.action) === null).map((p) => p.action);
      const session = await credential.send('GET', `${M}/session`);
      const mine = (session.body.data.workspaces as { id: string; capabilities: string[] }[]).find((w) => w.id === credential.actor.workspaceId)!;
      expect(new Set(mine.capabilities)).toEqual(new Set([...allowed, ...(credential.actor.role === 'owner' ? ['owners:manage'] : [])]));
    }
  });

  it('every delivery key × content type: the whitelist', async () => {
    for (const credential of readers) {
      for (const type of ['post', 'note']) {
        const res = await credential.send('GET', `${D}/entries?type=${type}`);
        await expectSameAnswer(
          credential,
          { action: 'content:read', resource: { contentType: type }, method: 'GET', url: `${D}/entries?type=${type}`, allowed: 200 },
          res,
        );
      }
    }
  });
});
