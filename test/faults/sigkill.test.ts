/**
 * SIGKILL during writes (issue 8): a server in its own process takes a stream of concurrent
 * writes (entries created, published and updated, each body derived from its slug so any stored
 * row can be checked), is killed with SIGKILL mid-stream, and is started again on the same
 * database. Every acknowledged write is back, whole; every row present (acknowledged or caught
 * in flight) is whole and has its versions; SQLite's file passes integrity_check. Both databases.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { dialects } from '../helpers.js';
import { startChildServer, type ChildServer } from './child-server.js';

/** The content a slug's entry is written with: anything stored can be checked against it. */
const bodyOf = (slug: string, round: number) => `${slug}:${round}:${'x'.repeat(2000 + ((slug.length * 997 + round * 131) % 20_000))}`;

describe.each(dialects())('SIGKILL during writes on %s', (dialect) => {
  const name = `t_kill_${randomBytes(5).toString('hex')}`;
  const dataDir = path.join(os.tmpdir(), `quire-kill-${randomBytes(4).toString('hex')}`);
  const env: Record<string, string> =
    dialect === 'postgres' ? { DATABASE_URL: process.env.DATABASE_URL!, DATA_DIR: dataDir } : { DATABASE_URL: '', DATA_DIR: dataDir };
  const target = dialect === 'postgres' ? name : 'sqlite';
  let server: ChildServer | undefined;

  afterAll(async () => {
    server?.process.kill('SIGKILL');
    if (dialect === 'postgres') {
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`).catch(() => {});
      await admin.end();
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged write whole through SIGKILL and a restart', async () => {
    server = await startChildServer(target, { ...env, FAULT_BOOTSTRAP: '1' });
    const key = server.keys!.management;
    const api = async (base: string, method: string, p: string, body?: unknown) => {
      const res = await fetch(base + p, {
        method,
        headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, body: (await res.json().catch(() => null)) as any };
    };
    expect(
      (
        await api(server.base, 'POST', '/api/v1/manage/content-types', {
          name: 'Note',
          fields: [
            { name: 'title', field_type: 'text' },
            { name: 'body', field_type: 'textarea' },
          ],
        })
      ).status,
    ).toBe(201);

    /** slug → the highest round acknowledged; published slugs. */
    const acked = new Map<string, number>();
    const published = new Set<string>();
    let stop = false;
    const writer = async (w: number) => {
      const base = server!.base;
      for (let i = 0; !stop; i++) {
        const slug = `w${w}-n${i}`;
        try {
          const created = await api(base, 'POST', '/api/v1/manage/content-types/note/entries', { slug, data: { title: slug, body: bodyOf(slug, 0) } });
          if (created.status !== 201) continue;
          acked.set(slug, 0);
          if (i % 3 === 0 && (await api(base, 'PATCH', `/api/v1/manage/content-types/note/entries/${slug}/publish`)).status === 200) published.add(slug);
          if (
            i % 2 === 0 &&
            (await api(base, 'PUT', `/api/v1/manage/content-types/note/entries/${slug}`, { data: { title: slug, body: bodyOf(slug, 1) } })).status === 200
          )
            acked.set(slug, 1);
        } catch {
          return; // the server is gone
        }
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    // Let the writes flow, then kill the server in the middle of them.
    while (acked.size < 40) await new Promise((r) => setTimeout(r, 20));
    server.process.kill('SIGKILL');
    stop = true;
    await Promise.all(writers);
    await new Promise<void>((resolve) => (server!.exitCode() !== undefined ? resolve() : server!.process.on('exit', () => resolve())));

    server = await startChildServer(target, env);
    const all = [];
    for (let page = 1; ; page++) {
      const res = await api(server.base, 'GET', `/api/v1/manage/content-types/note/entries?limit=100&page=${page}`);
      expect(res.status).toBe(200);
      all.push(...res.body.data);
      if (page >= res.body.meta.total_pages) break;
    }
    const stored = new Map(all.map((e: any) => [e.slug, e]));
    // Every acknowledged write is there, at least as new as acknowledged.
    for (const [slug, round] of acked) {
      const e = stored.get(slug);
      expect(e, slug).toBeDefined();
      const data = JSON.parse(e.data);
      expect([bodyOf(slug, round), bodyOf(slug, round + 1)]).toContain(data.body);
      if (published.has(slug)) expect(e.status).toBe('published');
    }
    // Every stored row, acknowledged or caught in flight, is whole and has its history.
    for (const e of all) {
      const data = JSON.parse(e.data);
      expect([bodyOf(e.slug, 0), bodyOf(e.slug, 1)]).toContain(data.body);
      const versions = await api(server.base, 'GET', `/api/v1/manage/content-types/note/entries/${e.slug}/versions`);
      expect(versions.status).toBe(200);
      expect(versions.body.meta.total_data).toBeGreaterThanOrEqual(1);
    }
    // The restarted server takes writes.
    expect(
      (await api(server.base, 'POST', '/api/v1/manage/content-types/note/entries', { slug: 'after', data: { title: 'after', body: 'after' } })).status,
    ).toBe(201);
    server.process.kill('SIGTERM');
    await new Promise<void>((resolve) => server!.process.on('exit', () => resolve()));
    server = undefined;
    if (dialect === 'sqlite') {
      const major = Number(process.versions.node.split('.')[0]);
      const mod = major >= 22 ? await import('better-sqlite3-napi') : await import('better-sqlite3');
      const Sqlite = ((mod as { default?: unknown }).default ?? mod) as typeof import('better-sqlite3');
      const file = new Sqlite(path.join(dataDir, 'quire.db'), { readonly: true });
      try {
        expect(file.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(file.pragma('foreign_key_check')).toEqual([]);
      } finally {
        file.close();
      }
    }
    // Two server starts and a write stream: about 20 s on an idle machine, more on a busy CI runner.
  }, 90_000);
});
