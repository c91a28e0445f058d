#!/usr/bin/env node
/**
 * `npm run bench`: delivery throughput of Quire against a bare Fastify route serving the same
 * bytes, in the same run (ratios, not absolute targets). Not part of the test suite.
 *
 * What it does (issue 2 item 14):
 *  1. starts Quire (compiled, `dist/`) on a fresh embedded SQLite database in a temp DATA_DIR
 *     (or on PostgreSQL with BENCH_DATABASE_URL=postgres://…), as a child process;
 *  2. bootstraps a workspace (en + de) and seeds, over the management API, 50 authors and
 *     1,000 published posts (10 fields, one relation to an author, de translations);
 *  3. runs autocannon (20 connections, BENCH_DURATION seconds, default 10) against
 *     GET /api/v1/public/entries?type=post&limit=10&locale=de and GET /entries/{slug}?locale=de,
 *     and (issue 3 item 7) GET /api/v1/public/pages/bench-home?locale=de: a published page of 50
 *     blocks in three levels (block types hero, rich text, feature grid, feature item, call to
 *     action), de translations, relations to posts and authors in some blocks;
 *  4. starts a bare Fastify server returning the same bytes (the body and Quire's response headers,
 *     but for date, connection, length and request id; BENCH_BARE=body: the body and its content
 *     type only) and measures it the same way, after a warm-up of its own, in slices alternating
 *     with Quire's (BENCH_ROUNDS of each, default 4: see interleaved());
 *  5. prints req/s, p50, p99, the ratio to bare Fastify, each server's CPU time per request (and
 *     their ratio) and the server's peak RSS (VmHWM).
 * `list-put` repeats the list request while a separate loop sends one management PUT per second on
 * the first entry of that list (a new `views` value each time), and reports the PUTs' status codes
 * and the delivery cache hit rate (the `X-Cache: HIT`/`MISS` response header, counted on every run).
 * Compression (issue 10 item 2, D81): `list5`, `list5-br` and `list5-gzip` repeat
 * GET /entries?type=post&limit=5&locale=de (a hot cached answer) without Accept-Encoding and with
 * `Accept-Encoding: br` / `gzip`; each bare Fastify baseline serves the same (compressed) bytes
 * with the same Content-Encoding from memory. A table then gives the 5-post list's and the page's
 * body sizes (identity, br, gzip) and what each brotli quality and gzip level costs on them
 * (µs per compression, measured in this process), which is how the server's br quality 4 and
 * gzip level 6 were chosen (src/http/http-cache.ts).
 * GraphQL (issue 25 item 6): `gql-hot` repeats a GET of a 10-post list with each post's author
 * (a hot cached answer, against bare Fastify serving the same bytes); `gql-list` POSTs a query of
 * 10 posts with their authors (POST answers are never cached: every request runs the query); and
 * `gql-mega-menu` sends 100 sequential POSTs of one navigation entry linking 60 landing pages and
 * posts, each with its author, on one kept-alive connection (after a discarded warm-up pass of as
 * many), and reports p50, p90, p99, mean and the server's CPU ms per request, beside bare Fastify
 * sending the same bytes in the same loop (BENCH_SEQUENTIAL=n sends n instead of 100, e.g. for a
 * CPU profile of the server).
 * Scenarios can be chosen with BENCH_ONLY=list,list-put,slug,page,list5,list5-br,list5-gzip,
 * gql-hot,gql-list,gql-mega-menu.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { api, peakRssMiB, waitReady } from './helpers.js';
import { serverFlags } from './server-flags.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const only = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',')) : null;
/** Slices of each measured run, Quire's and bare Fastify's alternating (see interleaved()). */
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 4));

function waitForLine(child, pattern, timeoutMs = 30_000) {
  return new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error(`timeout waiting for ${pattern}; output so far:\n${buf}`)), timeoutMs);
    const onData = (d) => {
      buf += d.toString();
      const m = pattern.exec(buf);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`process exited with ${code}:\n${buf}`)));
  });
}

/** Resets the kernel's peak-RSS mark of `pid` (Linux: writing 5 to clear_refs), so the next
 * reading covers only what follows; false where that is not possible. */
function resetPeakRss(pid) {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** CPU seconds (user + system) `pid` has used so far (Linux /proc; null elsewhere). */
function cpuSeconds(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in USER_HZ (100 on Linux)
  } catch {
    return null;
  }
}

