#!/usr/bin/env node
/**
 * `npm run bench:scale [-- --entries N] [-- --postgres URL]`: delivery latency with many entries
 * of one type (issue 13 item 4; figures in docs/scaling.md). Not part of the test suite.
 *
 * 1. Starts Quire (compiled, `dist/`) on a fresh SQLite file in a temp DATA_DIR, or with
 *    `--postgres postgres://…` (or BENCH_DATABASE_URL) on a fresh database it creates there and
 *    drops afterwards (`--keep` keeps it).
 * 2. Over the management API: a `post` type (sortable/filterable fields), 10 template posts
 *    created with a de translation and published, and 50 pages of 50 blocks in three levels.
 * 3. Stops the server and writes N posts (default 1,000,000) in bulk, cloned from the template
 *    rows the API wrote: entries (working and published copy), both translation tables, the
 *    versions (action `import`, as the importer writes them) and the change events, each clone
 *    with its own id, slug, values and times. Row triggers (revisions, entry counters) run as
 *    for any write. PostgreSQL then gets `VACUUM ANALYZE` (what autovacuum does after a load).
 * 4. Restarts the server and measures uncached answers (every URL distinct: `fields` in
 *    another order, pages another slug), one request at a time, p50/p99 in ms, for: page 1,
 *    page 1,000, a cursor at depth 10,000, page 1 of every sort in both directions, filters
 *    with and without a sort, an entry by slug and a 50-block page; then cached req/s
 *    (autocannon, 20 connections, 10 s) on page 1 and the server's peak RSS.
 *
 * Options: --entries N, --samples N (per scenario, default 200), --postgres URL, --keep, --json,
 * --reuse URL|DIR.
 *
 * `--reuse postgres://…/quire_scale_…` (`npm run bench:scale -- --reuse URL`) measures (step 4)
 * against a database that a `--keep` run seeded, without seeding again (a million entries take
 * 13–18 min to write on PostgreSQL): it makes a production delivery key for the bench's `scale`
 * workspace, counts its `post-<i>` entries (`--entries` is ignored), starts the server on that
 * database (which runs any new migration first) and leaves the database in place afterwards.
 * The figures assume entries as the seed left them, vacuumed and analyzed (after writing to the
 * database, run `VACUUM ANALYZE` there first). `--reuse DIR` does the same on SQLite with the
 * DATA_DIR a `--keep` run printed (a million entries take 5–6 min to write there), so runs with
 * other server settings (SQLITE_CACHE_BYTES, say, from the environment) read the same file.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { api, peakRssMiB, waitReady } from './helpers.js';
import { serverFlags } from './server-flags.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
let ENTRIES = Number(opt('entries', 1_000_000));
const SAMPLES = Number(opt('samples', 200));
const REUSE = opt('reuse', null);
// --reuse takes a PostgreSQL URL or the DATA_DIR of a SQLite run seeded with --keep.
const REUSE_URL = REUSE && /^postgres(ql)?:\/\//.test(REUSE) ? REUSE : null;
const REUSE_DIR = REUSE && !REUSE_URL ? path.resolve(REUSE) : null;
const PG_URL = REUSE_URL ?? opt('postgres', process.env.BENCH_DATABASE_URL);
const KEEP = args.includes('--keep');
const TEMPLATES = 10;
const FIELDS = ['title', 'views', 'category', 'featured', 'published_on'];

/** Peak RSS in whole MiB, null when unknown. */
const roundedRss = (pid) => {
  const v = peakRssMiB(pid);
  return v === null ? null : Math.round(v);
};

const log = (...a) => console.error(`[bench:scale ${new Date().toISOString().slice(11, 19)}]`, ...a);

