import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { Actor } from '../auth/permissions.js';
import {
  perspectiveBinding,
  perspectiveOf,
  perspectiveOfVisibility,
  releaseOf,
  releasePerspective,
  visibilityOf,
  visibilityOfPerspective,
  type Perspective,
} from './perspective.js';
import { actorRevision, contentColumns, effectiveStatusSql, readSource, revisionFor, visibleCondition } from './resolver.js';

/** A throwaway SQLite database with the publication and content columns of both item tables. */
const raw = new Database(':memory:');
for (const table of ['entries', 'pages']) {
  raw.exec(`CREATE TABLE ${table} (id TEXT PRIMARY KEY, status TEXT NOT NULL, publish_at TEXT, published_at TEXT, updated_at TEXT NOT NULL,
    updated_by INTEGER, published_by INTEGER, data TEXT, published_data TEXT, seo TEXT, published_seo TEXT)`);
}
const db = new Kysely<any>({ dialect: new SqliteDialect({ database: raw }) });
afterAll(() => db.destroy());

const NOW = '2026-06-01T12:00:00.000Z';
const ROWS = [
  { id: 'draft', status: 'draft', publish_at: null, published_at: null },
  { id: 'published', status: 'published', publish_at: null, published_at: '2026-05-01T00:00:00.000Z' },
  { id: 'due', status: 'scheduled', publish_at: '2026-06-01T11:59:59.000Z', published_at: null },
  { id: 'due-now', status: 'scheduled', publish_at: NOW, published_at: null },
  { id: 'later', status: 'scheduled', publish_at: '2026-06-01T12:00:01.000Z', published_at: null },
  { id: 'archived', status: 'archived', publish_at: null, published_at: '2026-04-01T00:00:00.000Z' },
];
for (const table of ['entries', 'pages']) {
  for (const r of ROWS) {
    raw
      .prepare(`INSERT INTO ${table} VALUES (?, ?, ?, ?, '2026-05-20T00:00:00.000Z', 7, 3, '{"w":1}', '{"p":1}', '{"w":1}', '{"p":1}')`)
      .run(r.id, r.status, r.publish_at, r.published_at);
  }
}

const actor = (keyClass: Actor['keyClass'], environment: Actor['environment']) => ({ keyClass, environment });

describe('perspective of an actor', () => {
  it('a production delivery key reads the published perspective, a preview key the working one', () => {
    expect(perspectiveOf(actor('delivery', 'production'))).toBe('published');
    expect(perspectiveOf(actor('delivery', 'preview'))).toBe('working');
  });

  it('every management actor (key or session, no environment) reads working copies', () => {
    expect(perspectiveOf(actor('management', null))).toBe('working');
  });

  it('a delivery key of no environment is a production key', () => {
    expect(visibilityOf({ environment: null })).toBe('production');
    expect(perspectiveOf(actor('delivery', null))).toBe('published');
  });

  it('visibility (the wire word) and perspective translate both ways', () => {
    for (const v of ['production', 'preview'] as const) expect(visibilityOfPerspective(perspectiveOfVisibility(v))).toBe(v);
    expect(perspectiveOfVisibility('production')).toBe('published');
    expect(perspectiveOfVisibility('preview')).toBe('working');
  });
});

describe('the release perspective', () => {
  const id = '0a1b2c3d-0000-4000-8000-000000000001';

  it('is the perspective of an actor checked for ?release, whatever its key', () => {
    expect(perspectiveOf({ ...actor('delivery', 'preview'), release: id })).toBe(`release:${id}`);
    expect(perspectiveOf({ ...actor('management', null), release: id })).toBe(releasePerspective(id));
    expect(releaseOf(releasePerspective(id))).toBe(id);
    expect(releaseOf('published')).toBeNull();
    expect(releaseOf('working')).toBeNull();
  });

  it('reads as a preview key on the wire, binds cursors and tokens to the release, and is fresh against draft_revision', () => {
    expect(visibilityOfPerspective(releasePerspective(id))).toBe('preview');
    expect(perspectiveBinding(releasePerspective(id))).toBe(`release:${id}`);
    expect(perspectiveBinding('published')).toBe('production');
    expect(perspectiveBinding('working')).toBe('preview');
    expect(revisionFor(releasePerspective(id), { revision: 3, draft: 8 })).toBe(8);
    expect(actorRevision({ ...actor('delivery', 'preview'), release: id }, { revision: 3, draft: 8 })).toBe(8);
  });

  it('follows the published rules over its own tables', () => {
    const p = releasePerspective(id);
    expect(readSource(p)).toMatchObject({ entries: 'release_entries', pages: 'release_pages', entryData: 'published_data', pageSeo: 'published_seo' });
    const compile = (e: { toOperationNode(): unknown }) =>
      db
        .selectFrom('entries')
        .select('id')
        .where(e as never)
        .compile().sql;
    expect(compile(visibleCondition(p, NOW, 'entries', 'postgres'))).toBe(compile(visibleCondition('published', NOW, 'entries', 'postgres')));
    expect(compile(visibleCondition(p, NOW))).toBe(compile(visibleCondition('published', NOW)));
  });
});

