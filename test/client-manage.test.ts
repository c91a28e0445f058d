/**
 * The client's management methods against a fake fetch: each sends the method, path, query and
 * body docs/api.md gives its endpoint, unwraps the envelope, and pages lists. Webhooks (list,
 * get, create, update, delete, rotate-secret, deliveries, retry, ping), releases, people, API
 * keys, workspace settings and overview, fields, block and media usage, media folders, page
 * PATCH, release versions and release reads, sessions. The writes that answer a secret shown once (webhook creation,
 * secret rotation, key creation) go without an Idempotency-Key and are never resent.
 */
import { describe, expect, it } from 'vitest';
import { createClient, QuireError } from '../packages/client/src/index.js';

interface Sent {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  idempotencyKey: string | null;
}

/** A client whose fetch records each request and answers `answer(sent)` (an envelope's data and meta, or a status). */
function fake(answer: (sent: Sent) => { data?: unknown; meta?: unknown; status?: number } = () => ({ data: null })) {
  const sent: Sent[] = [];
  const fetchFake: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const headers = new Headers(init?.headers);
    const one: Sent = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      idempotencyKey: headers.get('idempotency-key'),
    };
    sent.push(one);
    const { data = null, meta = null, status = 200 } = answer(one);
    const envelope =
      status < 400
        ? { success: true, message: 'Success', data, meta }
        : { success: false, message: 'busy', code: 'SERVICE_UNAVAILABLE', data: null, errors: null, meta: null, traceId: 'req_fake' };
    return new Response(JSON.stringify(envelope), { status, headers: { 'content-type': 'application/json', 'retry-after': '0' } });
  };
  const client = createClient({ url: 'http://quire.test', apiKey: 'svc_mgmt_fake', fetch: fetchFake, retryDelayMs: 1 });
  return { client, sent };
}

const WEBHOOK = {
  id: 'w1',
  url: 'https://example.com/hook',
  description: null,
  events: ['entry.*'],
  content_types: [],
  enabled: true,
  created_at: 't',
  updated_at: 't',
};

