/**
 * The client's sync (D83) against a live server, both databases: an initial sync read to the end
 * through syncAll (pages of up to 100 followed by next_page_token) gives every published entry
 * with its data and translations parsed and a sync token; a delta from that token gives what
 * changed since, deletions included.
 */
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, isSyncItem, type QuireClient, type SyncItem } from '../packages/client/src/index.js';
import { createTestEnv, dialects, seedWorkspace, type TestEnv } from './helpers.js';

describe.each(dialects())('client sync on %s', (dialect) => {
  let env: TestEnv;
  let admin: QuireClient;
  let delivery: QuireClient;

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    await env.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(env.app.server.address() as net.AddressInfo).port}`;
    const ws = await seedWorkspace(env.ctx);
    admin = createClient({ url, apiKey: ws.keys.management });
    delivery = createClient({ url, apiKey: ws.keys.delivery });
    await admin.manage.contentTypes.create({ name: 'Note', slug: 'note', fields: [{ name: 'title', field_type: 'text', localizable: true }] });
    // More than one sync page (100 items): created 15 at a time.
    for (let start = 1; start <= 105; start += 15) {
      await Promise.all(
        Array.from({ length: 15 }, (_, k) => start + k).map((i) =>
          admin.manage.entries.create('note', { slug: `note-${i}`, data: { title: `Note ${i}` }, translations: { de: { data: { title: `Notiz ${i}` } } } }),
        ),
      );
    }
    const ids = (await admin.manage.entries.list('note', { limit: 100 })).items.map((e) => e.id);
    await admin.manage.entries.bulk('note', 'publish', ids);
    const rest = (await admin.manage.entries.list('note', { status: 'draft', limit: 100 })).items.map((e) => e.id);
    await admin.manage.entries.bulk('note', 'publish', rest);
  }, 120_000);
  afterAll(async () => env?.close());

  it('reads an initial sync across pages, then the delta since its token', async () => {
    const run = delivery.syncAll({ initial: true });
    const items: SyncItem[] = [];
    for await (const item of run) items.push(item);
    const entries = items.filter((i) => isSyncItem(i, 'entry'));
    expect(entries).toHaveLength(105);
    const one = entries.find((e) => e.slug === 'note-7')!;
    expect(one.data).toEqual({ title: 'Note 7' });
    expect(one.translations).toEqual([expect.objectContaining({ locale: 'de', data: { title: 'Notiz 7' } })]);
    expect(typeof run.syncToken).toBe('string');

    await admin.manage.entries.update('note', 'note-1', { data: { title: 'Changed' } });
    await admin.manage.entries.publish('note', 'note-1');
    await admin.manage.entries.delete('note', 'note-2');
    const delta = await delivery.sync({ token: run.syncToken! });
    expect(delta.nextPageToken).toBeNull();
    expect(typeof delta.nextSyncToken).toBe('string');
    const byType = Object.fromEntries(delta.items.map((i) => [`${i.sys.type}:${String(i.sys.slug)}`, i]));
    const changed = byType['entry:note-1'];
    expect(changed && isSyncItem(changed, 'entry') ? changed.data : null).toEqual({ title: 'Changed' });
    expect(byType['deleted_entry:note-2']).toBeDefined();
  });
});