/**
 * One autocannon slice of `seconds` against the server `pid`: its requests, seconds, latencies,
 * errors, and the server's CPU seconds meanwhile (null off Linux).
 */
async function cannonSlice(pid, url, headers, cache, request, seconds) {
  const before = cpuSeconds(pid);
  const result = await cannon(url, headers, cache, { ...request, duration: seconds });
  const after = cpuSeconds(pid);
  return {
    total: result.requests.total,
    seconds: result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + (result.non2xx ?? 0),
    cpu: before === null || after === null ? null : after - before,
  };
}

/**
 * Slices of one server as one run: req/s over all of them, the median slice's p50, the worst
 * p99, and `cpu_us`: the server's CPU microseconds per request, which a busy machine disturbs far
 * less than req/s (the request rate falls when other processes take the cores; the work per
 * request does not).
 */
function mergeSlices(slices) {
  const total = slices.reduce((a, x) => a + x.total, 0);
  const seconds = slices.reduce((a, x) => a + x.seconds, 0);
  const p50s = slices.map((x) => x.p50).sort((a, b) => a - b);
  const cpu = slices.some((x) => x.cpu === null) ? null : slices.reduce((a, x) => a + x.cpu, 0);
  return {
    rps: Math.round(total / seconds),
    p50: p50s[Math.floor((p50s.length - 1) / 2)],
    p99: Math.max(...slices.map((x) => x.p99)),
    errors: slices.reduce((a, x) => a + x.errors, 0),
    cpu_us: cpu === null || !total ? null : Math.round((cpu * 1e6) / total),
  };
}

/**
 * The measured run of a scenario against Quire and against bare Fastify, cut into ROUNDS slices
 * that alternate between the two (Quire, bare, Quire, bare, ...), `duration` seconds of each in
 * all: a machine whose speed drifts during the run (other processes, a noisy host) slows both
 * alike, so their ratio holds where two back-to-back runs would disagree. Bare Fastify is warmed
 * up first with one slice, discarded (Quire's warm-up run comes before).
 */
async function interleaved(quire, bare) {
  const slice = duration / rounds;
  await cannonSlice(bare.pid, bare.url, bare.headers, undefined, bare.request, slice);
  const q = [];
  const b = [];
  for (let r = 0; r < rounds; r++) {
    q.push(await cannonSlice(quire.pid, quire.url, quire.headers, quire.cache, quire.request, slice));
    b.push(await cannonSlice(bare.pid, bare.url, bare.headers, undefined, bare.request, slice));
  }
  return { quire: mergeSlices(q), baseline: mergeSlices(b) };
}

async function seed(base, keys) {
  const M = '/api/v1/manage';
  await api(base, keys.management, 'POST', `${M}/content-types`, {
    name: 'Author',
    slug: 'author',
    display_field: 'name',
    fields: [
      { name: 'name', field_type: 'text', required: true },
      { name: 'bio', field_type: 'textarea', localizable: true },
    ],
  });
  const text = (i, lang) => ({
    nodeType: 'document',
    data: {},
    content: [{ nodeType: 'paragraph', data: {}, content: [{ nodeType: 'text', value: `${lang} body of post ${i}.`, marks: [], data: {} }] }],
  });
  await api(base, keys.management, 'POST', `${M}/content-types`, {
    name: 'Post',
    slug: 'post',
    display_field: 'title',
    fields: [
      { name: 'title', field_type: 'text', required: true, localizable: true },
      { name: 'summary', field_type: 'textarea', localizable: true },
      { name: 'body', field_type: 'rich_text', localizable: true },
      { name: 'views', field_type: 'integer', sortable: true },
      { name: 'rating', field_type: 'number' },
      { name: 'featured', field_type: 'boolean', filterable: true },
      { name: 'published_on', field_type: 'date' },
      { name: 'category', field_type: 'select', options: '["news","guides","releases"]', filterable: true },
      { name: 'website', field_type: 'url' },
      { name: 'author', field_type: 'relation', options: '["author"]' },
    ],
  });
  const authors = [];
  for (let i = 0; i < 50; i++) {
    const r = await api(base, keys.management, 'POST', `${M}/content-types/author/entries`, {
      data: { name: `Author ${i}`, bio: `Writes about topic ${i}.` },
      translations: { de: { data: { bio: `Schreibt über Thema ${i}.` } } },
    });
    authors.push(r.data);
    await api(base, keys.management, 'PATCH', `${M}/content-types/author/entries/${r.data.slug}/publish`);
  }
  const slugs = [];
  const postIds = [];
  const postData = [];
  for (let i = 0; i < 1000; i++) {
    const data = {
      title: `Post number ${i}`,
      summary: `Summary of post ${i}`,
      body: text(i, 'English'),
      views: (i * 7919) % 10000,
      rating: (i % 50) / 10,
      featured: i % 7 === 0,
      published_on: '2026-01-15',
      category: ['news', 'guides', 'releases'][i % 3],
      website: `https://example.com/posts/${i}`,
      author: authors[i % authors.length].id,
    };
    const r = await api(base, keys.management, 'POST', `${M}/content-types/post/entries`, {
      data,
      translations: { de: { data: { title: `Beitrag Nummer ${i}`, summary: `Zusammenfassung ${i}`, body: text(i, 'Deutscher') } } },
    });
    slugs.push(r.data.slug);
    postIds.push(r.data.id);
    postData.push(data);
    await api(base, keys.management, 'PATCH', `${M}/content-types/post/entries/${r.data.slug}/publish`);
  }
  await seedPage(
    base,
    keys,
    postIds.slice(0, 40),
    authors.map((a) => a.id),
  );
  await seedMegaMenu(base, keys, postIds, authors);
  return { slugs, postData };
}

