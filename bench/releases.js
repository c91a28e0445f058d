#!/usr/bin/env node
/**
 * `npm run bench:releases`: publishing a release of 1,000 items while delivery reads go on
 * (docs/releases.md "Publishing"; issue 26 item 6). Not part of the test suite.
 *
 * What it does:
 *  1. starts Quire (compiled, `dist/`) on a fresh embedded SQLite database in a temp DATA_DIR (or
 *     on PostgreSQL with BENCH_DATABASE_URL=postgres://…), as a child process;
 *  2. seeds, over the management API, BENCH_RELEASE_ITEMS (default 1,000) posts (title, summary,
 *     views, a de translation), publishes each at "v1", then changes each working copy to "v2"
 *     and adds it to one release as a `publish` item (its release version copies the working copy);
 *  3. starts BENCH_READERS (default 8) delivery readers, each repeating GET
 *     /api/v1/public/entries?type=post&limit=10&sort=views:asc with a production key, and after 2 s
 *     sends POST /releases/{id}/publish;
 *  4. reports the publication's duration (the request's round trip), the readers' p50/p99/max
 *     latency during the publication and over the whole run, their request count, and whether any
 *     answer mixed "v1" and "v2" titles (a release goes live at one instant: it must be 0);
 *  5. the same for a 1,000-item revert.
 * Prints a table and one JSON line. Targets (issue 26): ≤ 2 s on SQLite, ≤ 4 s on PostgreSQL, reader
 * p99 ≤ 50 ms during the publication. Times are this machine's: compare runs on the same machine.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { api, peakRssMiB, waitReady } from './helpers.js';
import { serverFlags } from './server-flags.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ITEMS = Number(process.env.BENCH_RELEASE_ITEMS ?? 1000);
const READERS = Number(process.env.BENCH_READERS ?? 8);
const M = '/api/v1/manage';
const LIST = '/api/v1/public/entries?type=post&limit=10&sort=views:asc';

/** Runs `fn` over `items` with at most `n` calls in flight; keeps order of results. */
async function pool(items, n, fn) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

