/**
 * A PostgreSQL backend killed while it serves a request (what a failover or a server restart
 * does, issue 8): the request fails alone with 503 SERVICE_UNAVAILABLE and `Retry-After`, the
 * process stays up, the pool replaces the connection and the next write succeeds. Runs a real
 * server in a child process, so that a crash shows as a dead process instead of a dead test run.
 * The server connects as a role of its own, so the suite can also take the database away from it
 * (CONNECTION LIMIT 0 and its backends terminated) and give it back: `/readyz` reports the
 * outage, writes answer 503, and afterwards requests and the scheduled-publishing job resume.
 * PostgreSQL only (SQLite has no backends to kill).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChildServer, type ChildServer } from './child-server.js';

const url = process.env.DATABASE_URL;

describe.runIf(url)('a killed PostgreSQL backend', () => {
  const schema = `t_fault_${randomBytes(5).toString('hex')}`;
  let server: ChildServer;
  let base: string;
  let keys: { management: string };
  let admin: pg.Client;

  beforeAll(async () => {
    // The server's connections carry the schema as application_name: other suites share this
    // database in parallel, and only this server's backends may be killed.
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE ROLE "${schema}" LOGIN`);
    await admin.query(`CREATE SCHEMA "${schema}" AUTHORIZATION "${schema}"`);
    await admin.query(`GRANT CREATE ON DATABASE "${admin.database}" TO "${schema}"`);
    await admin.query(`SET search_path = "${schema}"`);
    const tagged = new URL(url!);
    tagged.username = schema;
    tagged.searchParams.set('application_name', schema);
    server = await startChildServer(schema, {
      DATABASE_URL: tagged.toString(),
      SCHEDULER_INTERVAL_MS: '200',
      DB_STATEMENT_TIMEOUT_MS: '6000',
      FAULT_BOOTSTRAP: '1',
    });
    base = server.base;
    keys = server.keys!;
  });
  afterAll(async () => {
    server?.process.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 200));
    if (admin) {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
      await admin.query(`REVOKE CREATE ON DATABASE "${admin.database}" FROM "${schema}"`).catch(() => {});
      await admin.query(`DROP ROLE IF EXISTS "${schema}"`).catch(() => {});
      await admin.end();
    }
  });

  /** Terminates this server's backend that waits on a lock (polling up to 5 s for it to wait). */
  const killWaitingBackend = async () => {
    let victim: number | undefined;
    for (let i = 0; i < 100 && victim === undefined; i++) {
      const r = await admin.query(`SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`, [schema]);
      victim = r.rows[0]?.pid;
      if (victim === undefined) await new Promise((res) => setTimeout(res, 50));
    }
    expect(victim).toBeDefined();
    await admin.query('SELECT pg_terminate_backend($1)', [victim]);
  };

  /**
   * Runs `request` while the admin holds a lock (`lockSql`, in a transaction) that makes it wait
   * inside its statement, kills the waiting backend, and returns the request's answer.
   */
  const killedUnder = async <T>(lockSql: string, request: () => Promise<T>): Promise<T> => {
    await admin.query('BEGIN');
    try {
      await admin.query(lockSql);
      const pending = request();
      await killWaitingBackend();
      return await pending;
    } finally {
      await admin.query('ROLLBACK');
    }
  };

  const api = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(base + p, {
      method,
      headers: { 'x-api-key': keys.management, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, headers: res.headers, body: await res.json().catch(() => null) };
  };

  it('fails only the request inside the killed transaction, with 503 and Retry-After; the process and the next write live on', async () => {
    expect((await api('POST', '/api/v1/manage/content-types', { name: 'Post', fields: [{ name: 'title', field_type: 'text' }] })).status).toBe(201);
    expect((await api('POST', '/api/v1/manage/content-types/post/entries', { slug: 'one', data: { title: 'One' } })).status).toBe(201);

    // Hold the content type's row so that the next write waits inside its transaction.
    const failed = await killedUnder(`SELECT id FROM content_types WHERE slug = 'post' FOR UPDATE`, () =>
      api('PUT', '/api/v1/manage/content-types/post/entries/one', { data: { title: 'Two' } }),
    );

    expect(failed.status).toBe(503);
    expect(failed.body).toMatchObject({ success: false, code: 'SERVICE_UNAVAILABLE', data: null });
    expect(Number(failed.headers.get('retry-after'))).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 100));
    expect(server.exitCode()).toBeUndefined();
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    // Nothing of the failed write remains; the same write now succeeds.
    const entry = await api('GET', '/api/v1/manage/content-types/post/entries/one');
    expect(JSON.parse(entry.body.data.data).title).toBe('One');
    const retried = await api('PUT', '/api/v1/manage/content-types/post/entries/one', { data: { title: 'Two' } });
    expect(retried.status).toBe(200);
  });

  it('fails only a read whose backend is killed under it, with 503; the next read is served', async () => {
    // An exclusive lock makes the read wait inside its statement, where it is killed.
    const failed = await killedUnder('LOCK TABLE entries IN ACCESS EXCLUSIVE MODE', () => api('GET', '/api/v1/manage/content-types/post/entries'));
    expect(failed.status).toBe(503);
    expect(failed.body).toMatchObject({ success: false, code: 'SERVICE_UNAVAILABLE' });
    expect(server.exitCode()).toBeUndefined();
    expect((await api('GET', '/api/v1/manage/content-types/post/entries')).status).toBe(200);
  });

  it('survives backends killed while idle in the pool', async () => {
    const killed = await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`, [schema]);
    expect(killed.rowCount).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 200));
    expect(server.exitCode()).toBeUndefined();
    // A pooled connection that died idle may fail one request; the next ones are served.
    for (let i = 0; i < 3; i++) await api('GET', '/api/v1/manage/content-types');
    expect((await api('GET', '/api/v1/manage/content-types')).status).toBe(200);
  });

  it('bounds a statement by DB_STATEMENT_TIMEOUT_MS: a write stuck behind a lock answers 503 and writes nothing', async () => {
    await admin.query('BEGIN');
    await admin.query(`SELECT id FROM content_types WHERE slug = 'post' FOR UPDATE`);
    const started = Date.now();
    const stuck = await api('PUT', '/api/v1/manage/content-types/post/entries/one', { data: { title: 'Stuck' } }).finally(() => admin.query('ROLLBACK'));
    expect(stuck.status).toBe(503);
    expect(stuck.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: 'The database is busy; retry shortly' });
    expect(Number(stuck.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(12_000);
    const entry = await api('GET', '/api/v1/manage/content-types/post/entries/one');
    expect(JSON.parse(entry.body.data.data).title).toBe('Two');
  });

  it('reports the database down on /readyz while it is, answers 503, then resumes requests and scheduled publishing', async () => {
    expect((await api('POST', '/api/v1/manage/content-types/post/entries', { slug: 'later', data: { title: 'Later' } })).status).toBe(201);
    const publishAt = new Date(Date.now() + 1500).toISOString();
    expect((await api('PATCH', '/api/v1/manage/content-types/post/entries/later/schedule', { publish_at: publishAt })).status).toBe(200);
    const stored = async () => (await admin.query(`SELECT status FROM entries WHERE slug = 'later'`)).rows[0].status;

    // The database goes away: no new connection for this server, its current ones killed.
    await admin.query(`ALTER ROLE "${schema}" CONNECTION LIMIT 0`);
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1', [schema]);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ success: false, code: 'SERVICE_UNAVAILABLE', data: null });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const write = await api('PUT', '/api/v1/manage/content-types/post/entries/one', { data: { title: 'While down' } });
    expect(write.status).toBe(503);
    expect(write.body).toMatchObject({ success: false, code: 'SERVICE_UNAVAILABLE' });
    expect(Number(write.headers.get('retry-after'))).toBeGreaterThan(0);
    // publish_at passes while the job cannot reach the database.
    while (Date.now() < Date.parse(publishAt) + 600) await new Promise((r) => setTimeout(r, 100));
    expect(await stored()).toBe('scheduled');
    expect(server.exitCode()).toBeUndefined();

    // Back: readiness, requests and the job resume without a restart.
    await admin.query(`ALTER ROLE "${schema}" CONNECTION LIMIT -1`);
    const until = async (check: () => Promise<boolean>) => {
      for (let i = 0; i < 100; i++)
        if (await check()) return true;
        else await new Promise((r) => setTimeout(r, 100));
      return false;
    };
    expect(await until(async () => (await fetch(`${base}/readyz`)).status === 200)).toBe(true);
    expect(await until(async () => (await stored()) === 'published')).toBe(true);
    const versions = await admin.query(
      `SELECT count(*)::int AS n FROM entry_versions v JOIN entries e ON e.id = v.entry_id WHERE e.slug = 'later' AND v.action = 'publish'`,
    );
    expect(versions.rows[0].n).toBe(1);
    expect((await api('PUT', '/api/v1/manage/content-types/post/entries/one', { data: { title: 'Back' } })).status).toBe(200);
    expect(server.exitCode()).toBeUndefined();
  });

  it('publishes every due item exactly once while its backends are killed again and again during scheduler runs', async () => {
    const slugs = Array.from({ length: 12 }, (_, i) => `due-${i}`);
    for (const slug of slugs) {
      expect((await api('POST', '/api/v1/manage/content-types/post/entries', { slug, data: { title: slug } })).status).toBe(201);
    }
    // Far enough ahead that twelve schedule requests on a loaded machine still name a future time.
    const publishAt = new Date(Date.now() + 3000).toISOString();
    for (const slug of slugs) {
      expect((await api('PATCH', `/api/v1/manage/content-types/post/entries/${slug}/schedule`, { publish_at: publishAt })).status).toBe(200);
    }
    // Kill every backend of the server every 60 ms around publish_at, while the job runs every 200 ms.
    const until = Date.parse(publishAt) + 1500;
    while (Date.now() < until) {
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1', [schema]);
      await new Promise((r) => setTimeout(r, 60));
    }
    expect(server.exitCode()).toBeUndefined();
    const published = async () => (await admin.query(`SELECT count(*)::int AS n FROM entries WHERE slug LIKE 'due-%' AND status = 'published'`)).rows[0].n;
    for (let i = 0; i < 100 && (await published()) < slugs.length; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await published()).toBe(slugs.length);
    const versions = await admin.query(
      `SELECT e.slug, count(*)::int AS n FROM entry_versions v JOIN entries e ON e.id = v.entry_id WHERE e.slug LIKE 'due-%' AND v.action = 'publish' GROUP BY e.slug`,
    );
    expect(versions.rows.map((r) => r.n)).toEqual(slugs.map(() => 1));
    const live = await fetch(`${base}/readyz`);
    expect(live.status).toBe(200);
  });
});