function startServer(env) {
  const child = spawn(process.execPath, [...serverFlags(root), path.join(root, 'dist/src/server.js')], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr.on('data', (d) => process.stderr.write(d));
  return child;
}

async function stopServer(child) {
  const done = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await done;
}

const M = '/api/v1/manage';

/** The post type, the template posts and the 50-block pages, through the API. */
async function seedTemplates(base, keys) {
  await api(base, keys.management, 'POST', `${M}/content-types`, {
    name: 'Post',
    slug: 'post',
    display_field: 'title',
    fields: [
      { name: 'title', field_type: 'text', required: true, localizable: true, sortable: true, filterable: true },
      { name: 'summary', field_type: 'textarea', localizable: true },
      { name: 'views', field_type: 'integer', sortable: true, filterable: true },
      { name: 'category', field_type: 'select', options: '["news","guides","releases"]', filterable: true },
      { name: 'featured', field_type: 'boolean', filterable: true },
      { name: 'published_on', field_type: 'date', sortable: true, filterable: true },
    ],
  });
  for (let i = 0; i < TEMPLATES; i++) {
    const r = await api(base, keys.management, 'POST', `${M}/content-types/post/entries`, {
      slug: `template-${i}`,
      data: { title: `Template ${i}`, summary: `Summary ${i}`, views: i, category: 'news', featured: false, published_on: '2026-01-01' },
      translations: { de: { data: { title: `Vorlage ${i}`, summary: `Zusammenfassung ${i}` } } },
    });
    await api(base, keys.management, 'PATCH', `${M}/content-types/post/entries/${r.data.slug}/publish`);
  }
  const hero = { name: 'Hero', slug: 'hero', is_block: true, fields: [{ name: 'headline', field_type: 'text', localizable: true }] };
  const grid = { name: 'Grid', slug: 'grid', is_block: true, fields: [{ name: 'title', field_type: 'text', localizable: true }] };
  for (const t of [hero, grid]) await api(base, keys.management, 'POST', `${M}/content-types`, t);
  // 50 blocks: 5 grids of 4 grids of 1 hero (45) + 5 heroes at the root.
  const blocks = [
    ...Array.from({ length: 5 }, (_, g) => ({
      type: 'grid',
      data: { title: `Section ${g}` },
      translations: { de: { data: { title: `Abschnitt ${g}` } } },
      children: Array.from({ length: 4 }, (_, i) => ({
        type: 'grid',
        data: { title: `Item ${g}.${i}` },
        children: [{ type: 'hero', data: { headline: `Detail ${g}.${i}` }, translations: { de: { data: { headline: `Einzelheit ${g}.${i}` } } } }],
      })),
    })),
    ...Array.from({ length: 5 }, (_, i) => ({ type: 'hero', data: { headline: `Hero ${i}` } })),
  ];
  for (let p = 0; p < 50; p++) {
    await api(base, keys.management, 'POST', `${M}/pages`, { slug: `bench-${p}`, seo: { title: `Page ${p}` }, blocks });
    await api(base, keys.management, 'PATCH', `${M}/pages/bench-${p}/publish`);
  }
}

/** A database connection of either kind with the few operations the bulk writer needs. */
async function connect(config) {
  if (!config.databaseUrl) {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(path.join(config.dataDir, 'quire.db'));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    return {
      kind: 'sqlite',
      all: async (q, p = []) => db.prepare(q).all(...p),
      /** Inserts `rows` (objects with the same keys) into `table`; returns the inserted rowids. */
      insert: async (table, rows) => {
        const cols = Object.keys(rows[0]);
        const st = db.prepare(`INSERT INTO "${table}" (${cols.map((c) => `"${c}"`).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`);
        return rows.map((r) => Number(st.run(...cols.map((c) => r[c])).lastInsertRowid));
      },
      tx: async (fn) => {
        db.exec('BEGIN');
        try {
          await fn();
          db.exec('COMMIT');
        } catch (e) {
          db.exec('ROLLBACK');
          throw e;
        }
      },
      finish: async () => db.close(),
    };
  }
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: config.databaseUrl });
  await client.connect();
  return {
    kind: 'postgres',
    all: async (q, p = []) =>
      (
        await client.query(
          q.replace(
            /\?/g,
            (() => {
              let n = 0;
              return () => `$${++n}`;
            })(),
          ),
          p,
        )
      ).rows,
    insert: async (table, rows, returning = null) => {
      const cols = Object.keys(rows[0]);
      const out = [];
      // At most 65,535 parameters per statement.
      const per = Math.floor(60000 / cols.length);
      for (let i = 0; i < rows.length; i += per) {
        const chunk = rows.slice(i, i + per);
        const params = [];
        const values = chunk.map((r) => `(${cols.map((c) => (params.push(r[c]), `$${params.length}`)).join(', ')})`);
        const res = await client.query(
          `INSERT INTO "${table}" (${cols.map((c) => `"${c}"`).join(', ')}) VALUES ${values.join(', ')}${returning ? ` RETURNING "${returning}"` : ''}`,
          params,
        );
        if (returning) out.push(...res.rows.map((x) => Number(x[returning])));
      }
      return out;
    },
    tx: async (fn) => {
      await client.query('BEGIN');
      try {
        await fn();
        await client.query('COMMIT');
      } catch (e) {
        await client.query('ROLLBACK');
        throw e;
      }
    },
    finish: async () => {
      await client.query('VACUUM ANALYZE');
      await client.end();
    },
  };
}

