/**
 * No oracle (issue 8): every route that takes an id answers an id of another workspace exactly
 * as it answers a uuid that exists nowhere — same status, same code, same message and details
 * but for the id itself. Before, a block id of another workspace was reported as "belongs to
 * another page".
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestEnv, dialects, insertMediaRow, seedWorkspace, type Res, type TestEnv } from '../helpers.js';

const M = '/api/v1/manage';
const P = '/api/v1/public';

describe.each(dialects())('no cross-workspace oracle on %s', (dialect) => {
  let env: TestEnv;
  /** Workspace A probes; workspace B owns the foreign ids. */
  let a: { management: string; delivery: string; workspaceId: string; ownerId: number };
  const foreign: Record<'entry' | 'page' | 'block' | 'media' | 'field', string> = { entry: '', page: '', block: '', media: '', field: '' };
  let ownIds: { entries: string[]; pages: string[] };
  let bKey: string;

  const seedTypes = async (key: string) => {
    const types = [
      { name: 'Author', fields: [{ name: 'name', field_type: 'text' }] },
      {
        name: 'Post',
        orderable: true,
        fields: [
          { name: 'title', field_type: 'text' },
          { name: 'author', field_type: 'relation', options: ['author'], filterable: true },
          { name: 'cover', field_type: 'media' },
        ],
      },
      { name: 'Cta', is_block: true, fields: [{ name: 'label', field_type: 'text' }] },
    ];
    for (const t of types) expect((await call(env.app, 'POST', `${M}/content-types`, { key, body: t })).status).toBe(201);
  };

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    const sa = await seedWorkspace(env.ctx);
    const sb = await seedWorkspace(env.ctx);
    a = { management: sa.keys.management, delivery: sa.keys.delivery, workspaceId: sa.workspace.id, ownerId: sa.user.id };
    await seedTypes(sa.keys.management);
    await seedTypes(sb.keys.management);
    const b = sb.keys.management;
    bKey = b;
    foreign.entry = (await call(env.app, 'POST', `${M}/content-types/author/entries`, { key: b, body: { data: { name: 'Eve' } } })).body.data.id;
    const page = await call(env.app, 'POST', `${M}/pages`, { key: b, body: { slug: 'secret', blocks: [{ type: 'cta', data: { label: 'B' } }] } });
    foreign.page = page.body.data.id;
    foreign.block = (await call(env.app, 'GET', `${M}/pages/secret`, { key: b })).body.data.blocks[0].id;
    foreign.media = await insertMediaRow(env.ctx, sb.workspace.id, sb.user.id);
    foreign.field = (await call(env.app, 'GET', `${M}/content-types/post/fields`, { key: b })).body.data[0].id;
    const mine = [];
    for (const title of ['One', 'Two'])
      mine.push((await call(env.app, 'POST', `${M}/content-types/post/entries`, { key: a.management, body: { data: { title } } })).body.data.id);
    const home = await call(env.app, 'POST', `${M}/pages`, { key: a.management, body: { slug: 'home', blocks: [{ type: 'cta', data: { label: 'A' } }] } });
    ownIds = { entries: mine, pages: [home.body.data.id] };
  });
  afterAll(() => env.close());

  /** The answer with the probed id and per-request values taken out. */
  const shape = (res: Res, id: string) => {
    const text = JSON.stringify(res.body ?? null)
      .split(id)
      .join('<id>')
      .split(id.toUpperCase())
      .join('<id>');
    const body = JSON.parse(text);
    if (body && typeof body === 'object') {
      delete body.traceId;
      if (body.data && typeof body.data === 'object' && !Array.isArray(body.data))
        for (const k of ['created_at', 'updated_at', 'version', 'id', 'published_at']) delete body.data[k];
    }
    return { status: res.status, body };
  };

  const ws = () => ({ 'x-workspace-id': a.workspaceId });
  const probes: [string, keyof typeof foreign, (id: string) => Promise<Res>][] = [
    ['GET media', 'media', (id) => call(env.app, 'GET', `${M}/media/${id}`, { key: a.management, headers: ws() })],
    ['PUT media', 'media', (id) => call(env.app, 'PUT', `${M}/media/${id}`, { key: a.management, headers: ws(), body: { alt_text: 'x' } })],
    ['DELETE media', 'media', (id) => call(env.app, 'DELETE', `${M}/media/${id}`, { key: a.management, headers: ws() })],
    ['delivery media', 'media', (id) => call(env.app, 'GET', `${P}/media/${id}`, { key: a.delivery })],
    [
      'media field',
      'media',
      (id) => call(env.app, 'POST', `${M}/content-types/post/entries`, { key: a.management, body: { data: { title: 'x', cover: id } } }),
    ],
    [
      'relation field',
      'entry',
      (id) => call(env.app, 'POST', `${M}/content-types/post/entries`, { key: a.management, body: { data: { title: 'x', author: id } } }),
    ],
    ['preview token', 'entry', (id) => call(env.app, 'POST', `${M}/preview-tokens`, { key: a.management, body: { entry_id: id } })],
    [
      'bulk publish',
      'entry',
      (id) => call(env.app, 'PATCH', `${M}/content-types/post/entries/bulk`, { key: a.management, body: { action: 'publish', ids: [id] } }),
    ],
    ['bulk delete', 'entry', (id) => call(env.app, 'DELETE', `${M}/content-types/post/entries/bulk`, { key: a.management, body: { ids: [id] } })],
    [
      'entry reorder',
      'entry',
      (id) => call(env.app, 'PATCH', `${M}/content-types/post/entries/reorder`, { key: a.management, body: { order: [...ownIds.entries, id] } }),
    ],
    ['delivery filter', 'entry', (id) => call(env.app, 'GET', `${P}/entries?type=post&filter[author]=${id}`, { key: a.delivery })],
    ['page reorder', 'page', (id) => call(env.app, 'PATCH', `${M}/pages/reorder`, { key: a.management, body: { order: [...ownIds.pages, id] } })],
    [
      'block reorder parent',
      'block',
      (id) => call(env.app, 'PATCH', `${M}/pages/home/blocks/reorder`, { key: a.management, body: { parent_id: id, order: [] } }),
    ],
    ['block reorder order', 'block', (id) => call(env.app, 'PATCH', `${M}/pages/home/blocks/reorder`, { key: a.management, body: { order: [id] } })],
    ['field PATCH', 'field', (id) => call(env.app, 'PATCH', `${M}/content-types/post/fields/${id}`, { key: a.management, body: { label: 'x' } })],
    ['field impact', 'field', (id) => call(env.app, 'GET', `${M}/content-types/post/fields/${id}/deletion-impact`, { key: a.management })],
  ];

  for (const [name, kind, probe] of probes) {
    it(`${name}: another workspace's ${kind} id answers like an unknown id`, async () => {
      const theirs = foreign[kind];
      const unknown = randomUUID();
      const answers = [shape(await probe(theirs), theirs), shape(await probe(unknown), unknown)];
      expect(answers[0].status).toBeLessThan(500);
      expect(answers[0]).toEqual(answers[1]);
    });
  }

  it("PUT a page with another workspace's block id: a new block of this page under that id, exactly as with an unknown id; the other page is untouched", async () => {
    const theirs = JSON.stringify((await call(env.app, 'GET', `${M}/pages/secret`, { key: bKey })).body.data.blocks);
    const answers = [];
    for (const [i, id] of [foreign.block, randomUUID()].entries()) {
      const res = await call(env.app, 'PUT', `${M}/pages/home`, {
        key: a.management,
        body: { seo: {}, blocks: [{ id, type: 'cta', data: { label: 'mine' } }] },
      });
      const detail = await call(env.app, 'GET', `${M}/pages/home`, { key: a.management });
      expect(detail.body.data.blocks.map((b: { id: string }) => b.id)).toEqual([id]);
      if (i === 0) {
        const holders = await env.ctx.db.kysely.selectFrom('blocks').select('page_id').where('id', '=', foreign.block).execute();
        expect(holders.map((r) => r.page_id).sort()).toEqual([foreign.page, ownIds.pages[0]].sort());
      }
      answers.push(shape(res, id));
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0].status).toBe(200);
    expect(JSON.stringify((await call(env.app, 'GET', `${M}/pages/secret`, { key: bKey })).body.data.blocks)).toBe(theirs);
  });
});
