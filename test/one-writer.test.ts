/**
 * One writer (issue 24 item 4), on SQLite and PostgreSQL: the publishing core's batch write
 * primitives, which the importer's bulk path and the restore call too, store exactly what the
 * single-item path stores:
 * - appendVersions (publishing/repository.ts) writes in one call, over several statements, the
 *   rows insertVersion writes one at a time;
 * - insertItemRows writes the rows insertItemRow writes one at a time;
 * - copyTranslationsToPublished (entries/repository.ts) gives entries their working
 *   translations as published ones (the single path, copyEntryToPublished, clears them first);
 * - the Contentful bulk writer (import/contentful/entry-bulk-write.ts), which folds the core's
 *   steps (publishing/columns.ts), leaves for every target status the import maps (draft,
 *   published, archived; a changed entry becomes published or draft by `--changed-as`), written
 *   whole or completed after a link cycle with or without a content change, the same row (every
 *   column), versions, translations, published translations and events as createEntry,
 *   updateEntry and the state action with action `import`;
 * - the restore writes history through appendVersions, so a version row of an export must have
 *   the columns of a version: one that has others, or lacks its snapshot, or whose action,
 *   status or time is not text, is refused with the file and line named, and nothing is written.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../src/db/transaction.js';
import type { Actor } from '../src/modules/auth/permissions.js';
import { systemActor } from '../src/modules/auth/permissions.js';
import type { ContentType } from '../src/modules/content-types/model.js';
import { createEntry, requireEntryType, updateEntry } from '../src/modules/entries/operations.js';
import { changeEntryStatus } from '../src/modules/entries/publishing.js';
import { copyEntryToPublished, copyTranslationsToPublished, findEntry } from '../src/modules/entries/repository.js';
import { insertNewEntries, writeCompletions, type Completion, type NewEntry } from '../src/modules/import/contentful/entry-bulk-write.js';
import { CHANGED_AS, countStates, targetStatus, type CfState, type TargetStatus } from '../src/modules/import/contentful/states.js';
import { appendVersions, ENTRY_TABLES, insertItemRow, insertItemRows, insertVersion, type VersionRecord } from '../src/modules/publishing/repository.js';
import { findWorkspaceBySlug } from '../src/modules/workspaces/repository.js';
import { fromJsonColumn } from '../src/lib/json.js';
import { call, createTestEnv, dialects, seedWorkspace, type TestEnv } from './helpers.js';
import { expectRefused, freshCopy, makeExport, readTable, restore, writeTable } from './security/restore-fixtures.js';

const M = '/api/v1/manage';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-one-writer-'));
const base = path.join(tmp, 'base');

beforeAll(async () => {
  await makeExport(base);
}, 60_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe.each(dialects())('the publishing core writes history and item rows for every writer on %s', (dialect) => {
  let env: TestEnv;
  let key: string;
  let wsId: string;
  let userId: number;
  let typeId: string;
  const ids: Record<string, string> = {};

  const req = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => call(env.app, method, `${M}${url}`, { key, body });

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    const s = await seedWorkspace(env.ctx);
    key = s.keys.management;
    wsId = s.workspace.id;
    userId = s.user.id;
    const type = await req('POST', '/content-types', {
      name: 'Note',
      display_field: 'title',
      fields: [{ name: 'title', field_type: 'text', required: true, localizable: true }],
    });
    expect(type.status).toBe(201);
    typeId = type.body.data.id;
    for (const slug of ['a', 'b']) {
      const res = await req('POST', '/content-types/note/entries', {
        slug,
        data: { title: `Note ${slug}` },
        translations: { de: { data: { title: `Notiz ${slug}` } } },
      });
      expect(res.status).toBe(201);
      ids[slug] = res.body.data.id;
    }
  });
  afterAll(async () => env?.close());

  it('appendVersions stores in one call, over several statements, what insertVersion stores one version at a time', async () => {
    const db = env.ctx.db;
    // 450 versions: three statements of at most 200 rows. Numbers far above the API's own.
    const versions: (VersionRecord & { snapshot: unknown })[] = Array.from({ length: 450 }, (_, i) => ({
      version: 100 + i,
      action: i % 2 ? 'update' : 'import',
      status: i % 3 ? 'draft' : 'published',
      created_at: new Date(Date.UTC(2026, 10, 1, 0, 0, i)).toISOString(),
      created_by: i % 5 ? userId : null,
      snapshot: { data: { title: `v${i}`, é: 'ü"\\' }, translations: [{ id: i, locale: 'de', data: { title: `t${i}` }, created_at: 'x', updated_at: 'y' }] },
    }));
    for (const v of versions) await insertVersion(db, ENTRY_TABLES, ids.a, v);
    await appendVersions(
      db,
      ENTRY_TABLES,
      versions.map((v) => ({ ...v, itemId: ids.b })),
    );
    const read = (id: string) =>
      db.kysely
        .selectFrom('entry_versions')
        .select(['version', 'action', 'status', 'snapshot', 'created_at', 'created_by'])
        .where('entry_id', '=', id)
        .where('version', '>=', 100)
        .orderBy('version')
        .execute();
    const [single, batch] = [await read(ids.a), await read(ids.b)];
    expect(batch).toHaveLength(450);
    expect(batch).toEqual(single);
    expect(fromJsonColumn(batch[7].snapshot, null)).toEqual(versions[7].snapshot);
    expect(Number(batch[7].created_by)).toBe(userId);
    expect(batch[0].created_by).toBeNull();
  });

  it('insertItemRows stores the rows insertItemRow stores one at a time', async () => {
    const db = env.ctx.db;
    const row = (i: number, prefix: string) => {
      const data = { title: `Row ${i}`, list: [i, 'x'] };
      return {
        id: randomUUID(),
        workspace_id: wsId,
        content_type_id: typeId,
        slug: `${prefix}-${i}`,
        data,
        // A published copy that is the working content itself (the importer's rows) is stored as the same text.
        published_data: i % 3 === 0 ? data : null,
        position: 1000 + i,
        status: 'draft' as const,
        publish_at: null,
        published_at: null,
        version: 1,
        created_at: '2026-11-01T00:00:00.000Z',
        updated_at: '2026-11-01T00:00:00.000Z',
        created_by: userId,
        updated_by: userId,
        published_by: null,
        published_version: null,
        latest_version: 1,
        has_pending_changes: i % 2 === 0,
      };
    };
    // 250 rows: two statements of at most 200.
    for (let i = 0; i < 250; i++) await insertItemRow(db, ENTRY_TABLES, row(i, 'single'));
    await insertItemRows(
      db,
      ENTRY_TABLES,
      Array.from({ length: 250 }, (_, i) => row(i, 'batch')),
    );
    const read = async (prefix: string) =>
      (await db.kysely.selectFrom('entries').selectAll().where('slug', 'like', `${prefix}-%`).orderBy('position').execute()).map(
        ({ id: _id, slug, ...rest }) => ({ ...rest, slug: slug.replace(prefix, '') }),
      );
    const [single, batch] = [await read('single'), await read('batch')];
    expect(batch).toHaveLength(250);
    expect(batch).toEqual(single);
    const published = batch.filter((r) => r.published_data !== null);
    expect(published).toHaveLength(84);
    for (const r of published) expect(fromJsonColumn(r.published_data, null)).toEqual(fromJsonColumn(r.data, null));
  });

  it('copyTranslationsToPublished gives new entries their working translations as published ones; copyEntryToPublished replaces them', async () => {
    const db = env.ctx.db;
    const working = (id: string) =>
      db.kysely.selectFrom('entry_translations').select(['entry_id', 'locale', 'id', 'data']).where('entry_id', '=', id).execute();
    const published = (id: string) =>
      db.kysely.selectFrom('published_entry_translations').select(['entry_id', 'locale', 'id', 'data']).where('entry_id', '=', id).execute();
    // Drafts: nothing published yet, as for the entries the importer has just created.
    for (const id of [ids.a, ids.b]) expect(await published(id)).toEqual([]);
    await copyTranslationsToPublished(db, [ids.a, ids.b]);
    for (const id of [ids.a, ids.b]) {
      expect(await published(id)).toEqual(await working(id));
      expect(await published(id)).toHaveLength(1);
    }
    const before = await published(ids.a);
    const put = await req('PUT', '/content-types/note/entries/b', { data: { title: 'Note b' }, translations: { de: { data: { title: 'Neu' } } } });
    expect(put.status).toBe(200);
    await copyEntryToPublished(db, ids.b);
    expect(await published(ids.b)).toEqual(await working(ids.b));
    expect(JSON.stringify(await published(ids.b))).toContain('Neu');
    expect(await published(ids.a)).toEqual(before);
  });
});

/** The Contentful states the import tells apart (draft, published, changed, archived), as its report counts them. */
const CF_STATES = Object.keys(countStates([])) as CfState[];
/** The import's target statuses: every Contentful state under each `--changed-as` (import/contentful/states.ts). */
const TARGETS = [...new Set(CF_STATES.flatMap((state) => CHANGED_AS.map((as) => targetStatus(state, as))))];
/** How a new entry reaches its target: written whole, or created without its link and completed (the content changing or not). */
const FORMS = ['whole', 'completed with a change', 'completed without a change'] as const;
type Form = (typeof FORMS)[number];