/**
 * The `gql-mega-menu` scenario's content (issue 25 item 6): 30 published landing pages (an entry
 * type with a title and an author) and one published navigation entry `main` whose relation_list
 * links 60 of them: the 30 landing pages and 30 posts, alternating, each with its author.
 */
async function seedMegaMenu(base, keys, postIds, authors) {
  const M = '/api/v1/manage';
  await api(base, keys.management, 'POST', `${M}/content-types`, {
    name: 'Landing',
    slug: 'landing',
    display_field: 'title',
    fields: [
      { name: 'title', field_type: 'text', required: true, localizable: true },
      { name: 'author', field_type: 'relation', options: '["author"]' },
    ],
  });
  const landings = [];
  for (let i = 0; i < 30; i++) {
    const r = await api(base, keys.management, 'POST', `${M}/content-types/landing/entries`, {
      data: { title: `Landing ${i}`, author: authors[(i * 3) % authors.length].id },
      translations: { de: { data: { title: `Landeseite ${i}` } } },
    });
    landings.push(r.data.id);
    await api(base, keys.management, 'PATCH', `${M}/content-types/landing/entries/${r.data.slug}/publish`);
  }
  await api(base, keys.management, 'POST', `${M}/content-types`, {
    name: 'Navigation',
    slug: 'navigation',
    display_field: 'title',
    fields: [
      { name: 'title', field_type: 'text', required: true },
      { name: 'links', field_type: 'relation_list', options: '["post","landing"]' },
    ],
  });
  const links = landings.flatMap((id, i) => [id, postIds[(i * 31) % postIds.length]]);
  const nav = await api(base, keys.management, 'POST', `${M}/content-types/navigation/entries`, { slug: 'main', data: { title: 'Main menu', links } });
  await api(base, keys.management, 'PATCH', `${M}/content-types/navigation/entries/${nav.data.slug}/publish`);
}

/** GraphQL queries of the bench (issue 25 item 6). */
const GQL = {
  // The hot cached GET: a 10-post list, the same bytes every time.
  hot: '{ postCollection(first: 10, locale: "de") { nodes { sys { slug } title summary views author { name } } } }',
  // 10 posts with their authors, sent by POST (never cached): every request runs the query.
  list: 'query List($n: Int) { postCollection(first: $n, locale: "de") { nodes { sys { slug } title summary views category author { sys { slug } name bio } } } }',
  // The mega menu: one navigation entry linking 60 landing pages and posts, each with its author.
  megaMenu: `query MegaMenu { navigation(slug: "main", locale: "de") { title links {
    __typename
    ... on Landing { sys { slug } title author { name } }
    ... on Post { sys { slug } title author { name } }
  } } }`,
};

