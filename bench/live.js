#!/usr/bin/env node
/**
 * `npm run bench:live`: the Live Content API under 1,000 open streams (docs/front-ends.md "Live
 * updates", D142; issue 29 point 4). Not part of the test suite.
 *
 * What it does:
 *  1. one instance: starts Quire (compiled, `dist/`) on a fresh embedded SQLite database, opens
 *     BENCH_LIVE_CONNECTIONS (default 1,000) streams of GET /api/v1/public/live with one
 *     production key, measures the server's resident memory before and after (memory per idle
 *     stream), then publishes BENCH_LIVE_PUBLISHES (default 20) posts one after the other and
 *     records, for every stream, the time from sending the publish request to receiving its event;
 *  2. three instances on PostgreSQL (BENCH_DATABASE_URL, skipped without it): the same streams
 *     spread over three servers sharing the database (LISTEN/NOTIFY; through Redis with
 *     BENCH_REDIS_URL), posts published through the first.
 * Prints a table and one JSON line: p50/p99/max publish-to-event latency and missing events per
 * setup, and memory per idle stream. Targets (issue 29): p99 ≤ 250 ms on one instance, ≤ 1 s
 * across three. The streams are read by this one process, whose own event loop is part of what is
 * measured; times are this machine's: compare runs on the same machine.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { api, waitReady } from './helpers.js';
import { serverFlags } from './server-flags.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CONNECTIONS = Number(process.env.BENCH_LIVE_CONNECTIONS ?? 1000);
const PUBLISHES = Number(process.env.BENCH_LIVE_PUBLISHES ?? 20);
const M = '/api/v1/manage';

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

/** The current resident set size of process `pid` in MiB (VmRSS, Linux), or null. */
function rssMiB(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Opens one stream; `onEvent(tags, at)` for each event; resolves once its headers arrived. */
function openStream(port, key, onEvent) {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/api/v1/public/live', agent: false, headers: { 'x-api-key': key } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`live answered ${res.statusCode}`));
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block.split('\n').find((l) => l.startsWith('data: '));
          if (data) onEvent(JSON.parse(data.slice(6)).tags, performance.now());
        }
      });
      res.on('error', () => {});
      resolve(req);
    });
    req.on('error', reject);
  });
}

