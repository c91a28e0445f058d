/**
 * Every delivery list shape is index-backed (issue 13, docs/scaling.md "Indexes"): for each sort
 * (system columns and sortable data fields, both directions), on page 1, an offset page and
 * cursors (a value, a missing value, a position resumed by row), for production keys (published
 * versions) and preview keys (working copies), with and without a locale, and for each filter
 * operator, the queries the delivery layer runs are explained on the database itself:
 * - SQLite (EXPLAIN QUERY PLAN): the expected index is searched, entries are never scanned
 *   whole, and no temporary B-tree sorts the rows;
 * - PostgreSQL (EXPLAIN with sequential scans and sorts priced out, as the planner prices them
 *   at a million rows): the expected index is used and no Sort node remains, i.e. an index path
 *   yielding the order exists.
 */
import { CompiledQuery, sql, type KyselyPlugin, type PluginTransformQueryArgs, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/types.js';
import type { CursorPosition } from '../src/modules/delivery/cursor.js';
import { parseFilters } from '../src/modules/delivery/filters.js';
import {
  listEntryRows,
  countEntryRows,
  findEntryRowsByIds,
  findEntryRowsBySlug,
  findRelatedRows,
  type EntryListQuery,
} from '../src/modules/delivery/query/repository.js';
import { loadDeliverySchema } from '../src/modules/delivery/schema-cache.js';
import { parseSort } from '../src/modules/delivery/sort.js';
import type { Visibility } from '../src/modules/delivery/model.js';
import { perspectiveOfVisibility } from '../src/modules/read/perspective.js';
import { createTestEnv, dialects, type TestEnv } from './helpers.js';
import { createWorld, type DeliveryWorld } from './delivery-fixtures.js';

const TYPES = [
  {
    name: 'Post',
    slug: 'post',
    fields: [
      { name: 'title', field_type: 'text', localizable: true, sortable: true, filterable: true },
      { name: 'views', field_type: 'integer', sortable: true, filterable: true },
      { name: 'featured', field_type: 'boolean', filterable: true },
      { name: 'published_on', field_type: 'date', sortable: true, filterable: true },
      { name: 'starts', field_type: 'datetime', sortable: true, filterable: true },
    ],
  },
  { name: 'Doc', slug: 'doc', orderable: true, fields: [{ name: 'heading', field_type: 'text' }] },
];

/** Keeps every query a Db compiles, to explain them afterwards. */
class Captured implements KyselyPlugin {
  nodes: PluginTransformQueryArgs[] = [];
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (args.node.kind === 'SelectQueryNode' || args.node.kind === 'RawNode') this.nodes.push(args);
    return args.node;
  }
  async transformResult(args: { result: QueryResult<UnknownRow> }): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

describe.each(dialects())('delivery query plans on %s', (dialect) => {
  let env: TestEnv;
  let w: DeliveryWorld;
  const now = '2026-06-01T12:00:00.000Z';

  beforeAll(async () => {
    env = await createTestEnv(dialect, { clock: () => new Date(now) });
    w = await createWorld(env.ctx, env.app, TYPES);
    for (let i = 0; i < 40; i++) {
      const status = i % 10 === 3 ? 'draft' : i % 10 === 7 ? 'scheduled' : 'published';
      const data: Record<string, unknown> = { title: `Post ${i}`, featured: i % 2 === 0, published_on: `2026-01-${String(1 + (i % 28)).padStart(2, '0')}` };
      if (i % 5 !== 0) data.views = i % 9;
      // Datetimes keep their offsets; the index orders them by instant.
      if (i % 4 !== 0) data.starts = `2026-02-${String(1 + (i % 20)).padStart(2, '0')}T10:00:00.000${['+02:00', 'Z', '-05:30'][i % 3]}`;
      const publish_at = status === 'scheduled' ? (i < 20 ? '2026-05-01T00:00:00.000Z' : '2026-07-01T00:00:00.000Z') : undefined;
      await w.insertEntry({ type: 'post', slug: `p${i}`, status, data, publish_at, translations: i % 2 ? { de: { title: `Beitrag ${i}` } } : {} });
      if (i < 10) await w.insertEntry({ type: 'doc', slug: `d${i}`, position: i, data: { heading: `Doc ${i}` } });
    }
    // Statistics, as autovacuum keeps them: the planner then knows how many entries a filter matches.
    if (dialect === 'postgres') await sql`analyze entries`.execute(env.ctx.db.kysely);
  });
  afterAll(async () => env?.close());

  /** Plans of every query `run` makes, with the SQL. */
  async function plans(run: (db: Db) => Promise<unknown>, pricing: Pricing = {}): Promise<{ sql: string; parameters: readonly unknown[]; plan: string }[]> {
    const log = new Captured();
    const db: Db = { ...env.ctx.db, kysely: env.ctx.db.kysely.withPlugin(log) };
    await run(db);
    const executor = env.ctx.db.kysely.getExecutor();
    const out: { sql: string; parameters: readonly unknown[]; plan: string }[] = [];
    for (const n of log.nodes) {
      const q = executor.compileQuery(n.node, n.queryId);
      if (!/"entries"/.test(q.sql)) continue;
      out.push({ sql: q.sql, parameters: q.parameters, plan: await explain(q.sql, q.parameters, pricing) });
    }
    return out;
  }

  /**
   * How PostgreSQL prices plans beyond sequential scans and sorts (priced out by default).
   * `joinsAtScale`: joins too, where hashing, merging or materializing the entries a join reads
   * would mean reading all of them: what remains is a nested loop looking each joined row up by
   * an index. `seqScans`: sequential scans priced as usual (sorts still out), so a scan that can
   * stop early is a candidate, as a LIMIT makes it at scale.
   */
  interface Pricing {
    joinsAtScale?: boolean;
    seqScans?: boolean;
  }

  async function explain(text: string, parameters: readonly unknown[], pricing: Pricing = {}): Promise<string> {
    if (dialect === 'sqlite') {
      const r = await env.ctx.db.kysely.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${text}`, [...parameters]));
      return r.rows.map((x) => x.detail).join('\n');
    }
    return env.ctx.db.kysely.transaction().execute(async (trx) => {
      // Priced as at scale: a sequential scan or a sort of every row is what the index must avoid.
      if (!pricing.seqScans) await trx.executeQuery(CompiledQuery.raw('SET LOCAL enable_seqscan = off'));
      await trx.executeQuery(CompiledQuery.raw('SET LOCAL enable_sort = off'));
      await trx.executeQuery(CompiledQuery.raw('SET LOCAL enable_bitmapscan = off'));
      if (pricing.joinsAtScale)
        for (const kind of ['hashjoin', 'mergejoin', 'material']) await trx.executeQuery(CompiledQuery.raw(`SET LOCAL enable_${kind} = off`));
      const r = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`EXPLAIN ${text}`, [...parameters]));
      return r.rows.map((x) => x['QUERY PLAN']).join('\n');
    });
  }

  /** No full scan of entries, no sort of rows; `index` (when given) is the one used. */
  function expectIndexed(p: { sql: string; plan: string }, index?: RegExp, sqliteMaySort = false): void {
    const where = `${p.sql}\n${p.plan}`;
    if (dialect === 'sqlite') {
      if (!sqliteMaySort) expect(p.plan, where).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/);
      expect(p.plan, where).not.toMatch(/SCAN (entries|t)\b(?! USING)/);
      expect(p.plan, where).not.toMatch(/SCAN entries USING/);
    } else {
      expect(p.plan, where).not.toMatch(/Sort/);
      expect(p.plan, where).not.toMatch(/Seq Scan on entries/);
    }
    if (index) expect(p.plan, where).toMatch(index);
  }

  async function query(
    visibility: Visibility,
    sortText: string,
    locale: string | null,
    filters: Record<string, string> = {},
    type = 'post',
  ): Promise<EntryListQuery> {
    const schema = await loadDeliverySchema(env.ctx, w.workspaceId);
    const t = schema.bySlug.get(type)!;
    return {
      contentTypeId: t.id,
      perspective: perspectiveOfVisibility(visibility),
      now,
      locale,
      filters: parseFilters(t, filters),
      sort: parseSort(t, sortText),
    };
  }

  const SLUG = dialect === 'sqlite' ? /sqlite_autoindex_entries_\d|entries_content_type_slug/ : /entries_content_type_slug/;
  /** The index each sort must use, by visibility. */
  const SORTS: [string, string, Record<Visibility, RegExp>][] = [
    ['post', 'created_at', { production: /entries_type_created/, preview: /entries_type_created/ }],
    ['post', 'updated_at', { production: /entries_type_pub_updated/, preview: /entries_type_updated/ }],
    ['post', 'published_at', { production: /entries_type_pub_published/, preview: /entries_type_published/ }],
    ['post', 'slug', { production: SLUG, preview: SLUG }],
    ['doc', 'position', { production: /entries_type_position/, preview: /entries_type_position/ }],
    ['post', 'views', { production: /entries_pub_num_views/, preview: /entries_data_num_views/ }],
    ['post', 'title', { production: /entries_pub_text_title/, preview: /entries_data_text_title/ }],
    ['post', 'published_on', { production: /entries_pub_text_published_on/, preview: /entries_data_text_published_on/ }],
    ['post', 'starts', { production: /entries_pub_time_starts/, preview: /entries_data_time_starts/ }],
  ];

  const shapes: [Visibility, string, string, string, 'asc' | 'desc', string | null][] = [];
  for (const visibility of ['production', 'preview'] as const)
    for (const [type, key, index] of SORTS)
      for (const dir of ['asc', 'desc'] as const)
        for (const locale of [null, 'de'])
          // Preview keys order published_at by a time-dependent expression (see docs/scaling.md).
          if (!(visibility === 'preview' && key === 'published_at')) shapes.push([visibility, type, key, index[visibility].source, dir, locale]);

  it.each(shapes)(
    '%s %s sort=%s:%s locale=%s: page 1, offset page, cursors by value, by missing value and by row',
    async (visibility, type, key, index, dir, locale) => {
      const q = await query(visibility, `${key}:${dir}`, locale, {}, type);
      const first = await listEntryRows(env.ctx.db, q, { limit: 5 });
      const mid = first[2];
      const after: CursorPosition[] = [
        { value: mid.sort_value ?? null, id: mid.id },
        { value: mid.sort_value ?? null, id: mid.id, byRow: true },
      ];
      if (q.sort.nullable) after.push({ value: null, id: mid.id });
      const found = await plans(async (db) => {
        await listEntryRows(db, q, { limit: 5, withTotal: true });
        await listEntryRows(db, q, { limit: 5, offset: 20, withTotal: true });
        for (const a of after) await listEntryRows(db, q, { limit: 500, after: a });
      });
      expect(found.length).toBeGreaterThanOrEqual(2 + after.length);
      for (const p of found) expectIndexed(p, new RegExp(index));
    },
  );

  /** The plan lines under line `at` (its children, to any depth), by indentation. */
  function subtree(lines: string[], at: number): string[] {
    const depth = (l: string) => l.length - l.trimStart().length;
    const out: string[] = [];
    for (let k = at + 1; k < lines.length && depth(lines[k]) > depth(lines[at]); k++) out.push(lines[k]);
    return out;
  }

  /**
   * Sorts whose index holds every column an offset page's skip reads on PostgreSQL, so the skip
   * is an index-only scan: the column sorts, and the production publication times, whose
   * expressions read columns their indexes include (migration 020). PostgreSQL never takes a
   * value from an index expression, so an index on a data field (a JSON expression) is never
   * read index-only. On SQLite every sort index but the slug's covers the skip.
   */
  const INDEX_ONLY = new Set([
    'production created_at',
    'preview created_at',
    'production updated_at',
    'preview updated_at',
    'production published_at',
    'production position',
    'preview position',
  ]);

  // Offset pages are deferred joins (repository deferredPageQuery): the part of the plan that
  // skips the offset reads the sort index alone, and only the page's rows are then read, by
  // primary key, with their translations.
  it.each(shapes)(
    '%s %s sort=%s:%s locale=%s: an offset page skips inside the sort index and reads only its own rows',
    async (visibility, type, key, index, dir, locale) => {
      const q = await query(visibility, `${key}:${dir}`, locale, {}, type);
      const found = await plans((db) => listEntryRows(db, q, { limit: 5, offset: 20, withTotal: true }), { joinsAtScale: true });
      const page = found.find((p) => / as "page" /.test(p.sql));
      expect(page, found.map((p) => p.sql).join('\n')).toBeDefined();
      const where = `${page!.sql}\n${page!.plan}`;
      expectIndexed(page!, new RegExp(index));
      const lines = page!.plan.split('\n');
      let skipped: string;
      let outside: string;
      if (dialect === 'sqlite') {
        // The subquery runs first (a co-routine), then each of its rows is looked up.
        const start = lines.findIndex((l) => /^(CO-ROUTINE|MATERIALIZE) page$/.test(l));
        const scan = lines.indexOf('SCAN page');
        expect(start, where).toBeGreaterThanOrEqual(0);
        expect(scan, where).toBeGreaterThan(start);
        skipped = lines.slice(start + 1, scan).join('\n');
        outside = lines.slice(scan).join('\n');
        expect(skipped, where).toMatch(new RegExp(`^SEARCH entries USING ${key === 'slug' ? '' : 'COVERING '}INDEX (${index})`));
        expect(outside, where).toMatch(/SEARCH entries USING (INDEX sqlite_autoindex_entries_\d|PRIMARY KEY) \(id=\?\)/);
      } else {
        const skip = lines.findIndex((l, k) => /->\s+Limit/.test(l) && subtree(lines, k).some((c) => new RegExp(index).test(c)));
        expect(skip, where).toBeGreaterThanOrEqual(0);
        skipped = subtree(lines, skip).join('\n');
        outside = lines.filter((_, k) => k <= skip || k > skip + subtree(lines, skip).length).join('\n');
        if (INDEX_ONLY.has(`${visibility} ${key}`)) expect(skipped, where).toMatch(new RegExp(`Index Only Scan (Backward )?using (${index})`));
        expect(outside, where).toMatch(/Index Scan using entries_pkey on entries\s.*\n\s+Index Cond: \(id = /);
      }
      expect(skipped, where).not.toMatch(/entries_pkey|sqlite_autoindex_entries_1|entry_translations|\bt\b/);
      if (locale) expect(outside, where).toMatch(/entry_translations/);
    },
  );

  const FILTERS: Record<string, string>[] = [
    { 'filter[views][eq]': '4' },
    { 'filter[views][ne]': '4' },
    { 'filter[views][lt]': '4' },
    { 'filter[views][lte]': '4' },
    { 'filter[views][gt]': '4' },
    { 'filter[views][gte]': '4' },
    { 'filter[views][in]': '1,4' },
    { 'filter[views][exists]': 'true' },
    { 'filter[views][exists]': 'false' },
    { 'filter[title][contains]': 'post 1' },
    { 'filter[featured][eq]': 'true' },
    { 'filter[published_on][gte]': '2026-01-10' },
    { 'filter[starts][gte]': '2026-02-10T10:00:00+02:00' },
    { 'filter[starts][eq]': '2026-02-05T08:00:00Z' },
    { 'filter[starts][in]': '2026-02-05T10:00:00+02:00,2026-02-06T10:00:00Z' },
  ];
  const filterShapes: [Visibility, string, string][] = [];
  for (const visibility of ['production', 'preview'] as const)
    for (const f of FILTERS)
      for (const sort of ['created_at:desc', `${Object.keys(f)[0].slice(7).split(']')[0]}:asc`]) filterShapes.push([visibility, JSON.stringify(f), sort]);

  it.each(filterShapes)('%s filter %s sort=%s: page 1, an offset page, capped count and cursor', async (visibility, filterJson, sortText) => {
    const filters = JSON.parse(filterJson) as Record<string, string>;
    const sortable = !/featured/.test(sortText);
    const q = await query(visibility, sortable ? sortText : 'created_at:desc', 'de', filters);
    const found = await plans(async (db) => {
      const rows = await listEntryRows(db, q, { limit: 3, withTotal: true });
      await listEntryRows(db, q, { limit: 3, offset: 3, withTotal: true });
      await countEntryRows(db, q, { limit: 3, offset: 300 });
      if (rows.length) await listEntryRows(db, q, { limit: 3, after: { value: rows[0].sort_value ?? null, id: rows[0].id } });
    });
    // SQLite has no statistics: a filter on one field sorted by another walks the filter's index
    // range and sorts what matches (docs/scaling.md); sorted by the filtered field, it never sorts.
    const filtered = Object.keys(filters)[0].slice(7).split(']')[0];
    for (const p of found) expectIndexed(p, undefined, !sortText.startsWith(`${filtered}:`));
  });

  // A capped count on PostgreSQL reads a range filter's matches in its index's order
  // (repository countOrder): a sequential scan could then serve it only by sorting every match,
  // so even with sequential scans priced as usual, the count walks the index (a sequential scan
  // that stops early rereads its pages from the operating system on every count at scale).
  const rangeShapes = filterShapes.filter(([, f, sort]) => sort === 'created_at:desc' && !/\]\[(in|ne|contains)\]/.test(f));
  it.skipIf(dialect !== 'postgres').each(rangeShapes)(
    '%s filter %s: the capped count walks the filter index, sequential scans allowed',
    async (visibility, filterJson) => {
      const filters = JSON.parse(filterJson) as Record<string, string>;
      const q = await query(visibility, 'created_at:desc', null, filters);
      const field = Object.keys(filters)[0].slice(7).split(']')[0];
      const [count] = await plans((db) => countEntryRows(db, q, { limit: 3, offset: 300 }), { seqScans: true });
      const where = `${count.sql}\n${count.plan}`;
      expect(count.plan, where).not.toMatch(/Seq Scan on entries|Sort/);
      expect(count.plan, where).toMatch(new RegExp(`Index (Only )?Scan using entries_(pub|data)_[a-z]+_${field}\\b`));
    },
  );

  it('reads entries by id (GraphQL rows, REST related rows) through the primary key, the ids as one parameter, and finds the same rows as with a plain IN list', async () => {
    const ids = (await env.ctx.db.kysely.selectFrom('entries').select('id').where('workspace_id', '=', w.workspaceId).orderBy('id').execute()).map((r) => r.id);
    const wanted = [...ids.slice(0, 12), 'f0000000-0000-4000-8000-000000000000'];
    for (const visibility of ['production', 'preview'] as const) {
      for (const locale of ['de', null]) {
        const q = { workspaceId: w.workspaceId, ids: wanted, perspective: perspectiveOfVisibility(visibility), now, locale };
        const found = await plans((db) => findEntryRowsByIds(db, q));
        expect(found).toHaveLength(1);
        // 13 ids, one parameter: the statement's text is the same for any number of them.
        expect(found[0].parameters.length).toBeLessThan(5);
        expectIndexed(found[0], dialect === 'sqlite' ? /USING (INDEX sqlite_autoindex_entries_1|PRIMARY KEY)/ : /entries_pkey/);
        // The template (compiled once, its values swapped in) against the builder's own IN list.
        const templated = await findEntryRowsByIds(env.ctx.db, q);
        const visible = ['published', ...(visibility === 'preview' ? ['draft', 'scheduled'] : [])];
        const plain = await env.ctx.db.kysely.selectFrom('entries').select(['id', 'status', 'publish_at']).where('id', 'in', wanted).execute();
        const expected = plain
          .filter((r) => visible.includes(r.status) || (r.status === 'scheduled' && r.publish_at !== null && r.publish_at <= now))
          .map((r) => r.id);
        expect(templated.map((r) => r.id).sort()).toEqual(expected.sort());
        expect(templated.length).toBeGreaterThan(5);
        // REST's related-entry read: the same lookup with fewer columns.
        const related = await plans((db) => findRelatedRows(db, { ...q, ids: [...wanted] }));
        expect(related).toHaveLength(1);
        expectIndexed(related[0], dialect === 'sqlite' ? /USING (INDEX sqlite_autoindex_entries_1|PRIMARY KEY)/ : /entries_pkey/);
        expect((await findRelatedRows(env.ctx.db, { ...q, ids: [...wanted] })).map((r) => r.id).sort()).toEqual(expected.sort());
      }
    }
    // Run often enough for PostgreSQL to plan the named statement generically (after 5 runs), with
    // lists of every length: each answer is still the plain IN list's.
    for (let n = 0; n <= ids.length; n += 3) {
      const some = ids.slice(0, n);
      const templated = await findEntryRowsByIds(env.ctx.db, { workspaceId: w.workspaceId, ids: some, perspective: 'working', now, locale: 'de' });
      const plain = await env.ctx.db.kysely
        .selectFrom('entries')
        .select('id')
        .where('id', 'in', some.length ? some : [''])
        .where('status', 'in', ['published', 'draft', 'scheduled'])
        .execute();
      expect(templated.map((r) => r.id).sort()).toEqual(plain.map((r) => r.id).sort());
    }
    if (dialect === 'postgres') expect([...env.ctx.db.memo.statementNames.values()].filter((name) => name.startsWith('quire_t')).length).toBeGreaterThan(0);
  });

  it('reads an entry by slug through an index', async () => {
    for (const visibility of ['production', 'preview'] as const) {
      const found = await plans((db) =>
        findEntryRowsBySlug(db, {
          workspaceId: w.workspaceId,
          slug: 'p1',
          contentTypeId: null,
          perspective: perspectiveOfVisibility(visibility),
          now,
          locale: 'de',
        }),
      );
      // At most one row per content type shares a slug: sorting those few is fine.
      for (const p of found) {
        expect(p.plan).toMatch(/entries_workspace_slug|entries_content_type_slug/);
        expect(p.plan).not.toMatch(dialect === 'sqlite' ? /SCAN entries/ : /Seq Scan on entries/);
      }
    }
  });
});