/**
 * The `page` scenario's page: 50 blocks in three levels. Five feature grids (level 1) of four
 * feature items each (level 2, relation_list to two posts), each item holding one hero (level 3,
 * relation to an author); plus a hero, a rich text, a call to action, a rich text and a call to
 * action at the root. Localizable fields carry de translations on most blocks.
 */
async function seedPage(base, keys, posts, authors) {
  const M = '/api/v1/manage';
  const blockTypes = [
    {
      name: 'Hero',
      slug: 'hero',
      is_block: true,
      fields: [
        { name: 'headline', field_type: 'text', localizable: true },
        { name: 'subline', field_type: 'textarea', localizable: true },
        { name: 'author', field_type: 'relation', options: '["author"]' },
      ],
    },
    { name: 'Rich text', slug: 'rich-text', is_block: true, fields: [{ name: 'body', field_type: 'rich_text', localizable: true }] },
    {
      name: 'Feature grid',
      slug: 'feature-grid',
      is_block: true,
      fields: [
        { name: 'title', field_type: 'text', localizable: true },
        { name: 'columns', field_type: 'integer' },
      ],
    },
    {
      name: 'Feature item',
      slug: 'feature-item',
      is_block: true,
      fields: [
        { name: 'label', field_type: 'text', localizable: true },
        { name: 'icon', field_type: 'text' },
        { name: 'posts', field_type: 'relation_list', options: '["post"]' },
      ],
    },
    {
      name: 'Call to action',
      slug: 'cta',
      is_block: true,
      fields: [
        { name: 'label', field_type: 'text', localizable: true },
        { name: 'url', field_type: 'url' },
      ],
    },
  ];
  for (const t of blockTypes) await api(base, keys.management, 'POST', `${M}/content-types`, t);
  const doc = (text) => ({
    nodeType: 'document',
    data: {},
    content: [{ nodeType: 'paragraph', data: {}, content: [{ nodeType: 'text', value: text, marks: [], data: {} }] }],
  });
  const de = (data) => ({ de: { data } });
  const grids = Array.from({ length: 5 }, (_, g) => ({
    type: 'feature-grid',
    data: { title: `Section ${g}`, columns: 4 },
    translations: de({ title: `Abschnitt ${g}` }),
    children: Array.from({ length: 4 }, (_, i) => ({
      type: 'feature-item',
      data: { label: `Feature ${g}.${i}`, icon: 'star', posts: [posts[(g * 4 + i) % posts.length], posts[(g * 4 + i + 7) % posts.length]] },
      translations: i % 2 === 0 ? de({ label: `Funktion ${g}.${i}` }) : undefined,
      children: [
        {
          type: 'hero',
          data: { headline: `Detail ${g}.${i}`, subline: 'More about it', author: authors[(g + i) % authors.length] },
          translations: de({ headline: `Einzelheit ${g}.${i}` }),
        },
      ],
    })),
  }));
  const blocks = [
    {
      type: 'hero',
      data: { headline: 'Welcome', subline: 'The benchmark page', author: authors[0] },
      translations: de({ headline: 'Willkommen', subline: 'Die Messseite' }),
    },
    {
      type: 'rich-text',
      data: { body: doc('Introduction to everything on this page.') },
      translations: de({ body: doc('Einführung in alles auf dieser Seite.') }),
    },
    ...grids.slice(0, 3),
    { type: 'cta', data: { label: 'Sign up', url: 'https://example.com/signup' }, translations: de({ label: 'Registrieren' }) },
    ...grids.slice(3),
    { type: 'rich-text', data: { body: doc('Closing words.') } },
    { type: 'cta', data: { label: 'Contact us', url: 'https://example.com/contact' } },
  ];
  const count = (list) => list.reduce((n, b) => n + 1 + count(b.children ?? []), 0);
  if (count(blocks) !== 50) throw new Error(`page scenario: expected 50 blocks, built ${count(blocks)}`);
  await api(base, keys.management, 'POST', `${M}/pages`, {
    slug: 'bench-home',
    seo: { title: 'Benchmark home', description: 'A page of 50 blocks', keywords: ['bench'] },
    seo_translations: { de: { title: 'Messseite' } },
    blocks,
  });
  await api(base, keys.management, 'PATCH', `${M}/pages/bench-home/publish`);
}

