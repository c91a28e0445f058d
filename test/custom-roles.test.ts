/**
 * Custom roles (D120), on every dialect: the roles API (presets listed read-only, validation with
 * paths, in-use delete 409, owners and admins in a Studio session only), and the three example
 * roles of docs/access.md end to end through the API, by session and by a management key the
 * person created: the translator writes German only, the freelancer writes only their own blog
 * posts, the reviewer reads everything and writes nothing. Every refusal is 403 FORBIDDEN naming
 * the resource, action and type, locale or field, and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/modules/auth/operations.js';
import { setPasswordForUser } from '../src/modules/auth/sessions.js';
import { call, createTestEnv, dialects, expectError, insertMediaRow, seedWorkspace, type Res, type TestEnv } from './helpers.js';
import { png, upload } from './media-fixtures.js';
import { memberWithPassword, PASSWORD, signedIn, type Browser } from './studio-helpers.js';

const M = '/api/v1/manage';

export const TRANSLATOR = {
  name: 'Translator',
  description: 'Translates entries into German',
  permissions: [{ resource: 'entries', actions: ['read', 'update'], locales: ['de'] }],
};
export const FREELANCER = {
  name: 'Freelancer',
  description: 'Writes blog posts of their own',
  permissions: [
    { resource: 'entries', actions: ['read', 'create', 'update', 'delete', 'publish'], content_types: ['blog-post'], own_only: true },
    { resource: 'media', actions: ['read', 'create', 'update', 'delete'], own_only: true },
  ],
};
export const REVIEWER = {
  name: 'Reviewer',
  description: 'Reads everything, writes nothing',
  permissions: ['entries', 'pages', 'media', 'releases', 'content_types'].map((resource) => ({ resource, actions: ['read'] })),
};

describe.each(dialects())('custom roles (%s)', (dialect) => {
  let env: TestEnv;
  let wsId: string;
  let wsSlug: string;
  let ownerKey: string;
  let owner: Browser;
  const people: Record<string, { id: number; browser: Browser; key: string }> = {};

  /** A member with `role` (given by name through PATCH /users/{id}), signed in, with a management key of all scopes. */
  async function person(label: string, role: string) {
    const m = await memberWithPassword(env.ctx, wsSlug, 'viewer');
    const changed = await owner.call('PATCH', `${M}/users/${m.id}`, { body: { role } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const browser = await signedIn(env.app, m.email, wsId);
    const key = (await createApiKey(env.ctx, wsId, m.id, { keyClass: 'management', name: `${label} key` })).key;
    people[label] = { id: m.id, browser, key };
  }

  const ownerReq = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    call(env.app, method, `${M}${url}`, { key: ownerKey, body });
  const entry = async (type: string, slug: string) => (await ownerReq('GET', `/content-types/${type}/entries/${slug}`)).body.data;
  const forbidden = (res: Res, words: RegExp) => {
    const b = expectError(res, 403, 'FORBIDDEN');
    expect(b.message).toMatch(words);
  };

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    const s = await seedWorkspace(env.ctx, { locales: ['en', 'de', 'fr'] });
    wsId = s.workspace.id;
    wsSlug = s.workspace.slug;
    ownerKey = s.keys.management;
    await setPasswordForUser(env.ctx, s.user.id, PASSWORD);
    owner = await signedIn(env.app, s.user.email, wsId);
    for (const [slug, extra] of [
      ['blog-post', [{ name: 'internal_note', field_type: 'text' }]],
      ['news', []],
    ] as const) {
      const res = await ownerReq('POST', '/content-types', {
        name: slug,
        slug,
        fields: [{ name: 'title', field_type: 'text', localizable: true }, { name: 'body', field_type: 'textarea', localizable: true }, ...extra],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    for (const role of [TRANSLATOR, FREELANCER, REVIEWER]) {
      const res = await owner.call('POST', `${M}/roles`, { body: role });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    await person('translator', 'Translator');
    await person('freelancer', 'Freelancer');
    await person('reviewer', 'Reviewer');
    await person('freelancer2', 'Freelancer');
  });
  afterAll(async () => env?.close());

  describe('the roles API', () => {
    it('lists the five presets read-only with their permissions, then the custom roles', async () => {
      const res = await owner.call('GET', `${M}/roles`);
      expect(res.status).toBe(200);
      const roles = res.body.data as { id: string; name: string; preset: boolean; permissions: { resource: string; actions: string[] }[] }[];
      expect(roles.map((r) => r.name)).toEqual(['owner', 'admin', 'editor', 'author', 'viewer', 'Translator', 'Freelancer', 'Reviewer']);
      expect(roles.slice(0, 5).every((r) => r.preset && r.id === r.name)).toBe(true);
      const editor = roles.find((r) => r.id === 'editor')!;
      expect(editor.permissions.find((p) => p.resource === 'entries')!.actions).toEqual(['read', 'create', 'update', 'delete', 'publish']);
      expect(editor.permissions.find((p) => p.resource === 'content_types')!.actions).toEqual(['read']);
      expect(editor.permissions.some((p) => p.resource === 'webhooks')).toBe(false);
      const viewer = roles.find((r) => r.id === 'viewer')!;
      expect(viewer.permissions.every((p) => p.actions.join() === 'read')).toBe(true);
      const translator = roles.find((r) => r.name === 'Translator')!;
      expect(translator).toMatchObject({ preset: false, description: TRANSLATOR.description, permissions: TRANSLATOR.permissions });
      expect((await owner.call('GET', `${M}/roles/Translator`)).body.data.id).toBe(translator.id);
      expect((await owner.call('GET', `${M}/roles/${translator.id}`)).body.data.name).toBe('Translator');
    });

    it('refuses unknown resources, actions, types, locales and fields with the path of each, and changes nothing', async () => {
      const res = await owner.call('POST', `${M}/roles`, {
        body: {
          name: 'Broken',
          permissions: [
            { resource: 'planets', actions: ['read'] },
            { resource: 'entries', actions: ['read', 'fly'], content_types: ['blog-post', 'nope'], locales: ['de', 'xx'], deny_fields: ['title', 'ghost'] },
            { resource: 'media', actions: ['publish'], locales: ['de'] },
          ],
        },
      });
      const errors = expectError(res, 400, 'VALIDATION_FAILED').errors as { path: string }[];
      expect(errors.map((e) => e.path).sort()).toEqual(
        [
          'body.permissions.0.resource',
          'body.permissions.1.actions.1',
          'body.permissions.1.content_types.1',
          'body.permissions.1.locales.1',
          'body.permissions.1.deny_fields.1',
          'body.permissions.2.actions.0',
          'body.permissions.2.locales',
        ].sort(),
      );
      expectError(await owner.call('POST', `${M}/roles`, { body: { name: 'editor', permissions: [] } }), 400, 'VALIDATION_FAILED');
      expectError(await owner.call('POST', `${M}/roles`, { body: { name: 'Translator', permissions: [] } }), 400, 'VALIDATION_FAILED');
      expect((await owner.call('GET', `${M}/roles`)).body.data).toHaveLength(8);
    });

    it('presets are read-only: PATCH and DELETE answer 403', async () => {
      forbidden(await owner.call('PATCH', `${M}/roles/editor`, { body: { description: 'x' } }), /preset role 'editor' is read-only/);
      forbidden(await owner.call('DELETE', `${M}/roles/viewer`), /preset role 'viewer' is read-only/);
    });

    it('owners and admins in a Studio session only: keys and editors are refused', async () => {
      forbidden(await ownerReq('GET', '/roles'), /needs a Studio session: keys cannot manage roles/);
      forbidden(await ownerReq('POST', '/roles', { name: 'K', permissions: [] }), /needs a Studio session/);
      const editor = await memberWithPassword(env.ctx, wsSlug, 'editor');
      const eb = await signedIn(env.app, editor.email, wsId);
      forbidden(await eb.call('GET', `${M}/roles`), /Only owners and admins can manage roles/);
      forbidden(await eb.call('POST', `${M}/roles`, { body: { name: 'E', permissions: [] } }), /Only owners and admins/);
      const admin = await memberWithPassword(env.ctx, wsSlug, 'admin');
      const ab = await signedIn(env.app, admin.email, wsId);
      const created = await ab.call('POST', `${M}/roles`, { body: { name: 'Temp', permissions: [{ resource: 'pages', actions: ['read'] }] } });
      expect(created.status).toBe(201);
      const patched = await ab.call('PATCH', `${M}/roles/${created.body.data.id}`, {
        body: { name: 'Temp 2', permissions: [{ resource: 'pages', actions: ['read', 'update'], own_only: true }] },
      });
      expect(patched.body.data).toMatchObject({ name: 'Temp 2', permissions: [{ resource: 'pages', actions: ['read', 'update'], own_only: true }] });
      expect((await ab.call('DELETE', `${M}/roles/${created.body.data.id}`)).status).toBe(200);
      expectError(await ab.call('GET', `${M}/roles/${created.body.data.id}`), 404, 'NOT_FOUND');
    });

    it('a role held by a member or a pending invitation cannot be deleted (409 ROLE_IN_USE)', async () => {
      const translator = (await owner.call('GET', `${M}/roles/Translator`)).body.data;
      expectError(await owner.call('DELETE', `${M}/roles/${translator.id}`), 409, 'ROLE_IN_USE');
      const spare = (await owner.call('POST', `${M}/roles`, { body: { name: 'Spare', permissions: [] } })).body.data;
      const inv = await owner.call('POST', `${M}/users/invitations`, { body: { email: 'spare@example.com', role: 'Spare' } });
      expect(inv.status, JSON.stringify(inv.body)).toBe(201);
      expectError(await owner.call('DELETE', `${M}/roles/${spare.id}`), 409, 'ROLE_IN_USE');
      expect((await owner.call('DELETE', `${M}/users/invitations/${inv.body.data.user.invitation_id}`)).status).toBe(200);
      expect((await owner.call('DELETE', `${M}/roles/${spare.id}`)).status).toBe(200);
      const members = (await owner.call('GET', `${M}/users`)).body.data as { id: number; role: string }[];
      expect(members.find((m) => m.id === people.translator.id)!.role).toBe(translator.id);
    });
  });

  it("the Studio session's capabilities follow the custom role's scopes (what the Studio shows and hides)", async () => {
    const caps = async (label: string) => {
      const res = await people[label].browser.call('GET', `${M}/session`);
      return (res.body.data.workspaces as { id: string; capabilities: string[] }[]).find((w) => w.id === wsId)!.capabilities.sort();
    };
    // Every member lists people (D91); the rest is the role's.
    expect(await caps('translator')).toEqual(['content:write', 'people:list']);
    expect(await caps('freelancer')).toEqual(['content:publish', 'content:write', 'media:write', 'people:list']);
    expect(await caps('reviewer')).toEqual(['people:list']);
    // The role's permissions come with the session, for the editors to show limits ahead.
    const session = await people.translator.browser.call('GET', `${M}/session`);
    expect(session.body.data.workspaces.find((w: { id: string }) => w.id === wsId).permissions).toEqual(TRANSLATOR.permissions);
  });

  describe('the translator: writes German only', () => {
    it('a PUT that changes only the German values passes, sending the English data unchanged', async () => {
      await ownerReq('POST', '/content-types/news/entries', { slug: 'storm', data: { title: 'Storm', body: 'Wind' } });
      for (const via of ['session', 'key'] as const) {
        const p = people.translator;
        const send = (method: 'PUT' | 'PATCH' | 'POST' | 'DELETE', url: string, body?: unknown) =>
          via === 'session' ? p.browser.call(method, `${M}${url}`, { body }) : call(env.app, method, `${M}${url}`, { key: p.key, body });
        const ok = await send('PUT', '/content-types/news/entries/storm', {
          data: { title: 'Storm', body: 'Wind' },
          translations: { de: { data: { title: `Sturm ${via}` } } },
        });
        expect(ok.status, JSON.stringify(ok.body)).toBe(200);
        const before = await entry('news', 'storm');
        forbidden(
          await send('PUT', '/content-types/news/entries/storm', { data: { title: 'Storm!', body: 'Wind' } }),
          /may not update entries of content type 'news' in locale 'en'/,
        );
        forbidden(
          await send('PUT', '/content-types/news/entries/storm', {
            data: { title: 'Storm', body: 'Wind' },
            translations: { de: { data: { title: 'Sturm' } }, fr: { data: { title: 'Tempête' } } },
          }),
          /in locale 'fr'/,
        );
        forbidden(await send('PUT', '/content-types/news/entries/storm', { slug: 'storm-2', data: { title: 'Storm', body: 'Wind' } }), /in locale 'en'/);
        expect(await entry('news', 'storm')).toEqual(before);
        forbidden(await send('POST', '/content-types/news/entries', { data: { title: 'New' } }), /may not create entries/);
        forbidden(await send('PATCH', '/content-types/news/entries/storm/publish'), /may not publish entries/);
        forbidden(await send('DELETE', '/content-types/news/entries/storm'), /may not delete entries/);
        forbidden(await send('POST', '/pages', { slug: `t-${via}`, seo: { title: 'x' } }), /may not create pages/);
        forbidden(await send('POST', '/releases', { title: 'x' }), /lacks|may not create releases/);
      }
      expect((await entry('news', 'storm')).translations.find((t: { locale: string }) => t.locale === 'de').data).toBe('{"title":"Sturm key"}');
    });
  });

  describe('the freelancer: only blog posts, only their own', () => {
    it('writes and publishes their own posts; not others’ posts, not other types, which they cannot even see', async () => {
      const f = people.freelancer;
      const send = (method: 'GET' | 'PUT' | 'PATCH' | 'POST' | 'DELETE', url: string, body?: unknown) => f.browser.call(method, `${M}${url}`, { body });
      const mine = await send('POST', '/content-types/blog-post/entries', { slug: 'mine', data: { title: 'Mine' } });
      expect(mine.status, JSON.stringify(mine.body)).toBe(201);
      expect((await send('PUT', '/content-types/blog-post/entries/mine', { data: { title: 'Mine, edited' } })).status).toBe(200);
      expect((await send('PATCH', '/content-types/blog-post/entries/mine/publish')).status).toBe(200);
      await ownerReq('POST', '/content-types/blog-post/entries', { slug: 'theirs', data: { title: 'Theirs' } });
      const before = await entry('blog-post', 'theirs');
      forbidden(
        await send('PUT', '/content-types/blog-post/entries/theirs', { data: { title: 'Hijacked' } }),
        /may not update entries of content type 'blog-post' created by someone else/,
      );
      forbidden(await send('PATCH', '/content-types/blog-post/entries/theirs/publish'), /may not publish entries .* created by someone else/);
      forbidden(await send('DELETE', '/content-types/blog-post/entries/theirs'), /may not delete entries/);
      const bulk = await send('PATCH', '/content-types/blog-post/entries/bulk', { action: 'unpublish', ids: [mine.body.data.id, before.id] });
      expect(bulk.status).toBe(200);
      expect(bulk.body.data.succeeded.map((r: { id: string }) => r.id)).toEqual([mine.body.data.id]);
      expect(bulk.body.data.failed[0].reason).toMatch(/may not publish entries of content type 'blog-post' created by someone else/);
      expect(await entry('blog-post', 'theirs')).toEqual(before);
      // A type outside the role is absent: 404 for its entries, missing from the type list.
      expectError(await send('GET', '/content-types/news/entries'), 404, 'NOT_FOUND');
      expectError(await send('GET', '/content-types/news'), 404, 'NOT_FOUND');
      expectError(await send('POST', '/content-types/news/entries', { data: { title: 'x' } }), 404, 'NOT_FOUND');
      const types = (await send('GET', '/content-types')).body.data as { slug: string }[];
      expect(types.map((t) => t.slug)).toEqual(['blog-post']);
      // Pages and releases are not the freelancer's.
      forbidden(await send('POST', '/pages', { slug: 'f-page', seo: { title: 'x' } }), /lacks|may not create pages/);
      // The same rules hold for a key the freelancer created, and for another freelancer.
      const other = people.freelancer2;
      forbidden(
        await call(env.app, 'PUT', `${M}/content-types/blog-post/entries/mine`, { key: other.key, body: { data: { title: 'x' } } }),
        /created by someone else/,
      );
      expect((await call(env.app, 'PUT', `${M}/content-types/blog-post/entries/mine`, { key: f.key, body: { data: { title: 'By key' } } })).status).toBe(200);
      expect((await entry('blog-post', 'mine')).data).toMatch(/By key/);
    });

    it('media: uploads and edits their own assets, not others’', async () => {
      const f = people.freelancer;
      const up = await upload(env.app, {
        key: f.key,
        workspaceId: wsId,
        parts: [{ name: 'file', filename: 'a.png', data: await png(4, 4), contentType: 'image/png' }],
      });
      expect(up.status, JSON.stringify(up.body)).toBe(201);
      expect((await f.browser.call('PUT', `${M}/media/${up.body.data.id}`, { body: { alt_text: 'mine' } })).status).toBe(200);
      const theirs = await insertMediaRow(env.ctx, wsId, 1);
      forbidden(await f.browser.call('PUT', `${M}/media/${theirs}`, { body: { alt_text: 'x' } }), /may not update media created by someone else/);
      forbidden(await f.browser.call('DELETE', `${M}/media/${theirs}`), /may not delete media/);
    });
  });

  describe('the reviewer: reads everything, writes nothing', () => {
    it('reads every type, entry, page, medium and release; every write is refused', async () => {
      for (const via of ['session', 'key'] as const) {
        const r = people.reviewer;
        const send = (method: 'GET' | 'PUT' | 'PATCH' | 'POST' | 'DELETE', url: string, body?: unknown) =>
          via === 'session' ? r.browser.call(method, `${M}${url}`, { body }) : call(env.app, method, `${M}${url}`, { key: r.key, body });
        expect((await send('GET', '/content-types')).body.data.map((t: { slug: string }) => t.slug).sort()).toEqual(['blog-post', 'news']);
        for (const url of ['/content-types/news/entries/storm', '/content-types/blog-post/entries', '/pages', '/media', '/releases']) {
          expect((await send('GET', url)).status, url).toBe(200);
        }
        const storm = await entry('news', 'storm');
        forbidden(await send('PUT', '/content-types/news/entries/storm', { data: { title: 'x' } }), /lacks|may not update entries/);
        forbidden(await send('PATCH', '/content-types/news/entries/storm/publish'), /lacks|may not publish/);
        forbidden(await send('PATCH', '/content-types/news/entries/bulk', { action: 'publish', ids: [storm.id] }), /lacks|may not publish/);
        forbidden(await send('POST', '/pages', { slug: 'r', seo: { title: 'x' } }), /lacks|may not create pages/);
        forbidden(await send('POST', '/releases', { title: 'x' }), /lacks|may not create releases/);
        forbidden(await send('POST', '/content-types', { name: 'X', slug: 'x' }), /lacks|may not create content_types/);
        expect(await entry('news', 'storm')).toEqual(storm);
      }
    });
  });

  describe('releases publish their items as the role may', () => {
    it('a role that publishes releases but only its own blog posts cannot add, nor publish, anything else', async () => {
      const made = await owner.call('POST', `${M}/roles`, {
        body: {
          name: 'Release freelancer',
          permissions: [
            { resource: 'entries', actions: ['read', 'create', 'update', 'publish'], content_types: ['blog-post'], own_only: true },
            { resource: 'releases', actions: ['read', 'create', 'update', 'publish'] },
          ],
        },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      await person('releaser', 'Release freelancer');
      const r = people.releaser;
      const send = (method: 'POST' | 'GET', url: string, body?: unknown) => r.browser.call(method, `${M}${url}`, { body });
      const own = await send('POST', '/content-types/blog-post/entries', { slug: 'release-own', data: { title: 'Own' } });
      expect(own.status).toBe(201);
      const others = (await ownerReq('POST', '/content-types/blog-post/entries', { slug: 'release-other', data: { title: 'Other' } })).body.data;
      const news = (await ownerReq('POST', '/content-types/news/entries', { slug: 'release-news', data: { title: 'News' } })).body.data;
      const rel = (await send('POST', '/releases', { title: 'Mine' })).body.data;
      expect((await send('POST', `/releases/${rel.id}/items`, { kind: 'entry', id: own.body.data.id, action: 'publish' })).status).toBe(200);
      forbidden(
        await send('POST', `/releases/${rel.id}/items`, { kind: 'entry', id: others.id, action: 'publish' }),
        /may not publish entries of content type 'blog-post' created by someone else/,
      );
      forbidden(
        await send('POST', `/releases/${rel.id}/items`, { kind: 'entry', id: news.id, action: 'publish' }),
        /may not publish entries of content type 'news'/,
      );
      // An item someone else added is checked when the release is published: nothing is published.
      expect((await ownerReq('POST', `/releases/${rel.id}/items`, { kind: 'entry', id: others.id, action: 'publish' })).status).toBe(200);
      forbidden(await send('POST', `/releases/${rel.id}/publish`), /created by someone else/);
      expect((await ownerReq('GET', `/releases/${rel.id}`)).body.data.status).toBe('open');
      expect((await entry('blog-post', 'release-own')).status).toBe('draft');
      expect((await ownerReq('DELETE', `/releases/${rel.id}/items/entry/${others.id}`)).status).toBe(200);
      expect((await send('POST', `/releases/${rel.id}/publish`)).status).toBe(200);
      expect((await entry('blog-post', 'release-own')).status).toBe('published');
    });
  });

  describe('deny_fields and releases', () => {
    it('a denied field is readable, sent unchanged it passes, changed it is refused; also in a release version', async () => {
      const role = await owner.call('POST', `${M}/roles`, {
        body: {
          name: 'Copy editor',
          permissions: [
            { resource: 'entries', actions: ['read', 'update'], content_types: ['blog-post'], deny_fields: ['internal_note'] },
            { resource: 'releases', actions: ['read', 'create', 'update'] },
          ],
        },
      });
      expect(role.status, JSON.stringify(role.body)).toBe(201);
      await person('copy', 'Copy editor');
      const c = people.copy;
      await ownerReq('POST', '/content-types/blog-post/entries', { slug: 'noted', data: { title: 'T', internal_note: 'secret plan' } });
      const read = await c.browser.call('GET', `${M}/content-types/blog-post/entries/noted`);
      expect(read.body.data.data).toMatch(/secret plan/);
      expect(
        (await c.browser.call('PUT', `${M}/content-types/blog-post/entries/noted`, { body: { data: { title: 'T2', internal_note: 'secret plan' } } })).status,
      ).toBe(200);
      const before = await entry('blog-post', 'noted');
      forbidden(
        await c.browser.call('PUT', `${M}/content-types/blog-post/entries/noted`, { body: { data: { title: 'T2', internal_note: 'leaked' } } }),
        /may not update entries of content type 'blog-post': field 'internal_note' is read-only/,
      );
      expect(await entry('blog-post', 'noted')).toEqual(before);
      const rel = await c.browser.call('POST', `${M}/releases`, { body: { title: 'Autumn' } });
      expect(rel.status, JSON.stringify(rel.body)).toBe(201);
      const item = await ownerReq('POST', `/releases/${rel.body.data.id}/items`, { kind: 'entry', id: before.id, action: 'publish' });
      expect(item.status, JSON.stringify(item.body)).toBe(200);
      const variant = `${M}/content-types/blog-post/entries/noted?release=${rel.body.data.id}`;
      forbidden(await c.browser.call('PUT', variant, { body: { data: { title: 'T2', internal_note: 'leaked' } } }), /field 'internal_note'/);
      expect((await c.browser.call('PUT', variant, { body: { data: { title: 'T3', internal_note: 'secret plan' } } })).status).toBe(200);
      forbidden(await c.browser.call('POST', `${M}/releases/${rel.body.data.id}/publish`), /lacks|may not publish releases/);
    });
  });
});
