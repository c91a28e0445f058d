import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Context } from '../src/context.js';
import { createDb } from '../src/db/create-db.js';
import type { Db } from '../src/db/types.js';
import { newId } from '../src/lib/ids.js';
import { afterStep, dueStep, type PublicationState } from '../src/modules/publishing/columns.js';
import { runSchedulerOnce, startScheduler } from '../src/modules/publishing/scheduler.js';
import { startServices } from '../src/services.js';
import { call, createTestEnv, dialects, type TestEnv } from './helpers.js';
import { createWorld, P, type DeliveryWorld } from './delivery-fixtures.js';

const run = promisify(execFile);

const TYPES = [{ name: 'Post', slug: 'post', fields: [{ name: 'title', field_type: 'text' }] }];

/** A workspace, a content type, `n` due scheduled entries and `n` due scheduled pages, inserted directly. */
async function seedDue(db: Db, n: number, publishAt: string): Promise<{ workspaceId: string }> {
  const workspaceId = newId();
  const typeId = newId();
  const t = '2026-01-01T00:00:00.000Z';
  await db.kysely
    .insertInto('workspaces')
    .values({
      id: workspaceId,
      name: 'W',
      slug: `w-${workspaceId.slice(-8)}`,
      default_locale: 'en',
      locales: JSON.stringify(['en']),
      created_at: t,
      updated_at: t,
    })
    .execute();
  await db.kysely
    .insertInto('content_types')
    .values({
      id: typeId,
      workspace_id: workspaceId,
      name: 'T',
      slug: 't',
      description: null,
      icon: null,
      display_field: null,
      is_block: 0,
      orderable: 0,
      created_at: t,
      updated_at: t,
    })
    .execute();
  for (let i = 0; i < n; i++) {
    const entryId = newId();
    const pageId = newId();
    await db.kysely
      .insertInto('entries')
      .values({
        id: entryId,
        workspace_id: workspaceId,
        content_type_id: typeId,
        slug: `e${i}`,
        status: 'scheduled',
        data: '{}',
        published_data: '{}',
        position: i,
        publish_at: publishAt,
        published_at: null,
        version: 1,
        created_at: t,
        updated_at: t,
        created_by: null,
        updated_by: null,
      })
      .execute();
    await db.kysely
      .insertInto('entry_versions')
      .values({
        entry_id: entryId,
        version: 1,
        action: 'schedule',
        status: 'scheduled',
        snapshot: '{"data":{},"translations":[]}',
        created_at: t,
        created_by: null,
      })
      .execute();
    await db.kysely
      .insertInto('pages')
      .values({
        id: pageId,
        workspace_id: workspaceId,
        slug: `p${i}`,
        status: 'scheduled',
        position: i,
        seo: '{}',
        published_seo: '{}',
        publish_at: publishAt,
        published_at: null,
        version: 1,
        created_at: t,
        updated_at: t,
        created_by: null,
        updated_by: null,
      })
      .execute();
    await db.kysely
      .insertInto('page_versions')
      .values({ page_id: pageId, version: 1, action: 'schedule', status: 'scheduled', snapshot: '{}', created_at: t, created_by: null })
      .execute();
  }
  return { workspaceId };
}