/**
 * Counts responses by their `X-Cache` header (HIT, MISS, or none) into `cache`, when given;
 * `request.method` and `request.body` (default GET without a body), `request.duration` in seconds
 * (default BENCH_DURATION).
 */
function cannon(url, headers, cache, request = {}) {
  const setupClient = cache
    ? (client) =>
        client.on('headers', ({ headers: raw }) => {
          let value = 'none';
          for (let i = 0; i < raw.length; i += 2) if (raw[i].toLowerCase() === 'x-cache') value = raw[i + 1];
          cache[value] = (cache[value] ?? 0) + 1;
        })
    : undefined;
  return new Promise((resolve, reject) => {
    autocannon(
      { url, connections, duration: request.duration ?? duration, headers, pipelining: 1, setupClient, method: request.method ?? 'GET', body: request.body },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

/**
 * The `list-put` scenario's writer: one management PUT per second on `slug` (at most twice
 * `duration`: the measured run alternates with bare Fastify's, until `stop()`), a new `views` value each time (translations absent, so kept). `stop()` resolves
 * to the count of each status code.
 */
function putLoop(base, key, slug, data) {
  const statuses = {};
  let running = true;
  let wake = () => {};
  const done = (async () => {
    const start = Date.now();
    for (let n = 0; running && n < 2 * duration + 2; n++) {
      let status;
      try {
        const res = await fetch(`${base}/api/v1/manage/content-types/post/entries/${slug}`, {
          method: 'PUT',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({ data: { ...data, views: 100_000 + n } }),
        });
        await res.arrayBuffer();
        status = res.status;
      } catch {
        status = 'error';
      }
      statuses[status] = (statuses[status] ?? 0) + 1;
      const wait = start + (n + 1) * 1000 - Date.now();
      if (running && wait > 0) await new Promise((r) => setTimeout((wake = r), wait));
    }
    return statuses;
  })();
  return {
    stop: () => {
      running = false;
      wake();
      return done;
    },
  };
}

/** One request (GET unless `method`) with raw (undecoded) body bytes: `{ status, headers, bytes }`. */
function rawRequest(url, headers, method = 'GET', body = undefined) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: keepAlive }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** BENCH_BARE=body: the bare server sends the body with a content type only (the baseline before cache tags). */
const bareBodyOnly = process.env.BENCH_BARE === 'body';
/** Headers every server makes for itself, left out of the bare server's copy of Quire's answer. */
const OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'x-request-id']);

/** Quire's response headers as the bare server repeats them. */
function sameHeaders(headers) {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !OWN_HEADERS.has(name)));
}

/**
 * `n` requests one after the other on one kept-alive connection, each timed from sending to the
 * last byte: p50, p90, p99 and mean in ms. A first pass of `n` requests is discarded, as the other
 * scenarios discard a warm-up run: the server has compiled the query's code paths and collected
 * the garbage of the run before, so the figures are the steady server's, not its warm-up.
 */
async function sequential(url, headers, method, body, n, pid) {
  for (let i = 0; i < n; i++) await rawRequest(url, headers, method, body);
  const before = cpuSeconds(pid);
  const times = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    const res = await rawRequest(url, headers, method, body);
    times.push(performance.now() - start);
    if (res.status !== 200) throw new Error(`${url} → ${res.status} ${res.bytes}`);
  }
  const after = cpuSeconds(pid);
  times.sort((a, b) => a - b);
  const at = (q) => +times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(2);
  return {
    requests: n,
    p50_ms: at(0.5),
    p90_ms: at(0.9),
    p99_ms: at(0.99),
    mean_ms: +(times.reduce((a, b) => a + b, 0) / n).toFixed(2),
    cpu_ms: before === null || after === null ? null : +(((after - before) * 1000) / n).toFixed(3),
  };
}

/**
 * Mean CPU µs of `fn()` (this process's user + system time, which other processes on a busy
 * machine disturb far less than wall time), over enough runs to use about 300 ms of CPU.
 */
function micros(fn) {
  for (let i = 0; i < 3; i++) fn();
  let runs = 0;
  const start = process.cpuUsage();
  let used = 0;
  while (used < 300_000) {
    fn();
    runs += 1;
    const now = process.cpuUsage(start);
    used = now.user + now.system;
  }
  return Math.round((used / runs) * 10) / 10;
}

