#!/usr/bin/env node
/**
 * `npm run bench:import [-- --entries 10000,100000] [--postgres URL] [--runs N] [--json]`: the
 * Contentful importer on synthetic exports (bench/contentful-export.js) of each size, on SQLite
 * and, with `--postgres postgres://…` (or BENCH_DATABASE_URL), on PostgreSQL (issue 12 item 4;
 * figures in docs/cli.md). Not part of the test suite: nothing here asserts a time.
 *
 * For each size and database: a fresh database (a temporary DATA_DIR; a PostgreSQL database
 * created for the run and dropped after it), then `quire import contentful FILE --workspace
 * bench` as a child process running the compiled command (`dist/`, built by the npm script;
 * bench/import-child.js), timed, with the child's peak RSS and the time of each phase (read,
 * plan, assets, entries, links: from its progress bars); then the same import again (nothing
 * changes: the idempotent path). `--runs N` repeats each size and database N times.
 *
 * Figures are relative within the run, since the machine's load varies: each size's entries/s
 * as a ratio of the smallest size's on the same database (flat means the cost per entry does not
 * grow with the export), PostgreSQL's time as a ratio of SQLite's, and peak RSS per size (flat
 * means memory does not grow with the file). The load average is printed with the figures.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { writeSyntheticExport } from './contentful-export.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const SIZES = String(opt('entries', '10000,100000'))
  .split(',')
  .map(Number)
  .filter((n) => Number.isSafeInteger(n) && n > 0);
const PG_URL = opt('postgres', process.env.BENCH_DATABASE_URL);
const JSON_OUT = args.includes('--json');
const RUNS = Math.max(1, Number(opt('runs', 1)) || 1);
const log = (...a) => console.error(`[bench:import ${new Date().toISOString().slice(11, 19)}]`, ...a);
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/** Runs the compiled import command in a child; resolves with its wall time, peak RSS, phases and report. */
function runImport(file, env) {
  const child = path.join(root, 'bench', 'import-child.js');
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const p = spawn(process.execPath, [child, file, 'bench'], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('error', reject);
    p.on('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const stats = /BENCH (\{.*\})/.exec(err);
      if (code !== 0 || !stats) return reject(new Error(`import exited ${code}: ${err.slice(-2000)}`));
      const { maxRssMiB, phases } = JSON.parse(stats[1]);
      resolve({ seconds, peakRssMiB: maxRssMiB, phases, report: JSON.parse(out) });
    });
  });
}

/** A fresh database for one run: its environment and a cleanup. */
async function freshDatabase(dialect) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-import-'));
  if (dialect === 'sqlite') return { env: { DATA_DIR: dataDir }, cleanup: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  const url = new URL(PG_URL);
  const name = `quire_bench_import_${process.pid}_${Date.now()}`;
  const admin = async (statement) => {
    const c = new pg.Client({ connectionString: url.toString() });
    await c.connect();
    try {
      await c.query(statement);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: target.toString() },
    cleanup: async () => {
      await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const dialects = PG_URL ? ['sqlite', 'postgres'] : ['sqlite'];
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-exports-'));
const results = [];
try {
  log(`load average at start: ${load()}`);
  for (const n of SIZES) {
    const file = path.join(work, `export-${n}.json`);
    const made = await writeSyntheticExport(file, n);
    log(`export of ${n} entries: ${(made.bytes / 1e6).toFixed(1)} MB`);
    for (let run = 0; run < RUNS; run++) {
      for (const dialect of dialects) {
        const db = await freshDatabase(dialect);
        try {
          const loadBefore = load();
          const first = await runImport(file, db.env);
          const again = await runImport(file, db.env);
          const r = first.report;
          if (r.entries.created !== n || r.failures.length || again.report.entries.unchanged !== n)
            throw new Error(`unexpected report: ${JSON.stringify(r.entries)}`);
          const row = {
            dialect,
            entries: n,
            mb: Number((made.bytes / 1e6).toFixed(1)),
            seconds: Number(first.seconds.toFixed(1)),
            entriesPerSecond: Math.round(n / first.seconds),
            phases: first.phases,
            peakRssMiB: Math.round(first.peakRssMiB),
            reimportSeconds: Number(again.seconds.toFixed(1)),
            reimportPeakRssMiB: Math.round(again.peakRssMiB),
            loadBefore,
            load: load(),
          };
          results.push(row);
          log(JSON.stringify(row));
        } finally {
          await db.cleanup();
        }
      }
    }
    fs.rmSync(file, { force: true });
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}

// Ratios within this run (first run of each): per size against the smallest size on the same database, and PostgreSQL against SQLite.
for (const row of results) {
  const base = results.find((r) => r.dialect === row.dialect && r.entries === SIZES[0]);
  row.ratePerSmallest = Number((row.entriesPerSecond / base.entriesPerSecond).toFixed(2));
  const sqlite = results.find((r) => r.dialect === 'sqlite' && r.entries === row.entries);
  if (row.dialect === 'postgres' && sqlite) row.timeVsSqlite = Number((row.seconds / sqlite.seconds).toFixed(2));
}
const phaseText = (p) => ['read', 'plan', 'assets', 'entries', 'links'].map((k) => `${k} ${p?.[k] ?? 0}`).join(', ');
if (JSON_OUT) console.log(JSON.stringify({ results, cpus: os.cpus().length }, null, 2));
else {
  console.log(`Contentful import, ${os.cpus().length} cores; load average at the end ${load()}`);
  console.log(
    'database  entries     MB   import s  entries/s  vs smallest  peak RSS MiB  re-import s  PG/SQLite  load before → after (1/5/15 min)  phases (s)',
  );
  for (const r of results) {
    console.log(
      [
        r.dialect.padEnd(9),
        String(r.entries).padStart(8),
        String(r.mb).padStart(6),
        String(r.seconds).padStart(10),
        String(r.entriesPerSecond).padStart(10),
        `${r.ratePerSmallest}x`.padStart(12),
        String(r.peakRssMiB).padStart(13),
        String(r.reimportSeconds).padStart(12),
        (r.timeVsSqlite ? `${r.timeVsSqlite}x` : '').padStart(10),
        ` ${r.loadBefore} → ${r.load}`,
        ` ${phaseText(r.phases)}`,
      ].join(' '),
    );
  }
}
