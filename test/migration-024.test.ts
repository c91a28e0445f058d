/**
 * Migration 024 recomputes `has_pending_changes` of existing rows from content (D70; issue 27
 * item 4), on SQLite and PostgreSQL. Rows are written through the API and their flags then set
 * as the code before it left them (any content write to a published item set the flag, only a
 * state change cleared it): a published entry and page typed back to their published content
 * lose the flag, one whose working copy really differs keeps it (and gets it when it was
 * missing), a draft never has it, and a published item that was never edited stays clean.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up } from '../src/db/migrations/024-pending-changes.js';
import { createTestEnv, dialects, type Res, type TestEnv } from './helpers.js';
import { createPageWorld, type PageWorld } from './pages-fixtures.js';

describe.each(dialects())('migration 024 on %s', (dialect) => {
  let env: TestEnv;
  let w: PageWorld;

  const ok = async (res: Promise<Res>, status = 200): Promise<any> => {
    const r = await res;
    if (r.status !== status) throw new Error(`expected ${status}, got ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.data;
  };
  const article = (slug: string) => `/content-types/article/entries/${slug}`;
  const setFlag = (table: 'entries' | 'pages', slug: string, value: 0 | 1) =>
    sql`update ${sql.table(table)} set has_pending_changes = ${value} where slug = ${slug} and workspace_id = ${w.workspaceId}`.execute(env.ctx.db.kysely);
  const flags = async (table: 'entries' | 'pages') => {
    const rows = (
      await sql<{ slug: string; has_pending_changes: number; version: number }>`
        select slug, has_pending_changes, version from ${sql.table(table)} where workspace_id = ${w.workspaceId} order by slug`.execute(env.ctx.db.kysely)
    ).rows;
    return Object.fromEntries(rows.map((r) => [r.slug, Boolean(Number(r.has_pending_changes))]));
  };
  const hero = (headline: string) => [{ type: 'hero', data: { headline } }];

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    w = await createPageWorld(env.ctx, env.app);
  });
  afterAll(async () => env?.close());

  it('sets the flag of each published entry and page from its newest and published versions, and clears it elsewhere', async () => {
    // Entries: typed back, really changed, never edited, a draft.
    await w.article('typed-back', 'Original', 'Ursprung');
    await ok(
      w.req('PUT', article('typed-back'), { data: { title: 'Edited', summary: 'About Original' }, translations: { de: { data: { title: 'Ursprung' } } } }),
    );
    await ok(
      w.req('PUT', article('typed-back'), { data: { title: 'Original', summary: 'About Original' }, translations: { de: { data: { title: 'Ursprung' } } } }),
    );
    await w.article('changed', 'Before', 'Vorher');
    await ok(w.req('PUT', article('changed'), { data: { title: 'After', summary: 'About Before' }, translations: { de: { data: { title: 'Vorher' } } } }));
    await w.article('untouched', 'Same');
    await ok(w.req('POST', '/content-types/article/entries', { slug: 'draft', data: { title: 'Draft' } }), 201);
    // Pages: typed back, really changed.
    for (const slug of ['page-back', 'page-changed']) {
      await ok(w.req('POST', '/pages', { slug, seo: { title: 'T' }, blocks: hero('Hello') }), 201);
      await ok(w.req('PATCH', `/pages/${slug}/publish`));
    }
    const kept = [{ id: (await ok(w.req('GET', '/pages/page-back'))).blocks[0].id, type: 'hero', data: { headline: 'Hello' } }];
    await ok(w.req('PUT', '/pages/page-back', { seo: { title: 'T2' }, blocks: kept }));
    await ok(w.req('PUT', '/pages/page-back', { seo: { title: 'T' }, blocks: kept }));
    // A PUT without block ids replaces the tree with new blocks: the same text is then other content.
    await ok(w.req('PUT', '/pages/page-changed', { seo: { title: 'T' }, blocks: hero('Hello') }));

    // The flags as the code before migration 024 left them.
    await setFlag('entries', 'typed-back', 1);
    await setFlag('entries', 'changed', 0);
    await setFlag('entries', 'draft', 1);
    await setFlag('pages', 'page-back', 1);
    await setFlag('pages', 'page-changed', 1);
    const versionsBefore = (
      await sql<{ slug: string; version: number }>`select slug, version from entries where workspace_id = ${w.workspaceId} order by slug`.execute(
        env.ctx.db.kysely,
      )
    ).rows;

    await up(env.ctx.db.kysely as unknown as Kysely<unknown>, dialect);

    expect(await flags('entries')).toEqual({ changed: true, draft: false, 'typed-back': false, untouched: false });
    expect(await flags('pages')).toEqual({ 'page-back': false, 'page-changed': true });
    // Only the flag changes: ETags stay.
    expect(
      (
        await sql<{ slug: string; version: number }>`select slug, version from entries where workspace_id = ${w.workspaceId} order by slug`.execute(
          env.ctx.db.kysely,
        )
      ).rows,
    ).toEqual(versionsBefore);
    // What the API answers follows.
    expect((await ok(w.req('GET', article('typed-back')))).has_pending_changes).toBe(false);
    expect((await ok(w.req('GET', '/pages/page-back'))).page.has_pending_changes).toBe(false);

    // Running it again changes nothing.
    await up(env.ctx.db.kysely as unknown as Kysely<unknown>, dialect);
    expect(await flags('entries')).toEqual({ changed: true, draft: false, 'typed-back': false, untouched: false });
  });
});