const json = (v) => (typeof v === 'string' ? v : JSON.stringify(v));
const parse = (v) => (typeof v === 'string' ? JSON.parse(v) : v);

/** Writes ENTRIES posts cloned from the templates' rows, in transactions of `batch` posts. */
async function bulkWrite(config, newId) {
  const db = await connect(config);
  const templates = await db.all(`SELECT * FROM entries WHERE slug LIKE 'template-%' ORDER BY slug`);
  const byEntry = async (table, col) => {
    const rows = await db.all(
      `SELECT * FROM "${table}" WHERE "${col}" IN (${templates.map(() => '?').join(', ')})`,
      templates.map((t) => t.id),
    );
    return (id) => rows.filter((r) => r[col] === id);
  };
  const trOf = await byEntry('entry_translations', 'entry_id');
  const versionsOf = await byEntry('entry_versions', 'entry_id');
  const eventsOf = await byEntry('events', 'item_id');
  const t0 = Date.now();
  const start = Date.parse('2020-01-01T00:00:00.000Z');
  const batch = 2000;
  for (let from = 0; from < ENTRIES; from += batch) {
    await db.tx(async () => {
      const entries = [];
      const translations = [];
      const versions = [];
      const events = [];
      const pubTr = [];
      for (let i = from; i < Math.min(ENTRIES, from + batch); i++) {
        const t = templates[i % templates.length];
        const id = newId();
        const slug = `post-${i}`;
        const at = new Date(start + i * 60_000).toISOString();
        const data = {
          ...parse(t.data),
          title: `Post number ${i}`,
          summary: `Summary of post ${i}`,
          views: (i * 7919) % 100_000,
          category: ['news', 'guides', 'releases'][i % 3],
          featured: i % 7 === 0,
          published_on: new Date(start + (i % 2000) * 86_400_000).toISOString().slice(0, 10),
        };
        entries.push({ ...t, id, slug, data: json(data), published_data: json(data), created_at: at, updated_at: at, published_at: at });
        const deData = { title: `Beitrag Nummer ${i}`, summary: `Zusammenfassung ${i}` };
        for (const tr of trOf(t.id)) {
          const { id: _id, ...rest } = tr;
          translations.push({ ...rest, entry_id: id, data: json(deData), created_at: at, updated_at: at });
          // Publishing copies the working translations (same ids) into the published table.
          pubTr.push({ entry_id: id, locale: tr.locale, data: json(deData) });
        }
        for (const v of versionsOf(t.id)) {
          const snap = parse(v.snapshot);
          snap.data = data;
          for (const s of snap.translations ?? []) Object.assign(s, { entry_id: id, data: deData });
          versions.push({ ...v, entry_id: id, action: 'import', snapshot: json(snap), created_at: at });
        }
        for (const e of eventsOf(t.id)) {
          const { id: _id, ...rest } = e;
          events.push({ ...rest, item_id: id, slug, created_at: at });
        }
      }
      await db.insert('entries', entries);
      const trIds = await db.insert('entry_translations', translations, 'id');
      await db.insert(
        'published_entry_translations',
        pubTr.map((p, k) => ({ ...p, id: trIds[k] })),
      );
      await db.insert('entry_versions', versions);
      if (events.length) await db.insert('events', events);
    });
    if ((from / batch) % 25 === 0) log(`${from + batch} entries written (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  }
  log(`bulk write done; finishing (${db.kind === 'postgres' ? 'VACUUM ANALYZE' : 'close'})`);
  await db.finish();
  return (Date.now() - t0) / 1000;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Every ordering of FIELDS joined: distinct URLs asking for the same work. */
function fieldOrders() {
  const out = [];
  const perm = (rest, acc) =>
    rest.length === 0 ? out.push(acc.join(',')) : rest.forEach((f, i) => perm([...rest.slice(0, i), ...rest.slice(i + 1)], [...acc, f]));
  perm(FIELDS, []);
  return out;
}

/** One request at a time over `urls`; latencies in ms. */
async function timeUrls(base, key, urls) {
  const ms = [];
  for (const url of urls) {
    const t = process.hrtime.bigint();
    const res = await fetch(base + url, { headers: { 'x-api-key': key } });
    const body = await res.arrayBuffer();
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (res.status !== 200) throw new Error(`${url} → ${res.status} ${Buffer.from(body).toString().slice(0, 300)}`);
    if (res.headers.get('x-cache') === 'HIT') throw new Error(`${url} was cached: the scenario's URLs must be distinct`);
  }
  ms.sort((a, b) => a - b);
  return { p50: +percentile(ms, 50).toFixed(2), p99: +percentile(ms, 99).toFixed(2), n: ms.length };
}

async function measure(base, keys, pid) {
  const P = '/api/v1/public';
  const orders = fieldOrders();
  // The same work under distinct URLs: `fields` in each order, then with an explicit default limit.
  const variants = (url) => {
    const out = [];
    for (let k = 0; out.length < SAMPLES; k++) out.push(`${url}&fields=${orders[k % orders.length]}${'&limit=10'.repeat(Math.floor(k / orders.length))}`);
    return out;
  };
  // A cursor 10,000 entries deep under the default sort.
  let cursor = null;
  for (let depth = 0; depth < Math.min(10_000, ENTRIES - 100); depth += 100) {
    const r = await api(base, keys.delivery, 'GET', `${P}/entries?type=post&limit=100&fields=views${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    cursor = r.meta.next_cursor;
  }
  const list = `${P}/entries?type=post`;
  const scenarios = [
    ['page 1', list],
    ['page 1,000', `${list}&page=1000`],
    ['cursor at depth 10,000', `${list}&cursor=${encodeURIComponent(cursor)}`],
  ];
  for (const key of ['created_at', 'updated_at', 'published_at', 'slug', 'views', 'title', 'published_on'])
    for (const dir of ['asc', 'desc']) scenarios.push([`sort=${key}:${dir}`, `${list}&sort=${key}:${dir}`]);
  scenarios.push(
    ['filter category=news', `${list}&filter[category][eq]=news`],
    ['filter category=news, sort=views:desc', `${list}&filter[category][eq]=news&sort=views:desc`],
    ['filter views>=50000', `${list}&filter[views][gte]=50000`],
    ['filter views>=50000, sort=views:asc', `${list}&filter[views][gte]=50000&sort=views:asc`],
    ['filter featured=true, page 50', `${list}&filter[featured][eq]=true&page=50`],
  );
  const results = [];
  for (const [name, url] of scenarios) {
    results.push({ name, ...(await timeUrls(base, keys.delivery, variants(url))) });
    log(name, results.at(-1));
  }
  const slugUrls = Array.from({ length: SAMPLES }, (_, k) => `${P}/entries/post-${Math.floor((k * 7_919_993) % ENTRIES)}?type=post&locale=de`);
  results.push({ name: 'entry by slug', ...(await timeUrls(base, keys.delivery, slugUrls)) });
  const pageUrls = Array.from(
    { length: Math.min(SAMPLES, 150) },
    (_, k) => `${P}/pages/bench-${k % 50}${['', '?locale=de', '?locale=en'][Math.floor(k / 50)]}`,
  );
  results.push({ name: '50-block page', ...(await timeUrls(base, keys.delivery, pageUrls)) });
  const uncachedPeak = roundedRss(pid);

  const cached = await new Promise((resolve, reject) =>
    autocannon({ url: `${base}${list}`, connections: 20, duration: 10, headers: { 'x-api-key': keys.delivery } }, (err, r) => (err ? reject(err) : resolve(r))),
  );
  return {
    results,
    cached: { rps: Math.round(cached.requests.average), p50: cached.latency.p50, p99: cached.latency.p99, non2xx: cached.non2xx },
    rss: { after_uncached_mib: uncachedPeak, peak_mib: roundedRss(pid) },
  };
}

async function main() {
  if (!fs.existsSync(path.join(root, 'dist/src/server.js'))) throw new Error('run `npm run build` first (npm run bench:scale does)');
  if (REUSE_DIR && !fs.existsSync(path.join(REUSE_DIR, 'quire.db'))) throw new Error(`--reuse ${REUSE_DIR}: no quire.db there`);
  const dataDir = REUSE_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'quire-scale-'));
  const port = 30000 + Math.floor(Math.random() * 20000);
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    QUIRE_DEMO: '0',
    RATE_LIMIT_MANAGEMENT: '0',
    RATE_LIMIT_DELIVERY: '0',
  };
  delete env.DATABASE_URL;
  let dropDb = null;
  if (REUSE_URL) env.DATABASE_URL = REUSE_URL;
  else if (PG_URL) {
    const name = `quire_scale_${Date.now()}`;
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(PG_URL);
    u.pathname = `/${name}`;
    env.DATABASE_URL = u.toString();
    dropDb = async () => {
      const a = new pg.Client({ connectionString: PG_URL });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    };
  }
  const imp = (p) => import(path.join(root, 'dist/src', p));
  const { bootstrap, createApiKey, ensureUser, requireWorkspace } = await imp('modules/auth/operations.js');
  const { loadConfig } = await imp('config.js');
  const { createDb } = await imp('db/create-db.js');
  const { createContext } = await imp('context.js');
  const { newId } = await imp('lib/ids.js');
  const config = loadConfig(env);
  const db = await createDb(config);
  const ctx = await createContext(config, db);
  let keys;
  if (REUSE) {
    // The seeded workspace and its owner (bootstrap's default email); a fresh key, since the seed's are not kept.
    const ws = await requireWorkspace(ctx, 'scale');
    const owner = await ensureUser(ctx, 'owner@scale.local');
    keys = { delivery: (await createApiKey(ctx, ws.id, owner.id, { keyClass: 'delivery', name: 'bench:scale --reuse', environment: 'production' })).key };
    const { sql } = await import('kysely');
    const { rows } =
      await sql`select count(*) as n from entries join content_types on content_types.id = entries.content_type_id where content_types.workspace_id = ${ws.id} and content_types.slug = 'post' and entries.slug like 'post-%'`.execute(
        db.kysely,
      );
    ENTRIES = Number(rows[0].n);
  } else keys = (await bootstrap(ctx, { slug: 'scale', name: 'Scale', default_locale: 'en', locales: ['en', 'de'] })).keys;
  await db.close();

  const base = `http://127.0.0.1:${port}`;
  let server = null;
  try {
    let seconds = null;
    if (!REUSE) {
      server = startServer(env);
      await waitReady(base);
      await seedTemplates(base, keys);
      await stopServer(server);
      log(`writing ${ENTRIES.toLocaleString('en')} entries (${PG_URL ? 'postgres' : 'sqlite'})`);
      seconds = await bulkWrite(config, newId);
    } else log(`reusing ${REUSE}: ${ENTRIES.toLocaleString('en')} entries`);
    const size = PG_URL ? null : Math.round(fs.statSync(path.join(dataDir, 'quire.db')).size / 2 ** 20);
    server = startServer(env);
    await waitReady(base);
    const m = await measure(base, keys, server.pid);
    const out = {
      dialect: PG_URL ? 'postgres' : 'sqlite',
      entries: ENTRIES,
      seed_seconds: seconds === null ? null : Math.round(seconds),
      sqlite_file_mib: size,
      cpus: os.cpus().length,
      ...m,
    };
    const page1 = m.results.find((r) => r.name === 'page 1');
    const deep = m.results.find((r) => r.name === 'cursor at depth 10,000');
    out.cursor_to_page1 = +(deep.p50 / page1.p50).toFixed(2);
    if (args.includes('--json')) console.log(JSON.stringify(out, null, 2));
    else {
      console.log(
        `\n${out.dialect}, ${ENTRIES.toLocaleString('en')} entries (${out.seed_seconds === null ? 'reused' : `bulk write ${out.seed_seconds} s`}${size ? `, file ${size} MiB` : ''}), ${out.cpus} CPUs`,
      );
      console.log('| scenario (uncached, distinct URLs) | p50 ms | p99 ms |\n|---|---|---|');
      for (const r of m.results) console.log(`| ${r.name} | ${r.p50} | ${r.p99} |`);
      console.log(`\ncursor at depth 10,000 / page 1 (p50): ${out.cursor_to_page1}`);
      console.log(
        `cached page 1: ${out.cached.rps} req/s (p50 ${out.cached.p50} ms, p99 ${out.cached.p99} ms, non-2xx ${out.cached.non2xx}); server RSS peak ${out.rss.peak_mib} MiB (after the uncached runs ${out.rss.after_uncached_mib} MiB)`,
      );
    }
  } finally {
    if (server && server.exitCode === null) await stopServer(server);
    if (REUSE_URL) fs.rmSync(dataDir, { recursive: true, force: true });
    else if (REUSE_DIR) log(`left ${REUSE_DIR} in place`);
    else if (!KEEP) {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (dropDb) await dropDb();
    } else log(`kept ${PG_URL ? env.DATABASE_URL : dataDir}`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
