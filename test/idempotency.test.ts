import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/modules/auth/operations.js';
import { beginIdempotent, completeIdempotent, requestFingerprint } from '../src/modules/idempotency/operations.js';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from './helpers.js';

const M = '/api/v1/manage';
const T0 = Date.parse('2026-11-21T10:00:00.000Z');
const H = 3_600_000;

describe.each(dialects())('Idempotency-Key on %s', (dialect) => {
  let env: TestEnv;
  let key: string;
  let keyId: string;
  let wsId: string;
  let userId: number;
  let now = T0;
  beforeAll(async () => {
    env = await createTestEnv(dialect, { clock: () => new Date(now) });
    const s = await seedWorkspace(env.ctx);
    wsId = s.workspace.id;
    userId = s.user.id;
    const k = await createApiKey(env.ctx, wsId, userId, { keyClass: 'management' });
    key = k.key;
    keyId = k.id;
    await call(env.app, 'POST', `${M}/content-types`, { key, body: { name: 'Post', fields: [{ name: 'title', field_type: 'text' }] } });
  });
  afterAll(async () => env?.close());

  const post = (body: unknown, idem?: string, k = key, path = '/content-types/post/entries') =>
    call(env.app, 'POST', `${M}${path}`, { key: k, body, headers: idem === undefined ? {} : { 'idempotency-key': idem } });
  const countEntries = async () =>
    Number(
      (
        await env.ctx.db.kysely
          .selectFrom('entries')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('replays the first response for the same key, method, path and body', async () => {
    const idem = randomUUID();
    const first = await post({ slug: 'one', data: { title: 'One' } }, idem);
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const before = await countEntries();
    // Same body with keys in another order is the same request.
    const again = await call(env.app, 'POST', `${M}/content-types/post/entries`, {
      key,
      raw: '{"data":{"title":"One"},"slug":"one"}',
      headers: { 'content-type': 'application/json', 'idempotency-key': idem },
    });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toMatch(/^application\/json/);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.body).toEqual(first.body);
    expect(await countEntries()).toBe(before);
  });

  it('answers 422 IDEMPOTENCY_KEY_REUSED for another body, path or method', async () => {
    const idem = randomUUID();
    expect((await post({ slug: 'two', data: { title: 'Two' } }, idem)).status).toBe(201);
    expectError(await post({ slug: 'two', data: { title: 'Other' } }, idem), 422, 'IDEMPOTENCY_KEY_REUSED');
    expectError(await post({ name: 'Two' }, idem, key, '/content-types'), 422, 'IDEMPOTENCY_KEY_REUSED');
    expectError(
      await call(env.app, 'PUT', `${M}/content-types/post/entries/two`, {
        key,
        body: { slug: 'two', data: { title: 'Two' } },
        headers: { 'idempotency-key': idem },
      }),
      422,
      'IDEMPOTENCY_KEY_REUSED',
    );
    expect((await call(env.app, 'GET', `${M}/content-types/post/entries/two`, { key })).body.data.data).toBe('{"title":"Two"}');
  });

  it('answers 409 IDEMPOTENCY_KEY_IN_USE while the first request is pending; takes over after 60 s', async () => {
    const idem = randomUUID();
    const url = `${M}/content-types/post/entries`;
    const body = { slug: 'three', data: { title: 'Three' } };
    const stamp = new Date(now - 5000).toISOString();
    await env.ctx.db.kysely
      .insertInto('idempotency_keys')
      .values({
        api_key_id: keyId,
        idem_key: idem,
        fingerprint: requestFingerprint('POST', url, body),
        state: 'pending',
        status_code: null,
        response: null,
        created_at: stamp,
        expires_at: new Date(now + 24 * H).toISOString(),
      })
      .execute();
    const before = await countEntries();
    expectError(await post(body, idem), 409, 'IDEMPOTENCY_KEY_IN_USE');
    expectError(await post({ ...body, slug: 'other' }, idem), 422, 'IDEMPOTENCY_KEY_REUSED');
    expect(await countEntries()).toBe(before);
    now += 61_000;
    const taken = await post(body, idem);
    expect(taken.status).toBe(201);
    expect((await post(body, idem)).headers['idempotent-replayed']).toBe('true');
  });

  it('keeps records 24 hours: afterwards the key is free again', async () => {
    const idem = randomUUID();
    expect((await post({ slug: 'four', data: { title: 'Four' } }, idem)).status).toBe(201);
    const row = await env.ctx.db.kysely.selectFrom('idempotency_keys').selectAll().where('idem_key', '=', idem).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ api_key_id: keyId, state: 'completed', status_code: 201 });
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(24 * H);
    expect(row.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    now += 23 * H;
    expectError(await post({ slug: 'four-b', data: { title: 'Four' } }, idem), 422, 'IDEMPOTENCY_KEY_REUSED');
    now += 2 * H;
    const fresh = await post({ slug: 'four-b', data: { title: 'Four' } }, idem);
    expect(fresh.status).toBe(201);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
  });

  it('stores records per API key', async () => {
    const other = await createApiKey(env.ctx, wsId, userId, { keyClass: 'management' });
    const idem = randomUUID();
    expect((await post({ slug: 'five', data: { title: 'Five' } }, idem)).status).toBe(201);
    const res = await post({ slug: 'five-b', data: { title: 'Five' } }, idem, other.key);
    expect(res.status).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
  });

  it('replays 4xx outcomes, including body validation failures', async () => {
    const idem = randomUUID();
    const first = expectError(await post({ data: { title: 5 } }, idem), 400, 'VALIDATION_FAILED');
    const again = await post({ data: { title: 5 } }, idem);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first);
    const schemaIdem = randomUUID();
    expectError(await post({ data: {}, bogus: true }, schemaIdem), 400, 'VALIDATION_FAILED');
    expect((await post({ data: {}, bogus: true }, schemaIdem)).headers['idempotent-replayed']).toBe('true');
  });

  it('releases the key after a 5xx so the client can retry', async () => {
    const idem = randomUUID();
    const body = { slug: 'six', data: { title: 'Six' }, translations: [] };
    // Make the write fail on the server side.
    await sql`ALTER TABLE entries RENAME TO entries_away`.execute(env.ctx.db.kysely);
    let failed;
    try {
      failed = await post(body, idem);
    } finally {
      await sql`ALTER TABLE entries_away RENAME TO entries`.execute(env.ctx.db.kysely);
    }
    expectError(failed, 500, 'INTERNAL_ERROR');
    expect(await env.ctx.db.kysely.selectFrom('idempotency_keys').select('idem_key').where('idem_key', '=', idem).executeTakeFirst()).toBeUndefined();
    const retry = await post(body, idem);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
  });

  it('applies to every management write (content types, PUT, PATCH, DELETE), not to GET', async () => {
    const ct = randomUUID();
    const a = await post({ name: 'Tag' }, ct, key, '/content-types');
    expect(a.status).toBe(201);
    const b = await post({ name: 'Tag' }, ct, key, '/content-types');
    expect(b.status).toBe(201);
    expect(b.headers['idempotent-replayed']).toBe('true');

    await post({ slug: 'seven', data: { title: 'Seven' } });
    const put = randomUUID();
    const p1 = await call(env.app, 'PUT', `${M}/content-types/post/entries/seven`, {
      key,
      body: { data: { title: 'Seven 2' } },
      headers: { 'idempotency-key': put },
    });
    const p2 = await call(env.app, 'PUT', `${M}/content-types/post/entries/seven`, {
      key,
      body: { data: { title: 'Seven 2' } },
      headers: { 'idempotency-key': put },
    });
    expect(p2.headers['idempotent-replayed']).toBe('true');
    expect(p2.headers.etag).toBe(p1.headers.etag);

    const pub = randomUUID();
    expect((await call(env.app, 'PATCH', `${M}/content-types/post/entries/seven/publish`, { key, headers: { 'idempotency-key': pub } })).status).toBe(200);
    const pubAgain = await call(env.app, 'PATCH', `${M}/content-types/post/entries/seven/publish`, { key, headers: { 'idempotency-key': pub } });
    expect(pubAgain.status).toBe(200);
    expect(pubAgain.headers['idempotent-replayed']).toBe('true');

    const del = randomUUID();
    expect((await call(env.app, 'DELETE', `${M}/content-types/post/entries/seven`, { key, headers: { 'idempotency-key': del } })).status).toBe(200);
    const delAgain = await call(env.app, 'DELETE', `${M}/content-types/post/entries/seven`, { key, headers: { 'idempotency-key': del } });
    expect(delAgain.status).toBe(200);
    expect(delAgain.headers['idempotent-replayed']).toBe('true');

    const get = randomUUID();
    await call(env.app, 'GET', `${M}/content-types/post/entries`, { key, headers: { 'idempotency-key': get } });
    expect(await env.ctx.db.kysely.selectFrom('idempotency_keys').select('idem_key').where('idem_key', '=', get).executeTakeFirst()).toBeUndefined();
  });

  it('refuses a key that is not a uuid with 400 at headers.idempotency-key and writes nothing', async () => {
    const countKeys = async () =>
      Number(
        (
          await env.ctx.db.kysely
            .selectFrom('idempotency_keys')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const entries = await countEntries();
    const keys = await countKeys();
    const uuid = randomUUID();
    const bad = ['not-a-uuid', 'x'.repeat(255), 'x'.repeat(256), 'has space', '', uuid.replace(/-/g, ''), `{${uuid}}`, `${uuid}0`];
    for (const idem of bad) {
      const res = expectError(await post({ slug: 'bad-key', data: { title: 'Bad' } }, idem), 400, 'VALIDATION_FAILED');
      expect(res.errors).toEqual([{ path: 'headers.idempotency-key', message: 'must be a uuid' }]);
      expect(res).toMatchObject({ success: false, data: null, meta: null, traceId: expect.stringMatching(/^req_/) });
    }
    expect(await countEntries()).toBe(entries);
    expect(await countKeys()).toBe(keys);
    // Other methods too: the DELETE does not run.
    expect((await post({ slug: 'kept', data: { title: 'Kept' } })).status).toBe(201);
    expectError(
      await call(env.app, 'DELETE', `${M}/content-types/post/entries/kept`, { key, headers: { 'idempotency-key': 'delete-kept' } }),
      400,
      'VALIDATION_FAILED',
    );
    expect((await call(env.app, 'GET', `${M}/content-types/post/entries/kept`, { key })).status).toBe(200);
    expect(await countKeys()).toBe(keys);
    // Any uuid version and either case is a key.
    expect((await post({ slug: 'upper-key', data: {} }, randomUUID().toUpperCase())).status).toBe(201);
    expect((await post({ slug: 'v7-key', data: {} }, '01890a5d-ac96-774b-bcce-b302099a8057')).status).toBe(201);
  });

  it('does not record unauthenticated or forbidden requests', async () => {
    const idem = randomUUID();
    expectError(
      await call(env.app, 'POST', `${M}/content-types/post/entries`, { body: { data: {} }, headers: { 'idempotency-key': idem } }),
      401,
      'UNAUTHORIZED',
    );
    const readOnly = await createApiKey(env.ctx, wsId, userId, { keyClass: 'management', scopes: ['media:write'] });
    expectError(await post({ data: {} }, idem, readOnly.key), 403, 'FORBIDDEN');
    expect(await env.ctx.db.kysely.selectFrom('idempotency_keys').select('idem_key').where('idem_key', '=', idem).executeTakeFirst()).toBeUndefined();
  });

  it('module rules: a 5xx outcome deletes the claim; a completed claim replays', async () => {
    const fp = requestFingerprint('POST', '/x', { a: 1 });
    const moduleKey = randomUUID();
    const begun = await beginIdempotent(env.ctx, keyId, moduleKey, fp);
    expect(begun.kind).toBe('proceed');
    if (begun.kind !== 'proceed') return;
    await completeIdempotent(env.ctx, begun.claim, { statusCode: 503, body: '{}', headers: {} });
    const again = await beginIdempotent(env.ctx, keyId, moduleKey, fp);
    expect(again.kind).toBe('proceed');
    if (again.kind !== 'proceed') return;
    await completeIdempotent(env.ctx, again.claim, { statusCode: 201, body: '{"ok":true}', headers: { etag: '"e"' } });
    expect(await beginIdempotent(env.ctx, keyId, moduleKey, fp)).toEqual({
      kind: 'replay',
      response: { statusCode: 201, body: '{"ok":true}', headers: { etag: '"e"' } },
    });
    expect(requestFingerprint('POST', '/x', { b: [1, { c: 2, d: 3 }], a: 1 })).toBe(requestFingerprint('post', '/x', { a: 1, b: [1, { d: 3, c: 2 }] }));
  });
});