describe.each(dialects())('scheduled publishing on %s', (dialect) => {
  let env: TestEnv;
  let w: DeliveryWorld;
  let now = new Date('2026-06-01T12:00:00.000Z');

  beforeAll(async () => {
    env = await createTestEnv(dialect, { clock: () => now, config: { schedulerIntervalMs: 100 } });
    w = await createWorld(env.ctx, env.app, TYPES);
  });
  afterAll(async () => env?.close());

  it('a due item reads as published before the job runs; the job then stores exactly that', async () => {
    const due = await w.insertEntry({
      type: 'post',
      slug: 'due',
      status: 'scheduled',
      publish_at: '2026-06-01T11:00:00.000Z',
      data: { title: 'Due' },
      updated_at: '2026-01-02T00:00:00.000Z',
    });
    const later = await w.insertEntry({ type: 'post', slug: 'later', status: 'scheduled', publish_at: '2026-06-01T13:00:00.000Z', data: { title: 'Later' } });
    await w.insertEntry({ type: 'post', slug: 'draft', status: 'draft', data: { title: 'Draft' } });
    const pageId = newId();
    await env.ctx.db.kysely
      .insertInto('pages')
      .values({
        id: pageId,
        workspace_id: w.workspaceId,
        slug: 'home',
        status: 'scheduled',
        position: 0,
        seo: '{}',
        publish_at: '2026-06-01T10:00:00.000Z',
        published_at: null,
        version: 3,
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
        created_by: null,
        updated_by: null,
      })
      .execute();

    const before = await call(env.app, 'GET', `${P}/entries/due?type=post`, { key: w.keys.delivery });
    expect(before.body.data.entry).toMatchObject({ status: 'published', published_at: '2026-06-01T11:00:00.000Z', publish_at: null });
    expect((await call(env.app, 'GET', `${P}/entries/later`, { key: w.keys.delivery })).status).toBe(404);
    const stored = await env.ctx.db.kysely.selectFrom('entries').select('status').where('id', '=', due).executeTakeFirstOrThrow();
    expect(stored.status).toBe('scheduled');

    const run = await runSchedulerOnce(env.ctx);
    expect(run).toEqual({ entries: 1, pages: 1 });
    const rows = await env.ctx.db.kysely
      .selectFrom('entries')
      .select(['id', 'status', 'published_at', 'publish_at', 'updated_at', 'version'])
      .where('workspace_id', '=', w.workspaceId)
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(due)).toMatchObject({
      status: 'published',
      published_at: '2026-06-01T11:00:00.000Z',
      publish_at: null,
      updated_at: '2026-01-02T00:00:00.000Z',
      version: 1,
    });
    expect(byId.get(later)).toMatchObject({ status: 'scheduled', published_at: null, publish_at: '2026-06-01T13:00:00.000Z' });
    const page = await env.ctx.db.kysely.selectFrom('pages').selectAll().where('id', '=', pageId).executeTakeFirstOrThrow();
    expect(page).toMatchObject({ status: 'published', published_at: '2026-06-01T10:00:00.000Z', publish_at: null, version: 3 });
    // What clients see did not change.
    const after = await call(env.app, 'GET', `${P}/entries/due?type=post`, { key: w.keys.delivery });
    expect(after.body.data.entry).toEqual(before.body.data.entry);
    expect(await runSchedulerOnce(env.ctx)).toEqual({ entries: 0, pages: 0 });

    // When its time comes, the later entry is visible at once and then stored.
    now = new Date('2026-06-01T13:00:00.000Z');
    expect((await call(env.app, 'GET', `${P}/entries/later`, { key: w.keys.delivery })).body.data.entry.status).toBe('published');
    expect(await runSchedulerOnce(env.ctx)).toEqual({ entries: 1, pages: 0 });
  });

  it('the set-based due publish stores in every row what the one-row step (dueStep) computes from it', async () => {
    const { workspaceId } = await seedDue(env.ctx.db, 4, '2026-06-01T11:30:00.000Z');
    const cols = [
      'id',
      'status',
      'publish_at',
      'published_at',
      'published_by',
      'published_version',
      'latest_version',
      'version',
      'has_pending_changes',
    ] as const;
    const read = async (table: 'entries' | 'pages') => {
      const rows = await env.ctx.db.kysely.selectFrom(table).select(cols).where('workspace_id', '=', workspaceId).orderBy('id').execute();
      return rows.map((r): PublicationState & { id: string } => ({
        ...r,
        status: r.status as PublicationState['status'],
        published_by: r.published_by === null ? null : Number(r.published_by),
        published_version: r.published_version === null ? null : Number(r.published_version),
        latest_version: Number(r.latest_version),
        version: Number(r.version),
        has_pending_changes: Boolean(Number(r.has_pending_changes)),
      }));
    };
    const before = { entries: await read('entries'), pages: await read('pages') };
    expect(before.entries).toHaveLength(4);
    expect(await runSchedulerOnce(env.ctx)).toMatchObject({ entries: 4, pages: 4 });
    for (const table of ['entries', 'pages'] as const) {
      const after = await read(table);
      expect(after).toEqual(before[table].map((row) => afterStep(row, dueStep(row))));
      // The history write of the step: the newest snapshot again, as the published version.
      const versions = table === 'entries' ? 'entry_versions' : 'page_versions';
      const fk = table === 'entries' ? 'entry_id' : 'page_id';
      for (const row of before[table]) {
        const step = dueStep(row);
        const v = await env.ctx.db.kysely
          .selectFrom(versions)
          .select(['action', 'status'])
          .where(fk, '=', row.id)
          .where('version', '=', step.history.version)
          .executeTakeFirstOrThrow();
        expect(v).toEqual({ action: 'publish', status: step.history.status });
      }
    }
  });

  it('two schedulers on one database publish each item exactly once', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-sched-'));
    let a: Db;
    let b: Db;
    if (dialect === 'postgres') {
      const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(env.ctx.db.kysely)).rows[0].s;
      a = env.ctx.db;
      b = await createDb(env.config, { pgSchema: schema, poolSize: 2 });
    } else {
      // Two connections on one SQLite file, as two processes would have.
      const file = path.join(dir, 'shared.db');
      a = await createDb({ databaseUrl: null, dataDir: dir }, { sqliteFile: file });
      b = await createDb({ databaseUrl: null, dataDir: dir }, { sqliteFile: file });
    }
    try {
      const n = 40;
      const { workspaceId } = await seedDue(a, n, '2026-06-01T12:00:00.000Z');
      const ctxOf = (db: Db): Context => ({ ...env.ctx, db, log: pino({ level: 'silent' }) });
      // SQLite connections of one process share its thread: one waiting for the other's write
      // lock would block the very thread that must finish the other's transaction. Separate
      // processes run the SQLite passes, as separate instances would.
      const runs =
        dialect === 'postgres'
          ? await Promise.all([runSchedulerOnce(ctxOf(a)), runSchedulerOnce(ctxOf(b)), runSchedulerOnce(ctxOf(a)), runSchedulerOnce(ctxOf(b))])
          : await Promise.all(
              [0, 1, 2, 3].map(async () => {
                const { stdout } = await run(process.execPath, [
                  path.join(import.meta.dirname, 'scheduler-child.mjs'),
                  path.join(dir, 'shared.db'),
                  '2026-06-01T12:00:00.000Z',
                ]);
                return JSON.parse(stdout) as { entries: number; pages: number };
              }),
            );
      expect(runs.reduce((s, r) => s + r.entries, 0)).toBe(n);
      expect(runs.reduce((s, r) => s + r.pages, 0)).toBe(n);
      const left = await a.kysely
        .selectFrom('entries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'scheduled')
        .executeTakeFirstOrThrow();
      expect(Number(left.n)).toBe(0);
      // Each publication recorded exactly one `publish` version (D72), whichever instance made it.
      const versions = await a.kysely
        .selectFrom('entry_versions as v')
        .innerJoin('entries as e', 'e.id', 'v.entry_id')
        .select(['v.version', 'v.action'])
        .where('e.workspace_id', '=', workspaceId)
        .where('v.action', '=', 'publish')
        .execute();
      expect(versions).toHaveLength(n);
      expect(versions.every((v) => v.version === 2)).toBe(true);
    } finally {
      await b.close();
      if (a !== env.ctx.db) await a.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the background job runs on its interval and stops cleanly (also through startServices)', async () => {
    const id = await w.insertEntry({ type: 'post', slug: 'timed', status: 'scheduled', publish_at: '2026-06-01T12:30:00.000Z', data: { title: 'Timed' } });
    const status = async () => (await env.ctx.db.kysely.selectFrom('entries').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
    now = new Date('2026-06-01T12:00:00.000Z');
    const scheduler = startScheduler(env.ctx);
    try {
      // Not due yet: the first runs change nothing.
      await new Promise((r) => setTimeout(r, 250));
      expect(await status()).toBe('scheduled');
      now = new Date('2026-06-01T12:31:00.000Z');
      for (let i = 0; i < 40 && (await status()) !== 'published'; i++) await new Promise((r) => setTimeout(r, 50));
      expect(await status()).toBe('published');
    } finally {
      await scheduler.stop();
    }
    const services = await startServices(env.ctx);
    await services.stop();
  });
});