describe('visibleCondition', () => {
  const visible = async (perspective: Perspective, table: 'entries' | 'pages', dialect: 'sqlite' | 'postgres') => {
    const rows = await db
      .selectFrom(table)
      .select('id')
      .where(visibleCondition(perspective, NOW, table, dialect))
      .orderBy('id')
      .execute();
    return rows.map((r) => r.id as string);
  };

  // Both forms of the condition (the CASE for SQLite's planner, the plain terms for PostgreSQL's)
  // select the same rows; SQLite runs either.
  for (const dialect of ['sqlite', 'postgres'] as const) {
    for (const table of ['entries', 'pages'] as const) {
      it(`published: published and due scheduled items, due at the very instant too (${table}, ${dialect} form)`, async () => {
        expect(await visible('published', table, dialect)).toEqual(['due', 'due-now', 'published']);
      });

      it(`working: drafts, scheduled and published items, never archived (${table}, ${dialect} form)`, async () => {
        expect(await visible('working', table, dialect)).toEqual(['draft', 'due', 'due-now', 'later', 'published']);
      });
    }
  }

  it('the SQLite form is a CASE, the PostgreSQL form the plain terms', () => {
    const compile = (dialect: 'sqlite' | 'postgres') =>
      db
        .selectFrom('entries')
        .select('id')
        .where(visibleCondition('published', NOW, 'entries', dialect))
        .compile().sql;
    expect(compile('sqlite')).toContain('case when');
    expect(compile('postgres')).not.toContain('case when');
  });
});

describe('effectiveStatusSql', () => {
  it('a due scheduled item counts as published; a later one stays scheduled', async () => {
    const rows = await db
      .selectFrom('entries')
      .select(['id', effectiveStatusSql(NOW, 'entries').as('effective')])
      .orderBy('id')
      .execute();
    expect(Object.fromEntries(rows.map((r) => [r.id, r.effective]))).toEqual({
      archived: 'archived',
      draft: 'draft',
      due: 'published',
      'due-now': 'published',
      later: 'scheduled',
      published: 'published',
    });
  });
});

describe('readSource and contentColumns', () => {
  it('the published perspective reads the published copies, the working one the working copies', () => {
    expect(readSource('published')).toMatchObject({
      entryData: 'published_data',
      entryTranslations: 'published_entry_translations',
      pageSeo: 'published_seo',
      seoTranslations: 'published_page_seo_translations',
      blocks: 'published_blocks',
      blockTranslations: 'published_block_translations',
    });
    expect(readSource('working')).toMatchObject({
      entryData: 'data',
      entryTranslations: 'entry_translations',
      pageSeo: 'seo',
      seoTranslations: 'page_seo_translations',
      blocks: 'blocks',
      blockTranslations: 'block_translations',
    });
  });

  it('published readers see the publication time and author; working readers the last save', async () => {
    const read = (perspective: Perspective, table: 'entries' | 'pages') =>
      db
        .selectFrom(table)
        .select(contentColumns(perspective, table as 'entries'))
        .where(sql.ref(`${table}.id`), 'in', ['published', 'due'])
        .orderBy(sql.ref(`${table}.id`))
        .execute();
    expect(await read('published', 'entries')).toEqual([
      { data: '{"p":1}', updated_at: '2026-06-01T11:59:59.000Z', updated_by: 3 },
      { data: '{"p":1}', updated_at: '2026-05-01T00:00:00.000Z', updated_by: 3 },
    ]);
    expect(await read('working', 'entries')).toEqual([
      { data: '{"w":1}', updated_at: '2026-05-20T00:00:00.000Z', updated_by: 7 },
      { data: '{"w":1}', updated_at: '2026-05-20T00:00:00.000Z', updated_by: 7 },
    ]);
    const pages = await db.selectFrom('pages').select(contentColumns('published', 'pages')).where('pages.id', '=', 'published').execute();
    expect(pages).toEqual([{ seo: '{"p":1}', updated_at: '2026-05-01T00:00:00.000Z', updated_by: 3 }]);
  });
});

describe('freshness', () => {
  const revisions = { revision: 4, draft: 9 };

  it('published answers depend on revision, working answers on draft_revision', () => {
    expect(revisionFor('published', revisions)).toBe(4);
    expect(revisionFor('working', revisions)).toBe(9);
  });

  it('a preview key is checked against draft_revision, a production key and any management actor against revision', () => {
    expect(actorRevision(actor('delivery', 'preview'), revisions)).toBe(9);
    expect(actorRevision(actor('delivery', 'production'), revisions)).toBe(4);
    expect(actorRevision(actor('management', null), revisions)).toBe(4);
  });
});