/** Sizes and compression costs of the bodies the compression scenarios serve (D81). */
function compressionTable(bodies) {
  const rows = [];
  for (const [name, body] of Object.entries(bodies)) {
    rows.push({ body: name, coding: 'identity', bytes: body.length, us: 0 });
    for (const q of [1, 4, 5, 6, 11]) {
      const params = {
        [zlib.constants.BROTLI_PARAM_QUALITY]: q,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      };
      rows.push({
        body: name,
        coding: `br q${q}`,
        bytes: zlib.brotliCompressSync(body, { params }).length,
        us: micros(() => zlib.brotliCompressSync(body, { params })),
      });
    }
    for (const level of [1, 6, 9]) {
      rows.push({ body: name, coding: `gzip ${level}`, bytes: zlib.gzipSync(body, { level }).length, us: micros(() => zlib.gzipSync(body, { level })) });
    }
  }
  return rows;
}

async function startBare(body, encoding, headers = null) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-bare-'));
  const file = path.join(dir, 'body.json');
  fs.writeFileSync(file, body);
  const script = `
    import Fastify from 'fastify';
    import fs from 'node:fs';
    const body = fs.readFileSync(${JSON.stringify(file)});
    const app = Fastify({ logger: false });
    const encoding = ${JSON.stringify(encoding ?? null)};
    const headers = ${JSON.stringify(headers)};
    const handler = async (req, reply) => {
      if (headers) return reply.headers(headers).send(body);
      if (encoding) reply.header('content-encoding', encoding).header('vary', 'Accept-Encoding');
      return reply.type('application/json; charset=utf-8').send(body);
    };
    app.get('/*', handler);
    app.post('/*', handler);
    await app.listen({ port: 0, host: '127.0.0.1' });
    console.log('BARE_LISTENING ' + app.server.address().port);
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const [, port] = await waitForLine(child, /BARE_LISTENING (\d+)/);
  return { child, base: `http://127.0.0.1:${port}` };
}

/**
 * What history costs (D72): stored snapshot bytes of the posts' versions (mean and max), of the
 * 50-block page's newest version, and the versions of `slug` (the list-put writer's entry).
 */
async function versionSizes(config, createDb, slug) {
  const db = await createDb(config);
  try {
    const { sql } = await import('kysely');
    const bytes = db.dialect === 'postgres' ? (c) => sql`octet_length(${sql.ref(c)}::text)` : (c) => sql`length(cast(${sql.ref(c)} as blob))`;
    const posts = await sql`select avg(${bytes('v.snapshot')}) as mean, max(${bytes('v.snapshot')}) as max, count(*) as n
      from entry_versions v join entries e on e.id = v.entry_id join content_types ct on ct.id = e.content_type_id where ct.slug = 'post'`.execute(db.kysely);
    const page = await sql`select ${bytes('v.snapshot')} as size, v.version as version from page_versions v join pages p on p.id = v.page_id
      where p.slug = 'bench-home' order by v.version desc limit 1`.execute(db.kysely);
    const written = slug
      ? await sql`select v.version as version, v.action as action from entry_versions v join entries e on e.id = v.entry_id where e.slug = ${slug} order by v.version`.execute(
          db.kysely,
        )
      : { rows: [] };
    const p = posts.rows[0];
    return {
      post_version_bytes_mean: Math.round(Number(p.mean)),
      post_version_bytes_max: Number(p.max),
      post_versions: Number(p.n),
      page_50_blocks_version_bytes: Number(page.rows[0]?.size ?? 0),
      list_put_entry_versions: written.rows.map((r) => `${r.version}:${r.action}`).join(' '),
    };
  } finally {
    await db.close();
  }
}

