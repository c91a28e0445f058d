/**
 * The client's live subscription (D142) against a live server, both databases:
 * `client.live.subscribe` hands each change `{type: 'change', id, tags}` to its handler; after the
 * connection is cut it reconnects with Last-Event-ID and gets what changed meanwhile, once; a
 * subscription from a kept id replays what followed it; a refused key stops with an error;
 * unsubscribing closes the stream.
 */
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type LiveEvent, type QuireClient, type QuireError } from '../packages/client/src/index.js';
import { createTestEnv, dialects, seedWorkspace, type TestEnv } from './helpers.js';
import { until } from './live-client.js';

describe.each(dialects())('client live on %s', (dialect) => {
  let env: TestEnv;
  let url: string;
  let admin: QuireClient;
  let delivery: QuireClient;

  beforeAll(async () => {
    env = await createTestEnv(dialect, { config: { livePollMs: 600_000 } });
    await env.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(env.app.server.address() as net.AddressInfo).port}`;
    const ws = await seedWorkspace(env.ctx);
    admin = createClient({ url, apiKey: ws.keys.management });
    delivery = createClient({ url, apiKey: ws.keys.delivery });
    await admin.manage.contentTypes.create({ name: 'Note', slug: 'note', fields: [{ name: 'title', field_type: 'text' }] });
  });
  afterAll(async () => {
    // fetch's pool may hold a connection it opened for a reconnection that was aborted before
    // its request went out; the server waits for such a connection at close, so cut it.
    const closing = env?.close();
    setTimeout(() => env?.app.server.closeAllConnections(), 100);
    await closing;
  });

  const publish = async (slug: string) => {
    const created = await admin.manage.entries.create('note', { slug, data: { title: slug } });
    await admin.manage.entries.publish('note', slug);
    return created.id;
  };
  const tagged = (events: LiveEvent[], id: string) => events.filter((e) => e.type === 'change' && e.tags.includes(`e:${id}`));

  it('hands changes to the handler, reconnects with Last-Event-ID after a cut, and stops when unsubscribed', async () => {
    const events: LiveEvent[] = [];
    const stop = delivery.live.subscribe((e) => events.push(e));
    await until('stream open', () => env.ctx.live.size === 1);
    const a = await publish('a');
    await until('first change', () => tagged(events, a).length === 1);
    // Cut every connection; the change made meanwhile arrives after the reconnection, once.
    env.app.server.closeAllConnections();
    const b = await publish('b');
    await until('change after reconnection', () => tagged(events, b).length === 1);
    expect(tagged(events, a)).toHaveLength(1);
    stop();
    await until('stream closed', () => env.ctx.live.size === 0);
    const c = await publish('c');
    await new Promise((r) => setTimeout(r, 200));
    expect(tagged(events, c)).toHaveLength(0);

    // From a kept id: what followed it.
    const replayed: LiveEvent[] = [];
    const again = delivery.live.subscribe((e) => replayed.push(e), { lastEventId: tagged(events, b)[0].id });
    await until('replay', () => tagged(replayed, c).length === 1);
    expect(replayed[0].tags).toContain(`e:${c}`);
    again();
  });

  it('stops with the error when the key is refused', async () => {
    const errors: QuireError[] = [];
    const bad = createClient({ url, apiKey: 'svc_live_nope' });
    bad.live.subscribe(() => {}, { onError: (e) => errors.push(e) });
    const error = await until('refusal', () => errors[0]);
    expect(error.status).toBe(401);
    await new Promise((r) => setTimeout(r, 300));
    expect(errors).toHaveLength(1);
  });
});