/** Delivery readers until stop(): each sample {start, end, ms, mixed} (ms since the epoch of performance.now). */
function startReaders(base, key) {
  const samples = [];
  let running = true;
  const loops = Array.from({ length: READERS }, async () => {
    while (running) {
      const start = performance.now();
      const res = await fetch(base + LIST, { headers: { 'x-api-key': key } });
      const body = await res.json();
      const end = performance.now();
      const titles = res.ok ? body.data.map((e) => JSON.parse(e.data).title) : [];
      const versions = new Set(titles.map((t) => t.split(' ').pop()));
      samples.push({ start, end, ms: end - start, mixed: versions.size > 1, status: res.status });
    }
  });
  return {
    samples,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Latency figures of the samples that overlap [from, to]. */
function window(samples, from, to) {
  const inside = samples.filter((s) => s.end >= from && s.start <= to);
  const ms = inside.map((s) => s.ms).sort((a, b) => a - b);
  const round = (v) => (v === null ? null : Math.round(v * 10) / 10);
  return {
    requests: inside.length,
    p50_ms: round(percentile(ms, 0.5)),
    p99_ms: round(percentile(ms, 0.99)),
    max_ms: round(ms.length ? ms[ms.length - 1] : null),
    mixed: inside.filter((s) => s.mixed).length,
    errors: inside.filter((s) => s.status !== 200).length,
  };
}

async function seed(base, keys) {
  await api(base, keys.management, 'POST', `${M}/content-types`, {
    name: 'Post',
    slug: 'post',
    display_field: 'title',
    fields: [
      { name: 'title', field_type: 'text', required: true, localizable: true },
      { name: 'summary', field_type: 'textarea', localizable: true },
      { name: 'views', field_type: 'integer', sortable: true },
    ],
  });
  const release = (await api(base, keys.management, 'POST', `${M}/releases`, { title: `Campaign of ${ITEMS}` })).data;
  const indexes = Array.from({ length: ITEMS }, (_, i) => i);
  // Sequential per item, 4 items at once: create, publish v1, change the working copy to v2, add to the release.
  await pool(indexes, 4, async (i) => {
    const created = await api(base, keys.management, 'POST', `${M}/content-types/post/entries`, {
      data: { title: `Post ${i} v1`, summary: `Summary ${i}`, views: i },
      translations: { de: { data: { title: `Beitrag ${i} v1` } } },
    });
    const { id, slug } = created.data;
    await api(base, keys.management, 'PATCH', `${M}/content-types/post/entries/${slug}/publish`);
    await api(base, keys.management, 'PUT', `${M}/content-types/post/entries/${slug}`, {
      data: { title: `Post ${i} v2`, summary: `Summary ${i}, revised`, views: i },
      translations: { de: { data: { title: `Beitrag ${i} v2` } } },
    });
    await api(base, keys.management, 'POST', `${M}/releases/${release.id}/items`, { kind: 'entry', id, action: 'publish' });
  });
  return release;
}

/** Sends `url` while the readers run; returns the round trip and the readers' figures around it. */
async function timed(base, keys, url, body) {
  const readers = startReaders(base, keys.delivery);
  await new Promise((r) => setTimeout(r, 2000));
  const t0 = performance.now();
  const res = await api(base, keys.management, 'POST', url, body);
  const t1 = performance.now();
  await new Promise((r) => setTimeout(r, 1000));
  await readers.stop();
  const before = window(
    readers.samples.filter((s) => s.end < t0),
    0,
    t0,
  );
  return { ms: Math.round(t1 - t0), status: res.data?.status, during: window(readers.samples, t0, t1), before };
}

async function main() {
  if (!fs.existsSync(path.join(root, 'dist/src/server.js'))) throw new Error('run `npm run build` first (npm run bench:releases does)');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-releases-'));
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
  if (process.env.BENCH_DATABASE_URL) env.DATABASE_URL = process.env.BENCH_DATABASE_URL;
  const dialect = env.DATABASE_URL ? 'postgres' : 'sqlite';

  const { bootstrap } = await import(path.join(root, 'dist/src/modules/auth/operations.js'));
  const { loadConfig } = await import(path.join(root, 'dist/src/config.js'));
  const { createDb } = await import(path.join(root, 'dist/src/db/create-db.js'));
  const { createContext } = await import(path.join(root, 'dist/src/context.js'));
  const config = loadConfig(env);
  const db = await createDb(config);
  const ctx = await createContext(config, db);
  const keys = (await bootstrap(ctx, { slug: `bench-${Date.now()}`, name: 'Bench', default_locale: 'en', locales: ['en', 'de'] })).keys;
  await db.close();

  const server = spawn(process.execPath, [...serverFlags(root), path.join(root, 'dist/src/server.js')], {
    cwd: root,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitReady(base, 300);
    const s0 = Date.now();
    const release = await seed(base, keys);
    console.log(`seeded ${ITEMS} published posts with changed working copies in one release in ${((Date.now() - s0) / 1000).toFixed(1)} s (${dialect})`);
    const publish = await timed(base, keys, `${M}/releases/${release.id}/publish`);
    const check = await api(base, keys.delivery, 'GET', LIST);
    const live = check.data.map((e) => JSON.parse(e.data).title);
    if (!live.every((t) => t.endsWith(' v2'))) throw new Error(`after the publication the list shows ${live.join(', ')}`);
    const revert = await timed(base, keys, `${M}/releases/${release.id}/revert`, { force: true });
    const rows = [
      {
        step: 'publish',
        items: ITEMS,
        ms: publish.ms,
        ...Object.fromEntries(Object.entries(publish.during).map(([k, v]) => [`during_${k}`, v])),
        before_p99_ms: publish.before.p99_ms,
      },
      {
        step: 'revert',
        items: ITEMS,
        ms: revert.ms,
        ...Object.fromEntries(Object.entries(revert.during).map(([k, v]) => [`during_${k}`, v])),
        before_p99_ms: revert.before.p99_ms,
      },
    ];
    console.log(`\nQuire release bench: ${ITEMS} items, ${READERS} delivery readers, ${os.cpus().length} cores, node ${process.version}, ${dialect}`);
    console.table(rows);
    console.log(`Quire server peak RSS: ${peakRssMiB(server.pid)?.toFixed(1)} MiB`);
    console.log(
      'ms: the publish (revert) request round trip; during_*: delivery reads overlapping it; mixed: answers showing v1 and v2 titles together (must be 0)',
    );
    console.log(JSON.stringify({ dialect, items: ITEMS, readers: READERS, results: rows, peak_rss_mib: peakRssMiB(server.pid) }));
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`bench failed: ${err.message}`);
  process.exit(1);
});