describe('client webhooks', () => {
  it('lists, reads, creates, changes and deletes webhooks at their paths', async () => {
    const { client, sent } = fake((s) =>
      s.method === 'GET' && s.path.endsWith('/webhooks')
        ? { data: [WEBHOOK], meta: { page_size: 1, next_cursor: null, total_data: 1, current_page: 1, total_pages: 1 } }
        : { data: s.method === 'POST' ? { ...WEBHOOK, secret: 'whsec_x' } : s.method === 'DELETE' ? null : WEBHOOK },
    );
    const page = await client.manage.webhooks.list({ limit: 5 });
    expect(page.items).toEqual([WEBHOOK]);
    expect(page.nextCursor).toBeNull();
    expect(await client.manage.webhooks.get('w1')).toEqual(WEBHOOK);
    const created = await client.manage.webhooks.create({ url: 'https://example.com/hook', events: ['entry.*'] });
    expect(created.secret).toBe('whsec_x');
    expect(await client.manage.webhooks.update('w1', { enabled: false })).toEqual(WEBHOOK);
    await client.manage.webhooks.delete('w1');
    const all = [];
    for await (const w of client.manage.webhooks.iterate()) all.push(w);
    expect(all).toEqual([WEBHOOK]);
    expect(sent.map((s) => [s.method, s.path, s.query, s.body])).toEqual([
      ['GET', '/api/v1/manage/webhooks', { limit: '5' }, undefined],
      ['GET', '/api/v1/manage/webhooks/w1', {}, undefined],
      ['POST', '/api/v1/manage/webhooks', {}, { url: 'https://example.com/hook', events: ['entry.*'] }],
      ['PATCH', '/api/v1/manage/webhooks/w1', {}, { enabled: false }],
      ['DELETE', '/api/v1/manage/webhooks/w1', {}, undefined],
      ['GET', '/api/v1/manage/webhooks', { page: '1' }, undefined],
    ]);
    // The creation answers the secret once: no Idempotency-Key; other writes carry one.
    expect(sent[2].idempotencyKey).toBeNull();
    expect(sent[3].idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('rotates the secret with a grace period, and never resends a rotation', async () => {
    let calls = 0;
    const { client, sent } = fake(() => {
      calls += 1;
      return calls <= 2 ? { data: { ...WEBHOOK, secret: 'whsec_new', previous_secret_expires_at: '2026-11-30T12:00:00.000Z' } } : { status: 503 };
    });
    const rotated = await client.manage.webhooks.rotateSecret('w1', { graceSeconds: 3600 });
    expect(rotated).toMatchObject({ secret: 'whsec_new', previous_secret_expires_at: '2026-11-30T12:00:00.000Z' });
    await client.manage.webhooks.rotateSecret('w/2');
    // A 503 on a rotation is thrown at once: a resend would rotate twice.
    await expect(client.manage.webhooks.rotateSecret('w1')).rejects.toBeInstanceOf(QuireError);
    expect(sent.map((s) => [s.method, s.path, s.body, s.idempotencyKey])).toEqual([
      ['POST', '/api/v1/manage/webhooks/w1/rotate-secret', { grace_seconds: 3600 }, null],
      ['POST', '/api/v1/manage/webhooks/w%2F2/rotate-secret', {}, null],
      ['POST', '/api/v1/manage/webhooks/w1/rotate-secret', {}, null],
    ]);
  });

  it('reads the delivery log, retries a delivery and pings', async () => {
    const delivery = { id: 'd1', webhook_id: 'w1', event_type: 'ping', status: 'delivered', attempts: [] };
    const { client, sent } = fake((s) =>
      s.method === 'GET' ? { data: [delivery], meta: { page_size: 1, next_cursor: null, total_pages: 1 } } : { data: delivery },
    );
    expect((await client.manage.webhooks.deliveries('w1', { status: 'failed', limit: 20 })).items).toEqual([delivery]);
    expect(await client.manage.webhooks.retry('w1', 'd1')).toEqual(delivery);
    expect(await client.manage.webhooks.ping('w1')).toEqual(delivery);
    const all = [];
    for await (const d of client.manage.webhooks.iterateDeliveries('w1', { status: 'pending' })) all.push(d);
    expect(all).toHaveLength(1);
    expect(sent.map((s) => [s.method, s.path, s.query])).toEqual([
      ['GET', '/api/v1/manage/webhooks/w1/deliveries', { status: 'failed', limit: '20' }],
      ['POST', '/api/v1/manage/webhooks/w1/deliveries/d1/retry', {}],
      ['POST', '/api/v1/manage/webhooks/w1/ping', {}],
      ['GET', '/api/v1/manage/webhooks/w1/deliveries', { status: 'pending', page: '1' }],
    ]);
  });
});

describe('client releases', () => {
  it('sends every release call to its endpoint', async () => {
    const release = { id: 'r1', title: 'Launch', status: 'open' };
    const { client, sent } = fake((s) => ({
      data: s.path.endsWith('/items') && s.method === 'GET' ? [] : s.path.endsWith('/validation') ? { valid: true, problems: [] } : release,
      meta: s.path.endsWith('/releases') ? { page_size: 1, next_cursor: null } : null,
    }));
    await client.manage.releases.list({ status: 'open' });
    await client.manage.releases.get('r1');
    await client.manage.releases.create({ title: 'Launch' });
    await client.manage.releases.update('r1', { description: 'All at once' });
    await client.manage.releases.items.list('r1');
    await client.manage.releases.items.add('r1', { kind: 'entry', id: 'e1', action: 'publish' });
    await client.manage.releases.items.remove('r1', 'page', 'p1');
    expect(await client.manage.releases.validate('r1')).toEqual({ valid: true, problems: [] });
    await client.manage.releases.schedule('r1', new Date('2030-01-01T08:00:00Z'));
    await client.manage.releases.unschedule('r1');
    await client.manage.releases.publish('r1');
    await client.manage.releases.revert('r1', { force: true });
    await client.manage.releases.delete('r1');
    expect(
      sent.map((s) => `${s.method} ${s.path}${Object.keys(s.query).length ? `?${new URLSearchParams(s.query)}` : ''} ${JSON.stringify(s.body) ?? ''}`),
    ).toEqual([
      'GET /api/v1/manage/releases?status=open ',
      'GET /api/v1/manage/releases/r1 ',
      'POST /api/v1/manage/releases {"title":"Launch"}',
      'PATCH /api/v1/manage/releases/r1 {"description":"All at once"}',
      'GET /api/v1/manage/releases/r1/items ',
      'POST /api/v1/manage/releases/r1/items {"kind":"entry","id":"e1","action":"publish"}',
      'DELETE /api/v1/manage/releases/r1/items/page/p1 ',
      'GET /api/v1/manage/releases/r1/validation ',
      'POST /api/v1/manage/releases/r1/schedule {"publish_at":"2030-01-01T08:00:00.000Z"}',
      'POST /api/v1/manage/releases/r1/unschedule ',
      'POST /api/v1/manage/releases/r1/publish ',
      'POST /api/v1/manage/releases/r1/revert {"force":true}',
      'DELETE /api/v1/manage/releases/r1 ',
    ]);
  });

  it('reads and writes release versions of entries and pages with release', async () => {
    const page = { page: { id: 'p1', slug: 'home' }, blocks: [], seo_translations: [], block_translations: [] };
    const { client, sent } = fake((s) => ({
      data: s.path.includes('/pages/') ? (s.method === 'GET' ? page : page.page) : { id: 'e1', data: '{}', translations: [] },
    }));
    await client.manage.entries.get('post', 'hello', { release: 'r1' });
    await client.manage.entries.update('post', 'hello', { data: { title: 'x' } }, { release: 'r1' });
    await client.manage.pages.get('home', { release: 'r1' });
    await client.manage.pages.update('home', { seo: {}, blocks: [] }, { release: 'r1' });
    await client.manage.entries.get('post', 'hello');
    expect(sent.map((s) => [s.method, s.path, s.query.release ?? null])).toEqual([
      ['GET', '/api/v1/manage/content-types/post/entries/hello', 'r1'],
      ['PUT', '/api/v1/manage/content-types/post/entries/hello', 'r1'],
      ['GET', '/api/v1/manage/pages/home', 'r1'],
      ['PUT', '/api/v1/manage/pages/home', 'r1'],
      ['GET', '/api/v1/manage/content-types/post/entries/hello', null],
    ]);
  });
});

describe('client pages, fields, media and the workspace', () => {
  it('patches a page without blocks, and answers page writes with the record and its ETag', async () => {
    const record = { id: 'p1', slug: 'home', seo: { title: 'Home' } };
    const { client, sent } = fake(() => ({ data: record }));
    const patched = await client.manage.pages.patch('home', { seo: { title: 'Home', description: null }, seo_translations: { de: { title: 'Start' } } });
    expect(patched).toEqual({ ...record, etag: null });
    expect(sent[0]).toMatchObject({
      method: 'PATCH',
      path: '/api/v1/manage/pages/home',
      body: { seo: { title: 'Home', description: null }, seo_translations: { de: { title: 'Start' } } },
    });
  });

  it('sends a page read back to PUT as it was read', async () => {
    const tree = {
      page: { id: 'p1', slug: 'home', seo: { title: 'Home', description: null, keywords: [], og_image: null, canonical: null } },
      blocks: [
        {
          id: 'b1',
          page_id: 'p1',
          block_type_id: 't1',
          type: 'hero',
          position: 0,
          data: '{"headline":"Hi"}',
          children: [{ id: 'b2', page_id: 'p1', block_type_id: 't2', type: 'card', parent_id: 'b1', position: 0, data: '{"label":"A"}', children: [] }],
        },
      ],
      seo_translations: [],
      block_translations: [],
    };
    const { client, sent } = fake((s) => ({ data: s.method === 'GET' ? tree : tree.page }));
    const read = await client.manage.pages.get('home');
    await client.manage.pages.update('home', { seo: read.page.seo, blocks: read.blocks });
    expect(sent[1].body).toEqual({
      seo: tree.page.seo,
      blocks: [{ ...tree.blocks[0], data: { headline: 'Hi' }, children: [{ ...tree.blocks[0].children[0], data: { label: 'A' } }] }],
    });
  });

  it('edits, reorders and weighs fields; block usage, media usage and folders', async () => {
    const { client, sent } = fake(() => ({ data: { count: 0 } }));
    await client.manage.contentTypes.fields.update('post', 'f1', { label: 'Headline', sortable: true });
    await client.manage.contentTypes.fields.reorder('post', ['f2', 'f1']);
    await client.manage.contentTypes.fields.deletionImpact('post', 'f1');
    await client.manage.contentTypes.fields.localizationImpact('post', 'f1');
    await client.manage.contentTypes.blockUsage('hero');
    await client.manage.media.usage('m1');
    await client.manage.media.folders();
    expect(sent.map((s) => [s.method, s.path, s.body])).toEqual([
      ['PATCH', '/api/v1/manage/content-types/post/fields/f1', { label: 'Headline', sortable: true }],
      ['PATCH', '/api/v1/manage/content-types/post/fields/reorder', { order: ['f2', 'f1'] }],
      ['GET', '/api/v1/manage/content-types/post/fields/f1/deletion-impact', undefined],
      ['GET', '/api/v1/manage/content-types/post/fields/f1/localization-impact', undefined],
      ['GET', '/api/v1/manage/content-types/hero/block-usage', undefined],
      ['GET', '/api/v1/manage/media/m1/usage', undefined],
      ['GET', '/api/v1/manage/media/folders', undefined],
    ]);
  });

  it('manages people, API keys and the workspace settings', async () => {
    const { client, sent } = fake((s) => ({ data: s.method === 'GET' && !s.path.endsWith('/workspace') && !s.path.endsWith('/overview') ? [] : { ok: true } }));
    await client.manage.people.list();
    await client.manage.people.invite({ email: 'nia@example.com', role: 'editor', name: 'Nia' });
    await client.manage.people.cancelInvitation('i1');
    await client.manage.people.changeRole(7, 'author');
    await client.manage.people.remove(7);
    await client.manage.apiKeys.list();
    await client.manage.apiKeys.create({ name: 'Website', key_class: 'delivery', environment: 'production' });
    await client.manage.apiKeys.revoke('k1');
    await client.manage.workspace.get();
    await client.manage.workspace.update({ locales: ['en', 'de'] });
    await client.manage.workspace.overview();
    expect(sent.map((s) => [s.method, s.path, s.body])).toEqual([
      ['GET', '/api/v1/manage/users', undefined],
      ['POST', '/api/v1/manage/users/invitations', { email: 'nia@example.com', role: 'editor', name: 'Nia' }],
      ['DELETE', '/api/v1/manage/users/invitations/i1', undefined],
      ['PATCH', '/api/v1/manage/users/7', { role: 'author' }],
      ['DELETE', '/api/v1/manage/users/7', undefined],
      ['GET', '/api/v1/manage/api-keys', undefined],
      ['POST', '/api/v1/manage/api-keys', { name: 'Website', key_class: 'delivery', environment: 'production' }],
      ['DELETE', '/api/v1/manage/api-keys/k1', undefined],
      ['GET', '/api/v1/manage/workspace', undefined],
      ['PATCH', '/api/v1/manage/workspace', { locales: ['en', 'de'] }],
      ['GET', '/api/v1/manage/overview', undefined],
    ]);
    // A key's value is shown once: its creation is never resent, so it carries no Idempotency-Key.
    expect(sent[6].idempotencyKey).toBeNull();
  });
});

describe('client delivery queries', () => {
  it('sends fields, sort and every filter form', async () => {
    const { client, sent } = fake(() => ({ data: [], meta: { page_size: 0, next_cursor: null } }));
    await client.entries.list('post', {
      fields: ['title', 'author.name'],
      sort: 'rank:desc',
      filter: { category: 'news', rank: { gte: 2, lt: 10 }, price: [1, 2], featured: false, cover: { exists: true } },
    });
    expect(sent[0].query).toEqual({
      type: 'post',
      fields: 'title,author.name',
      sort: 'rank:desc',
      'filter[category]': 'news',
      'filter[rank][gte]': '2',
      'filter[rank][lt]': '10',
      'filter[price][in]': '1,2',
      'filter[featured]': 'false',
      'filter[cover][exists]': 'true',
    });
  });
});

describe('client reads as a release will make the workspace', () => {
  it('sends release on entry, page and sync reads', async () => {
    const { client, sent } = fake((s) => ({
      data:
        s.path.endsWith('/entries') || s.path.endsWith('/pages') || s.path.endsWith('/sync')
          ? []
          : s.path.includes('/entries/')
            ? { entry: { data: '{}' } }
            : { page: {}, blocks: [], seo_translations: [], block_translations: [] },
      meta: { page_size: 0, next_cursor: null, next_page_token: null, next_sync_token: 't' },
    }));
    await client.entries.list('post', { release: 'r1' });
    await client.entries.get('hello', { type: 'post', release: 'r1' });
    await client.pages.list({ release: 'r1' });
    await client.pages.get('home', { release: 'r1' });
    await client.sync({ initial: true }, { release: 'r1' });
    expect(sent.map((s) => [s.path, s.query.release])).toEqual([
      ['/api/v1/public/entries', 'r1'],
      ['/api/v1/public/entries/hello', 'r1'],
      ['/api/v1/public/pages', 'r1'],
      ['/api/v1/public/pages/home', 'r1'],
      ['/api/v1/public/sync', 'r1'],
    ]);
  });
});

describe('client sessions', () => {
  it('signs in and out, describes a one-time token, sets a password and accepts an invitation, never resending', async () => {
    const { client, sent } = fake(() => ({ data: { ok: true } }));
    await client.manage.session.signIn('demo@quire.local', 'correct horse battery');
    await client.manage.session.get();
    await client.manage.session.describeToken('qt_abc');
    await client.manage.session.setPassword({ token: 'qt_abc', password: 'a new password' });
    await client.manage.session.acceptInvitation('qt_def');
    await client.manage.session.signOut();
    expect(sent.map((s) => [s.method, s.path, s.query, s.body, s.idempotencyKey === null])).toEqual([
      ['POST', '/api/v1/manage/session', {}, { email: 'demo@quire.local', password: 'correct horse battery' }, true],
      ['GET', '/api/v1/manage/session', {}, undefined, true],
      ['GET', '/api/v1/manage/session/token', { token: 'qt_abc' }, undefined, true],
      ['POST', '/api/v1/manage/session/password', {}, { token: 'qt_abc', password: 'a new password' }, true],
      ['POST', '/api/v1/manage/session/invitations/accept', {}, { token: 'qt_def' }, true],
      ['DELETE', '/api/v1/manage/session', {}, undefined, false],
    ]);
  });
});
