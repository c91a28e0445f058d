/**
 * Releases go live at one instant, and a scheduled release is published once (docs/releases.md
 * "Publishing", "Scheduling"; D112), on SQLite (in a file: delivery reads run on reader threads
 * beside the writer) and PostgreSQL:
 * - a production list read in a loop while a 50-item release is published shows the old titles
 *   or the new ones, never a mix, and the new ones once the publication has answered (the
 *   delivery cache included);
 * - two instances' schedulers (PostgreSQL: a second pool on the same database) and a third pass
 *   running at once publish a due release once: one `release.published` event, one `publish`
 *   version per item.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../src/db/create-db.js';
import { listEventsAfter } from '../src/modules/events/repository.js';
import { publishDueReleases } from '../src/modules/releases/publication.js';
import { call, createTestEnv, dialects, seedWorkspace, type TestEnv } from './helpers.js';

const M = '/api/v1/manage';
const P = '/api/v1/public';
const N = 50;

describe.each(dialects())('releases at one instant on %s', (dialect) => {
  let env: TestEnv;
  let now = Date.parse('2026-11-21T10:00:00.000Z');
  let keys: { management: string; delivery: string; preview: string };
  let wsId: string;
  const req = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, body?: unknown) => call(env.app, method, `${M}${url}`, { key: keys.management, body });

  /** `count` published entries of type `type` titled `<prefix> v1`, in a new release with `<prefix> v2` as their release versions. */
  async function campaign(type: string, count: number): Promise<string> {
    expect((await req('POST', '/content-types', { name: type, slug: type, fields: [{ name: 'title', field_type: 'text', required: true }] })).status).toBe(201);
    const rel = (await req('POST', '/releases', { title: type })).body.data.id as string;
    for (let i = 0; i < count; i++) {
      const created = await req('POST', `/content-types/${type}/entries`, { slug: `${type}-${i}`, data: { title: `${type} v1` } });
      await req('PATCH', `/content-types/${type}/entries/${type}-${i}/publish`);
      expect((await req('POST', `/releases/${rel}/items`, { kind: 'entry', id: created.body.data.id, action: 'publish' })).status).toBe(200);
      await req('PUT', `/content-types/${type}/entries/${type}-${i}?release=${rel}`, { data: { title: `${type} v2` } });
    }
    return rel;
  }

  const titles = async (type: string): Promise<string[]> => {
    const res = await call(env.app, 'GET', `${P}/entries?type=${type}&limit=100`, { key: keys.delivery });
    expect(res.status).toBe(200);
    return res.body.data.map((e: { data: string }) => JSON.parse(e.data).title as string);
  };

  beforeAll(async () => {
    env = await createTestEnv(dialect, { clock: () => new Date(now), sqliteOnDisk: true });
    const s = await seedWorkspace(env.ctx);
    keys = s.keys;
    wsId = s.workspace.id;
  });
  afterAll(async () => env?.close());

  it(`a production list read in a loop during the publication of ${N} items never shows a mix`, async () => {
    const rel = await campaign('promo', N);
    expect(new Set(await titles('promo'))).toEqual(new Set(['promo v1']));
    let publishing = true;
    const seen: string[][] = [];
    const reader = (async () => {
      while (publishing) seen.push(await titles('promo'));
    })();
    const published = await req('POST', `/releases/${rel}/publish`);
    publishing = false;
    await reader;
    expect(published.status).toBe(200);
    expect(seen.length).toBeGreaterThan(0);
    for (const list of seen) {
      expect(list).toHaveLength(N);
      expect(new Set(list).size).toBe(1);
    }
    const after = await titles('promo');
    expect(after).toHaveLength(N);
    expect(new Set(after)).toEqual(new Set(['promo v2']));
  });

  it('two schedulers at once publish a due release once', async () => {
    const rel = await campaign('sched', 5);
    const at = new Date(now + 60_000).toISOString();
    expect((await req('POST', `/releases/${rel}/schedule`, { publish_at: at })).status).toBe(200);
    now += 120_000;
    const schema = dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(env.ctx.db.kysely)).rows[0].s : null;
    // On PostgreSQL a second pool on the same schema, as a second instance would have; an embedded
    // SQLite database belongs to one instance, whose concurrent passes share its handle.
    const other = schema ? await createDb(env.config, { pgSchema: schema, poolSize: 2 }) : env.ctx.db;
    const last = await listEventsAfter(env.ctx.db, wsId, 0, 100000);
    try {
      const runs = await Promise.all([publishDueReleases(env.ctx), publishDueReleases({ ...env.ctx, db: other }), publishDueReleases(env.ctx)]);
      expect(runs.reduce((n, r) => n + r.published, 0)).toBe(1);
      expect(runs.reduce((n, r) => n + r.failed, 0)).toBe(0);
    } finally {
      if (other !== env.ctx.db) await other.close();
    }
    const events = await listEventsAfter(env.ctx.db, wsId, last.length ? last[last.length - 1].id : 0, 1000);
    expect(events.filter((e) => e.type === 'release.published')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'entry.published')).toHaveLength(5);
    const versions = await env.ctx.db.kysely.selectFrom('entry_versions').select(['entry_id']).where('release_id', '=', rel).execute();
    expect(versions).toHaveLength(5);
    expect(new Set(await titles('sched'))).toEqual(new Set(['sched v2']));
    expect((await req('GET', `/releases/${rel}`)).body.data).toMatchObject({ status: 'published', published_at: at });
  });
});