async function main() {
  if (!fs.existsSync(path.join(root, 'dist/src/server.js'))) throw new Error('run `npm run build` first (npm run bench does)');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-'));
  const port = 30000 + Math.floor(Math.random() * 20000);
  const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', QUIRE_DEMO: '0', RATE_LIMIT_MANAGEMENT: '0' };
  delete env.DATABASE_URL;
  if (process.env.BENCH_DATABASE_URL) env.DATABASE_URL = process.env.BENCH_DATABASE_URL;

  const { bootstrap } = await import(path.join(root, 'dist/src/modules/auth/operations.js'));
  const { loadConfig } = await import(path.join(root, 'dist/src/config.js'));
  const { createDb } = await import(path.join(root, 'dist/src/db/create-db.js'));
  const { createContext } = await import(path.join(root, 'dist/src/context.js'));
  const config = loadConfig(env);
  const db = await createDb(config);
  const ctx = await createContext(config, db);
  const keys = (await bootstrap(ctx, { slug: `bench-${Date.now()}`, name: 'Bench', default_locale: 'en', locales: ['en', 'de'] })).keys;
  await db.close();

  const server = spawn(process.execPath, [...serverFlags(root), path.join(root, 'dist/src/server.js')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitReady(base, 200);
    const t0 = Date.now();
    const { slugs, postData } = await seed(base, keys);
    console.log(
      `seeded 50 authors + 1,000 posts + a 50-block page in ${((Date.now() - t0) / 1000).toFixed(1)} s (${config.databaseUrl ? 'postgres' : 'sqlite'})`,
    );

    const scenarios = [
      { name: 'list', url: '/api/v1/public/entries?type=post&limit=10&locale=de' },
      { name: 'list-put', url: '/api/v1/public/entries?type=post&limit=10&locale=de', puts: true },
      { name: 'slug', url: `/api/v1/public/entries/${slugs[500]}?type=post&locale=de` },
      { name: 'page', url: '/api/v1/public/pages/bench-home?locale=de' },
      { name: 'list5', url: '/api/v1/public/entries?type=post&limit=5&locale=de' },
      { name: 'list5-br', url: '/api/v1/public/entries?type=post&limit=5&locale=de', encoding: 'br' },
      { name: 'list5-gzip', url: '/api/v1/public/entries?type=post&limit=5&locale=de', encoding: 'gzip' },
      { name: 'gql-hot', url: `/api/v1/public/graphql?query=${encodeURIComponent(GQL.hot)}` },
      { name: 'gql-list', url: '/api/v1/public/graphql', method: 'POST', body: JSON.stringify({ query: GQL.list, variables: { n: 10 } }) },
      {
        name: 'gql-mega-menu',
        url: '/api/v1/public/graphql',
        method: 'POST',
        body: JSON.stringify({ query: GQL.megaMenu }),
        sequential: Number(process.env.BENCH_SEQUENTIAL ?? 100),
      },
    ].filter((s) => !only || only.has(s.name));

    const seedingPeak = peakRssMiB(server.pid);
    const servingOnly = resetPeakRss(server.pid);
    const rows = [];
    const cacheCounts = {};
    let putSlug = null;
    const bodies = {};
    const sequentialRows = [];
    for (const s of scenarios) {
      const headers = {
        'x-api-key': keys.delivery,
        ...(s.encoding ? { 'accept-encoding': s.encoding } : {}),
        ...(s.body ? { 'content-type': 'application/json' } : {}),
      };
      const sample = await rawRequest(base + s.url, headers, s.method, s.body);
      const bytes = sample.bytes;
      if (sample.status !== 200) throw new Error(`${s.url} → ${sample.status} ${bytes}`);
      if (s.name.startsWith('gql-') && JSON.parse(bytes).errors) throw new Error(`${s.name}: ${bytes}`);
      if (s.sequential) {
        const quire = await sequential(base + s.url, headers, s.method, s.body, s.sequential, server.pid);
        // The same loop against bare Fastify sending the same bytes: what the client, the
        // connection and the machine cost on their own in this run.
        const bare = await startBare(bytes, null, sameHeaders(sample.headers));
        let baseline;
        try {
          baseline = await sequential(bare.base + s.url, { 'content-type': 'application/json' }, s.method, s.body, s.sequential, bare.child.pid);
        } finally {
          bare.child.kill();
        }
        sequentialRows.push({ scenario: s.name, bytes: bytes.length, ...quire, bare_p50_ms: baseline.p50_ms, bare_cpu_ms: baseline.cpu_ms });
        continue;
      }
      if ((sample.headers['content-encoding'] ?? null) !== (s.encoding ?? null)) {
        throw new Error(`${s.name}: asked for ${s.encoding ?? 'identity'}, got content-encoding ${sample.headers['content-encoding']}`);
      }
      if (s.name === 'list5' || s.name === 'page') bodies[s.name === 'list5' ? '5-post list' : '50-block page'] = bytes;
      await cannon(base + s.url, headers, undefined, s); // warm-up run, discarded
      const cache = {};
      let writer = null;
      if (s.puts) {
        const slug = JSON.parse(bytes).data[0].slug;
        putSlug = slug;
        writer = putLoop(base, keys.management, slug, postData[slugs.indexOf(slug)]);
      }
      // The same bytes: the body, and (unless BENCH_BARE=body) the headers Quire answered with,
      // but for those each server makes itself (date, connection, length, its request id).
      const bare = await startBare(bytes, s.encoding, bareBodyOnly ? null : sameHeaders(sample.headers));
      let quire;
      let baseline;
      let puts;
      try {
        ({ quire, baseline } = await interleaved(
          { pid: server.pid, url: base + s.url, headers, cache, request: s },
          { pid: bare.child.pid, url: bare.base + s.url, headers: s.body ? { 'content-type': 'application/json' } : {}, request: s },
        ));
      } finally {
        puts = writer && (await writer.stop());
        bare.child.kill();
      }
      const counted = Object.values(cache).reduce((a, b) => a + b, 0);
      cacheCounts[s.name] = cache;
      rows.push({
        scenario: s.name,
        encoding: s.encoding ?? 'identity',
        bytes: bytes.length,
        ...quire,
        bare_rps: baseline.rps,
        ratio: +(quire.rps / baseline.rps).toFixed(3),
        bare_cpu_us: baseline.cpu_us,
        cpu_ratio: quire.cpu_us && baseline.cpu_us ? +(baseline.cpu_us / quire.cpu_us).toFixed(3) : null,
        hit_rate: counted ? +((cache.HIT ?? 0) / counted).toFixed(4) : null,
        ...(puts ? { puts: Object.values(puts).reduce((a, b) => a + b, 0), put_statuses: JSON.stringify(puts) } : {}),
      });
    }
    const rss = peakRssMiB(server.pid);
    const history = await versionSizes(config, createDb, putSlug);
    const mib = (v) => (v === null ? 'n/a' : `${v.toFixed(1)} MiB`);
    console.log(`\nQuire delivery benchmark: ${connections} connections, ${duration} s per run, ${os.cpus().length} cores, node ${process.version}`);
    console.table(rows);
    if (sequentialRows.length) {
      console.log(
        "GraphQL mega menu: one navigation entry linking 60 landing pages and posts, each with its author; sequential uncached POSTs (cpu_ms: the server's CPU per request; bare_*: bare Fastify sending the same bytes in the same loop)",
      );
      console.table(sequentialRows);
    }
    console.log(
      `Quire server peak RSS: ${mib(rss)} ${servingOnly ? 'while serving the runs above' : 'over its whole life'}; ${mib(seedingPeak)} up to the end of seeding`,
    );
    console.log(
      `history: a post's version stores ${history.post_version_bytes_mean} bytes on average (max ${history.post_version_bytes_max}, ${history.post_versions} versions), the 50-block page's ${history.page_50_blocks_version_bytes} bytes; list-put entry versions: ${history.list_put_entry_versions || 'n/a'}`,
    );
    console.log(
      `hit_rate: share of responses carrying X-Cache: HIT (delivery cache) during the measured run; list-put: one management PUT per second on the list's first entry meanwhile`,
    );
    console.log(
      `cpu_us: the server's CPU µs per request during the run (bare_cpu_us: the bare Fastify server's); cpu_ratio = bare_cpu_us / cpu_us (1: as cheap as bare Fastify), steadier than the req/s ratio on a busy machine`,
    );
    const compression = Object.keys(bodies).length ? compressionTable(bodies) : [];
    if (compression.length) {
      console.log('\nDelivery bodies by content-coding (the server sends br quality 4 and gzip level 6); us: CPU µs per compression in this process');
      console.table(compression);
    }
    console.log(
      JSON.stringify({
        results: rows,
        sequential: sequentialRows,
        compression,
        cache: cacheCounts,
        peak_rss_mib: rss,
        peak_rss_scope: servingOnly ? 'serving' : 'lifetime',
        seeding_peak_rss_mib: seedingPeak,
        history,
      }),
    );
  } finally {
    server.kill('SIGTERM');
  }
}

main().catch((err) => {
  console.error(`bench failed: ${err.message}`);
  process.exit(1);
});