describe.each(dialects())('the bulk writer stores what the publishing core stores, for every state the importer maps, on %s', (dialect) => {
  const NOW = new Date('2026-11-29T04:00:00.000Z');
  let env: TestEnv;
  let actor: Actor;
  let ct: ContentType;
  let targetId: string;

  beforeAll(async () => {
    env = await createTestEnv(dialect, { clock: () => new Date(NOW) });
    const s = await seedWorkspace(env.ctx);
    actor = systemActor(s.workspace.id, s.user.id);
    const type = await call(env.app, 'POST', `${M}/content-types`, {
      key: s.keys.management,
      body: {
        name: 'Card',
        display_field: 'title',
        fields: [
          { name: 'title', field_type: 'text', required: true, localizable: true },
          { name: 'link', field_type: 'relation', options: ['card'] },
        ],
      },
    });
    expect(type.status).toBe(201);
    ct = await requireEntryType(env.ctx, actor, 'card');
    targetId = (await createEntry(env.ctx, actor, 'card', { slug: 'target', data: { title: 'Target' } })).id;
  });
  afterAll(async () => env?.close());

  /** The values of case `n`: without its link (what pass 1 writes when the link is missing) and in full. */
  const valuesOf = (n: string, form: Form) => {
    const part = { data: { title: `Card ${n}` }, translations: [{ locale: 'de', data: { title: `Karte ${n}` } }] };
    const full = form === 'completed with a change' ? { ...part, data: { ...part.data, link: targetId } } : part;
    return { part, full };
  };
  const verbOf = (status: TargetStatus) => (status === 'published' ? 'publish' : status === 'archived' ? 'archive' : null);

  /** The single-item path, as the import's slow path takes it: createEntry, updateEntry (a completion), the state action; all with action `import`. */
  async function viaCore(slug: string, status: TargetStatus, form: Form): Promise<string> {
    const { part, full } = valuesOf(slug, form);
    const translations = (v: typeof part) => Object.fromEntries(v.translations.map((t) => [t.locale, { data: t.data }]));
    const created = await createEntry(env.ctx, actor, 'card', { slug, data: part.data, translations: translations(part) }, { action: 'import' });
    if (form !== 'whole')
      await updateEntry(env.ctx, actor, 'card', { id: created.id }, { data: full.data, translations: translations(full) }, { action: 'import' });
    const verb = verbOf(status);
    if (verb) await changeEntryStatus(env.ctx, actor, 'card', { id: created.id }, verb, { action: 'import' });
    return created.id;
  }

  /** Everything one entry left in the database, ids and slugs aside (translation ids as their locale). */
  async function stateOf(id: string) {
    const db = env.ctx.db;
    const working = await db.kysely.selectFrom('entry_translations').selectAll().where('entry_id', '=', id).orderBy('locale').execute();
    const localeOf = new Map(working.map((t) => [Number(t.id), t.locale]));
    const byLocale = (t: { id: unknown }) => localeOf.get(Number(t.id)) ?? `unknown ${t.id}`;
    const {
      id: _id,
      slug: _slug,
      position: _position,
      ...row
    } = await db.kysely.selectFrom('entries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const versions = (await db.kysely.selectFrom('entry_versions').selectAll().where('entry_id', '=', id).orderBy('version').execute()).map(
      ({ entry_id: _e, snapshot, ...v }) => {
        const snap = fromJsonColumn<{ data: unknown; translations: { id: unknown }[] }>(snapshot, { data: null, translations: [] });
        return { ...v, snapshot: { ...snap, translations: snap.translations.map((t) => ({ ...t, id: byLocale(t) })) } };
      },
    );
    const published = await db.kysely.selectFrom('published_entry_translations').selectAll().where('entry_id', '=', id).orderBy('locale').execute();
    const events = await db.kysely
      .selectFrom('events')
      .select(['type', 'item_kind', 'content_type', 'status', 'version', 'created_at'])
      .where('item_id', '=', id)
      .orderBy('id')
      .execute();
    return {
      row,
      versions,
      translations: working.map(({ id: tid, entry_id: _e, ...t }) => ({ ...t, id: byLocale({ id: tid }) })),
      published: published.map(({ entry_id: _e, ...t }) => ({ ...t, id: byLocale(t) })),
      events,
    };
  }

  it('insertNewEntries (new entries, with their completion known at once) and writeCompletions (pass 2) store every column, version, translation and event the core stores', async () => {
    const stamp = { workspaceId: actor.workspaceId, userId: actor.userId, now: NOW.toISOString() };
    const cases: { status: TargetStatus; form: Form; core: string; bulk: string; writer: string }[] = [];
    const fresh: NewEntry[] = [];
    const completions: Completion[] = [];
    for (const status of TARGETS) {
      for (const form of FORMS) {
        const core = await viaCore(`core-${status}-${cases.length}`, status, form);
        const { part, full } = valuesOf(`core-${status}-${cases.length}`, form);
        // The bulk entries hold the same values as their core counterpart (their own slugs aside).
        const id = randomUUID();
        fresh.push({
          id,
          ct,
          slug: `bulk-${cases.length}`,
          values: part,
          status: form === 'whole' ? status : 'draft',
          completion: form === 'whole' ? undefined : { values: full, status, changed: form === 'completed with a change' },
        });
        cases.push({ status, form, core, bulk: id, writer: 'insertNewEntries' });
        if (form === 'whole') continue;
        // Pass 1 left a draft without the link; pass 2 completes it in bulk.
        const pass1 = await createEntry(
          env.ctx,
          actor,
          'card',
          { slug: `pass-${cases.length}`, data: part.data, translations: { de: { data: part.translations[0].data } } },
          { action: 'import' },
        );
        const stored = await findEntry(env.ctx.db, ct.id, { id: pass1.id });
        completions.push({ stored: stored!, ct, values: full, status });
        cases.push({ status, form, core, bulk: pass1.id, writer: 'writeCompletions' });
      }
    }
    await withTransaction(env.ctx.db, async (db) => {
      await insertNewEntries(db, stamp, fresh);
      await writeCompletions(db, stamp, completions);
    });
    expect(CF_STATES).toEqual(['draft', 'published', 'changed', 'archived']);
    expect([...TARGETS].sort()).toEqual(['archived', 'draft', 'published']);
    for (const c of cases) {
      const [core, bulk] = [await stateOf(c.core), await stateOf(c.bulk)];
      const label = `${c.writer}: ${c.form}, ${c.status}`;
      expect(bulk.row, label).toEqual(core.row);
      expect(bulk.versions, label).toEqual(core.versions);
      expect(bulk.translations, label).toEqual(core.translations);
      expect(bulk.published, label).toEqual(core.published);
      expect(bulk.events, label).toEqual(core.events);
      // The case is what it claims: its status, its versions (a completion without a change has none of its own).
      expect(core.row.status, label).toBe(c.status);
      const versions = 1 + (c.form === 'completed with a change' ? 1 : 0) + (c.status === 'draft' ? 0 : 1);
      expect(core.versions, label).toHaveLength(versions);
    }
  });
});

