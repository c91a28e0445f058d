#!/usr/bin/env node
/**
 * `npm run bench` (second part): the media library (issue 4 item 8). Not part of the tests.
 *
 * Starts compiled Quire (`dist/`) as a child process on a fresh embedded SQLite database in a
 * temp DATA_DIR with local storage (BENCH_STORAGE=s3 starts an in-process S3 server on
 * 127.0.0.1 and uses it instead), bootstraps a workspace, then measures over real sockets:
 *  1. memory: 20 uploads of 10 MB images at once; the server's peak RSS (VmHWM) must stay
 *     under 200 MiB (the bench exits 1 otherwise);
 *  2. upload throughput: BENCH_UPLOADS (default 300) uploads of a 1 MB image, 10 at a time:
 *     uploads/s, MB/s, p50/p99;
 *  3. transforms, first request: BENCH_TRANSFORMS (default 60) distinct variants (each a real
 *     resize of a 1 MB 2000×1500 JPEG to WebP), 4 at a time: req/s, p50/p99;
 *  4. transforms, cached: autocannon (20 connections, BENCH_DURATION s, default 10) on one
 *     variant already rendered (served from storage: no resize).
 * Each row also shows the server's peak RSS so far (VmHWM).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import sharp from 'sharp';
import { serverFlags } from './server-flags.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const duration = Number(process.env.BENCH_DURATION ?? 10);
const uploads = Number(process.env.BENCH_UPLOADS ?? 300);
const transforms = Number(process.env.BENCH_TRANSFORMS ?? 60);
const RSS_LIMIT_MIB = 200;
const MAX_BYTES = 10 * 1024 * 1024;

function waitReady(base, child) {
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
    const poll = async (left) => {
      try {
        if ((await fetch(`${base}/readyz`)).ok) return resolve();
      } catch {
        // not listening yet
      }
      if (left <= 0) return reject(new Error(`server did not become ready:\n${output}`));
      setTimeout(() => poll(left - 1), 100);
    };
    poll(300);
  });
}

function rssMiB(pid, field) {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

const round1 = (n) => (n === null ? null : Math.round(n * 10) / 10);

function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Runs `count` calls of `task(i)` with `concurrency` in flight; returns latencies and wall time. */
async function pool(count, concurrency, task) {
  const latencies = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const s = performance.now();
        await task(i);
        latencies.push(performance.now() - s);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return { seconds, rps: count / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

async function uploadFile(base, keys, wsId, bytes, name, type) {
  const form = new FormData();
  form.append('alt_text', name);
  form.append('file', new Blob([bytes], { type }), name);
  const res = await fetch(`${base}/api/v1/manage/media/upload`, {
    method: 'POST',
    headers: { 'x-api-key': keys.management, 'x-workspace-id': wsId },
    body: form,
  });
  const json = await res.json();
  if (res.status !== 201) throw new Error(`upload ${name} → ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** A noise PNG (incompressible) just under `target` bytes. */
async function noisePng(target) {
  let side = Math.floor(Math.sqrt(target / 3));
  for (;;) {
    const png = await sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
      .png({ compressionLevel: 1 })
      .toBuffer();
    if (png.length <= target) return png;
    side -= 16;
  }
}

/** A 2000×1500 photo-like JPEG of about 1 MB (gradients plus noise). */
async function photoJpeg() {
  const width = 2000;
  const height = 1500;
  const raw = Buffer.alloc(width * height * 3);
  const noise = randomBytes(raw.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      raw[i] = ((x * 255) / width + (noise[i] & 31)) & 255;
      raw[i + 1] = ((y * 255) / height + (noise[i + 1] & 31)) & 255;
      raw[i + 2] = (((x + y) * 128) / width + (noise[i + 2] & 31)) & 255;
    }
  }
  for (let q = 90; q > 40; q -= 5) {
    const jpg = await sharp(raw, { raw: { width, height, channels: 3 } })
      .jpeg({ quality: q })
      .toBuffer();
    if (jpg.length <= 1.2 * 1024 * 1024) return jpg;
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 40 })
    .toBuffer();
}

function cannon(url) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: 20, duration, pipelining: 1 }, (err, r) => (err ? reject(err) : resolve(r)));
  });
}

async function startS3(dir) {
  const { default: S3rver } = await import('s3rver');
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: 'quire-bench' }] });
  const { port } = await server.run();
  return {
    server,
    env: {
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_BUCKET: 'quire-bench',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
  };
}

async function main() {
  if (!fs.existsSync(path.join(root, 'dist/src/server.js'))) throw new Error('run `npm run build` first (npm run bench does)');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-media-'));
  const port = 30000 + Math.floor(Math.random() * 20000);
  let s3 = null;
  if (process.env.BENCH_STORAGE === 's3') s3 = await startS3(path.join(dataDir, 's3'));
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    QUIRE_DEMO: '0',
    RATE_LIMIT_MANAGEMENT: '0',
    ...(s3?.env ?? {}),
  };
  delete env.DATABASE_URL;
  if (process.env.BENCH_DATABASE_URL) env.DATABASE_URL = process.env.BENCH_DATABASE_URL;

  const { bootstrap } = await import(path.join(root, 'dist/src/modules/auth/operations.js'));
  const { loadConfig } = await import(path.join(root, 'dist/src/config.js'));
  const { createDb } = await import(path.join(root, 'dist/src/db/create-db.js'));
  const { createContext } = await import(path.join(root, 'dist/src/context.js'));
  const config = loadConfig(env);
  const db = await createDb(config);
  const boot = await bootstrap(await createContext(config, db), {
    slug: `media-bench-${Date.now()}`,
    name: 'Media bench',
    default_locale: 'en',
    locales: ['en'],
  });
  await db.close();
  const { keys } = boot;
  const wsId = boot.workspace.id;

  const big = await noisePng(MAX_BYTES);
  const photo = await photoJpeg();
  const server = spawn(process.execPath, [...serverFlags(root), path.join(root, 'dist/src/server.js')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const base = `http://127.0.0.1:${port}`;
  let failed = false;
  try {
    await waitReady(base, server);
    const rows = [];

    // 1. Memory: 20 × 10 MB at once.
    const idle = rssMiB(server.pid, 'VmRSS');
    const burst = await pool(20, 20, (i) => uploadFile(base, keys, wsId, big, `big-${i}.png`, 'image/png'));
    const peak = rssMiB(server.pid, 'VmHWM');
    rows.push({
      scenario: `upload 10 MB ×20 at once (${(big.length / 1048576).toFixed(2)} MiB each)`,
      'req/s': +burst.rps.toFixed(1),
      'MB/s': +((20 * big.length) / 1048576 / burst.seconds).toFixed(1),
      p50_ms: Math.round(burst.p50),
      p99_ms: Math.round(burst.p99),
      peak_rss_mib: round1(peak),
    });

    // 2. Upload throughput of 1 MB images.
    const up = await pool(uploads, 10, (i) => uploadFile(base, keys, wsId, photo, `photo-${i}.jpg`, 'image/jpeg'));
    rows.push({
      scenario: `upload 1 MB JPEG ×${uploads}, 10 concurrent`,
      'req/s': +up.rps.toFixed(1),
      'MB/s': +((uploads * photo.length) / 1048576 / up.seconds).toFixed(1),
      p50_ms: Math.round(up.p50),
      p99_ms: Math.round(up.p99),
      peak_rss_mib: round1(rssMiB(server.pid, 'VmHWM')),
    });

    // 3. Transforms, first request (each a new variant: a real resize + encode + store).
    const asset = await uploadFile(base, keys, wsId, photo, 'source.jpg', 'image/jpeg');
    const filePath = new URL(asset.url).pathname;
    const first = await pool(transforms, 4, async (i) => {
      const res = await fetch(`${base}${filePath}?w=${400 + i}&h=300&fit=cover&fm=webp`);
      const body = await res.arrayBuffer();
      if (res.status !== 200 || res.headers.get('x-cache') !== 'MISS' || body.byteLength === 0)
        throw new Error(`transform ${i} → ${res.status} ${res.headers.get('x-cache')}`);
    });
    rows.push({
      scenario: `transform first request ×${transforms} (2000×1500 JPEG → WebP), 4 concurrent`,
      'req/s': +first.rps.toFixed(1),
      'MB/s': null,
      p50_ms: Math.round(first.p50),
      p99_ms: Math.round(first.p99),
      peak_rss_mib: round1(rssMiB(server.pid, 'VmHWM')),
    });

    // 4. Transforms, cached.
    const cachedUrl = `${base}${filePath}?w=400&h=300&fit=cover&fm=webp`;
    const check = await fetch(cachedUrl);
    await check.arrayBuffer();
    if (check.headers.get('x-cache') !== 'HIT') throw new Error(`expected a cached variant, got ${check.headers.get('x-cache')}`);
    const cached = await cannon(cachedUrl);
    rows.push({
      scenario: `transform cached (autocannon, 20 conn, ${duration} s)`,
      'req/s': Math.round(cached.requests.average),
      'MB/s': +(cached.throughput.average / 1048576).toFixed(1),
      p50_ms: cached.latency.p50,
      p99_ms: cached.latency.p99,
      errors: cached.errors + cached.non2xx,
      peak_rss_mib: round1(rssMiB(server.pid, 'VmHWM')),
    });

    const finalPeak = rssMiB(server.pid, 'VmHWM');
    console.log(
      `\nQuire media benchmark: ${s3 ? 's3 (s3rver)' : 'local'} storage, ${config.databaseUrl ? 'postgres' : 'sqlite'}, ${os.cpus().length} cores, node ${process.version}`,
    );
    console.table(rows);
    console.log(
      `server RSS: idle ${idle?.toFixed(1)} MiB, peak after 20×10 MB uploads ${peak?.toFixed(1)} MiB (limit ${RSS_LIMIT_MIB} MiB), peak over the whole run ${finalPeak?.toFixed(1)} MiB`,
    );
    console.log(JSON.stringify({ media: rows, rss_idle_mib: idle, rss_peak_uploads_mib: peak, rss_peak_run_mib: finalPeak }));
    if (peak === null || peak >= RSS_LIMIT_MIB) {
      console.error(`FAIL: peak RSS during 20 concurrent 10 MB uploads is ${peak} MiB (limit ${RSS_LIMIT_MIB} MiB)`);
      failed = true;
    }
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    await s3?.server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  if (failed) process.exit(1);
}

main().catch((err) => {
  console.error(`media bench failed: ${err.message}`);
  process.exit(1);
});
