/**
 * Many published entries of one content type written in one statement, for suites that need a big
 * table (index builds, slow reads): `count` rows whose working copy and published version are
 * `{title: "Entry <i>", views: <i mod 1000>, ...extra(i)}`, slugs `bulk-<i>`, ids made from a
 * random prefix and `i`. On SQLite the row triggers (revisions, entry counters) run as for any
 * write. On PostgreSQL they are switched off for the statement (session_replication_role), which
 * saves a minute per 200,000 rows, and their effect is written once afterwards: the counters and
 * one revision bump.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../src/db/types.js';

export interface BulkEntriesOptions {
  workspaceId: string;
  contentTypeId: string;
  userId: number;
  count: number;
  /**
   * More keys of each entry's data as SQL over the row number `i` (an integer), by key: e.g.
   * `{ code: "'c' || (i % 10)" }` (text concatenation is `||` on both databases). Trusted SQL.
   */
  extra?: Record<string, string>;
}

/** Writes the entries; returns how long it took in ms. */
export async function insertBulkEntries(db: Db, o: BulkEntriesOptions): Promise<number> {
  const started = Date.now();
  const prefix = randomBytes(4).toString('hex');
  const now = new Date().toISOString();
  const pairs = [`'title', 'Entry ' || i`, `'views', i % 1000`, ...Object.entries(o.extra ?? {}).map(([k, v]) => `'${k}', ${v}`)].join(', ');
  if (db.dialect === 'sqlite') {
    const data = `json_object(${pairs})`;
    await sql
      .raw(
        `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ${o.count})
         INSERT INTO entries (id, workspace_id, content_type_id, slug, status, data, published_data, position, publish_at, published_at,
           version, created_at, updated_at, created_by, updated_by, published_by, published_version)
         SELECT printf('${prefix}-0000-4000-8000-%012x', i), '${o.workspaceId}', '${o.contentTypeId}', 'bulk-' || i, 'published', ${data}, ${data},
           i, NULL, '${now}', 1, '${now}', '${now}', ${o.userId}, ${o.userId}, ${o.userId}, 1 FROM seq`,
      )
      .execute(db.kysely);
    return Date.now() - started;
  }
  const data = `jsonb_build_object(${pairs})`;
  await db.kysely.connection().execute(async (conn) => {
    await sql`SET session_replication_role = replica`.execute(conn);
    // A test's setup, not a request: the server's statement timeout (15 s) does not apply to it,
    // and on a slow, busy machine one INSERT of many thousand rows can take longer.
    await sql`SET statement_timeout = 0`.execute(conn);
    try {
      await sql
        .raw(
          `INSERT INTO entries (id, workspace_id, content_type_id, slug, status, data, published_data, position, publish_at, published_at,
             version, created_at, updated_at, created_by, updated_by, published_by, published_version)
           SELECT '${prefix}-0000-4000-8000-' || lpad(to_hex(i), 12, '0'), '${o.workspaceId}', '${o.contentTypeId}', 'bulk-' || i, 'published',
             ${data}, ${data}, i, NULL, '${now}', 1, '${now}', '${now}', ${o.userId}, ${o.userId}, ${o.userId}, 1
           FROM generate_series(1, ${o.count}) AS i`,
        )
        .execute(conn);
    } finally {
      await sql`SET session_replication_role = DEFAULT`.execute(conn);
      await sql`RESET statement_timeout`.execute(conn);
    }
    await sql`INSERT INTO entry_counts (content_type_id, status, n) VALUES (${o.contentTypeId}, 'published', ${o.count})
      ON CONFLICT (content_type_id, status) DO UPDATE SET n = entry_counts.n + EXCLUDED.n`.execute(conn);
    await sql`UPDATE workspaces SET revision = revision + 1, draft_revision = draft_revision + 1 WHERE id = ${o.workspaceId}`.execute(conn);
    await sql.raw(`ANALYZE entries`).execute(conn);
  });
  return Date.now() - started;
}