/** A TCP port free on 127.0.0.1 now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Starts a server with `env` on a free port; resolves with it and its port once it is ready. */
async function startServer(env) {
  const port = await freePort();
  const child = spawn(process.execPath, [...serverFlags(root), path.join(root, 'dist/src/server.js')], {
    cwd: root,
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((_, reject) => child.once('exit', (code) => reject(new Error(`the server exited with ${code}`))));
  exited.catch(() => {});
  await Promise.race([waitReady(`http://127.0.0.1:${port}`, 600), exited]);
  return { child, port };
}

/** A workspace with a `post` type, its keys (made directly in the database before the servers start). */
async function prepare(env) {
  const { bootstrap } = await import(path.join(root, 'dist/src/modules/auth/operations.js'));
  const { loadConfig } = await import(path.join(root, 'dist/src/config.js'));
  const { createDb } = await import(path.join(root, 'dist/src/db/create-db.js'));
  const { createContext, closeContext } = await import(path.join(root, 'dist/src/context.js'));
  const config = loadConfig(env);
  const db = await createDb(config);
  const ctx = await createContext(config, db, { redis: false, indexBuilds: false });
  const keys = (await bootstrap(ctx, { slug: `bench-live-${Date.now()}`, name: 'Bench', default_locale: 'en', locales: ['en'] })).keys;
  await closeContext(ctx);
  await db.close();
  return keys;
}

/**
 * Opens CONNECTIONS streams over `ports` (round robin), then publishes PUBLISHES posts through
 * `ports[0]` one at a time (each waits until every stream got its event, or 5 s); returns the
 * latencies in ms and the count of events that never came.
 */
async function measure(ports, keys, pids) {
  const base = `http://127.0.0.1:${ports[0]}`;
  await api(base, keys.management, 'POST', `${M}/content-types`, { name: 'Post', slug: 'post', fields: [{ name: 'title', field_type: 'text' }] });
  const rssBefore = pids.map(rssMiB);
  const waiting = new Map(); // tag → {sentAt, remaining, done}
  const latencies = [];
  const streams = [];
  for (let i = 0; i < CONNECTIONS; i += 50) {
    const batch = [];
    for (let k = i; k < Math.min(CONNECTIONS, i + 50); k++) {
      batch.push(
        openStream(ports[k % ports.length], keys.delivery, (tags, at) => {
          for (const tag of tags) {
            const w = waiting.get(tag);
            if (!w) continue;
            latencies.push(at - w.sentAt);
            if (--w.remaining === 0) w.done();
          }
        }),
      );
    }
    streams.push(...(await Promise.all(batch)));
  }
  await new Promise((r) => setTimeout(r, 2000));
  global.gc?.();
  const rssAfter = pids.map(rssMiB);
  let missing = 0;
  /** The last stream's latency of each publication, in ms. */
  const slowest = [];
  for (let n = 0; n < PUBLISHES; n++) {
    const slug = `live-${n}`;
    const created = await api(base, keys.management, 'POST', `${M}/content-types/post/entries`, { slug, data: { title: `Post ${n}` } });
    const tag = `e:${created.data.id}`;
    let done;
    const arrived = new Promise((r) => (done = r));
    const before = latencies.length;
    const w = { sentAt: performance.now(), remaining: CONNECTIONS, done };
    waiting.set(tag, w);
    await api(base, keys.management, 'PATCH', `${M}/content-types/post/entries/${slug}/publish`);
    await Promise.race([arrived, new Promise((r) => setTimeout(r, 5000))]);
    slowest.push(Math.round(Math.max(0, ...latencies.slice(before))));
    missing += w.remaining;
    waiting.delete(tag);
  }
  for (const s of streams) s.destroy();
  const sorted = latencies.sort((a, b) => a - b);
  const idleKiB = rssBefore.every((v) => v !== null)
    ? ((rssAfter.reduce((a, b) => a + b, 0) - rssBefore.reduce((a, b) => a + b, 0)) * 1024) / CONNECTIONS
    : null;
  return {
    instances: ports.length,
    connections: CONNECTIONS,
    events: latencies.length,
    missing,
    p50_ms: Math.round(percentile(sorted, 0.5) * 10) / 10,
    p99_ms: Math.round(percentile(sorted, 0.99) * 10) / 10,
    max_ms: Math.round(sorted[sorted.length - 1] * 10) / 10,
    rss_before_mib: rssBefore.map((v) => Math.round(v)),
    rss_idle_mib: rssAfter.map((v) => Math.round(v)),
    kib_per_idle_stream: idleKiB === null ? null : Math.round(idleKiB * 10) / 10,
    slowest_per_publish_ms: slowest,
  };
}

function baseEnv(dataDir) {
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    QUIRE_DEMO: '0',
    RATE_LIMIT_MANAGEMENT: '0',
    RATE_LIMIT_DELIVERY: '0',
    LIVE_MAX_CONNECTIONS_PER_KEY: String(CONNECTIONS + 10),
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  return env;
}

async function run(label, env, count) {
  const keys = await prepare(env);
  const ports = [];
  const children = [];
  try {
    for (let i = 0; i < count; i++) {
      const { child, port } = await startServer(env);
      children.push(child);
      ports.push(port);
    }
    return {
      setup: label,
      ...(await measure(
        ports,
        keys,
        children.map((c) => c.pid),
      )),
    };
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r() : c.once('exit', r)))));
  }
}

async function main() {
  if (!fs.existsSync(path.join(root, 'dist/src/server.js'))) throw new Error('run `npm run build` first (npm run bench:live does)');
  const rows = [];
  const one = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-live-'));
  rows.push(await run('one instance, SQLite', baseEnv(one), 1));
  if (process.env.BENCH_DATABASE_URL) {
    const env = { ...baseEnv(fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-live-pg-'))), DATABASE_URL: process.env.BENCH_DATABASE_URL };
    if (process.env.BENCH_REDIS_URL) {
      env.REDIS_URL = process.env.BENCH_REDIS_URL;
      env.REDIS_PREFIX = `quire-bench-live-${Date.now()}:`;
    }
    rows.push(await run(`three instances, PostgreSQL${env.REDIS_URL ? ' + Redis' : ' (LISTEN/NOTIFY)'}`, env, 3));
  } else {
    console.log('BENCH_DATABASE_URL not set: the three-instance run on PostgreSQL is skipped');
  }
  console.table(
    rows.map(({ rss_before_mib, rss_idle_mib, slowest_per_publish_ms: _slowest, ...r }) => ({
      ...r,
      rss_before_mib: rss_before_mib.join('/'),
      rss_idle_mib: rss_idle_mib.join('/'),
    })),
  );
  console.log(JSON.stringify({ bench: 'live', publishes: PUBLISHES, rows }));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