describe.each(dialects())('a restore writes history through the publishing core on %s', (dialect) => {
  let env: TestEnv;

  beforeAll(async () => {
    env = await createTestEnv(dialect);
  });
  afterAll(async () => env?.close());

  it('refuses a version row that does not have the columns of a version, and writes nothing', async () => {
    const cases: [string, (rows: any[]) => any[], RegExp][] = [
      ['entry_versions', (rows) => rows.map((r) => ({ ...r, note: 1 })), /entry_versions\.ndjson line 1: 'note' is not a column of a version/],
      ['entry_versions', (rows) => rows.map((r) => ({ ...r, snapshot: null })), /entry_versions\.ndjson line 1: snapshot is missing/],
      ['entry_versions', (rows) => [{ ...rows[0], action: 5 }, ...rows.slice(1)], /entry_versions\.ndjson line 1: action 5 is not a string/],
      [
        'page_versions',
        (rows) => [rows[0], { ...rows[1], created_at: null }, ...rows.slice(2)],
        /page_versions\.ndjson line 2: created_at null is not a string/,
      ],
    ];
    let n = 0;
    for (const [table, mutate, message] of cases) {
      n += 1;
      const dir = path.join(tmp, `${dialect}-${n}`);
      await freshCopy(base, dir);
      await writeTable(dir, table, mutate(readTable(dir, table)));
      const slug = `history-${n}`;
      expectRefused(await restore(env, dir, slug), message);
      expect(await findWorkspaceBySlug(env.ctx.db, slug)).toBeNull();
    }
  });
});
