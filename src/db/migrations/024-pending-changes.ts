/**
 * `has_pending_changes` recomputed from content (docs/api.md "Working copies, publishing changes
 * and history", D70; issue 27 item 4). Before this migration the flag was set by any content
 * write to a published item and cleared only by a state change, so an item whose working copy was
 * typed back or restored to its published version still showed pending changes. From now on a
 * published item has pending changes exactly when its working copy differs from its published
 * version, and this migration makes existing rows say the same:
 *
 * - an entry or page that is not published has none;
 * - a published one with a published version has pending changes exactly when the content key of
 *   its newest version (which holds its working copy: every content write records one) differs
 *   from that of its published version (frozen/024-content-keys.ts, the comparison the
 *   publishing core makes). Only rows that can be wrong are read: those flagged, and those whose
 *   newest version is not the published one; they are read in pages of 500 by id.
 *
 * Nothing else of a row changes (no ETag, no event): readers see the same content.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../types.js';
import { entryContentKeyOf, pageContentKeyOf } from './frozen/024-content-keys.js';

const BATCH = 500;

interface Kind {
  table: 'entries' | 'pages';
  versions: 'entry_versions' | 'page_versions';
  fk: 'entry_id' | 'page_id';
  key(stored: unknown): string;
}

const KINDS: Kind[] = [
  { table: 'entries', versions: 'entry_versions', fk: 'entry_id', key: entryContentKeyOf },
  { table: 'pages', versions: 'page_versions', fk: 'page_id', key: pageContentKeyOf },
];

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  for (const k of KINDS) await recompute(db, k);
}

async function recompute(db: Kysely<unknown>, k: Kind): Promise<void> {
  const table = sql.table(k.table);
  await sql`update ${table} set has_pending_changes = 0 where status <> 'published' and has_pending_changes <> 0`.execute(db);
  let after = '';
  for (;;) {
    const rows = (
      await sql<{ id: string; latest_version: number; published_version: number; has_pending_changes: number | boolean }>`
        select id, latest_version, published_version, has_pending_changes from ${table}
        where status = 'published' and published_version is not null
          and (has_pending_changes <> 0 or latest_version <> published_version) and id > ${after}
        order by id limit ${sql.lit(BATCH)}`.execute(db)
    ).rows;
    if (rows.length === 0) return;
    after = rows[rows.length - 1].id;
    const wanted = new Set(rows.flatMap((r) => [Number(r.latest_version), Number(r.published_version)]));
    const snapshots = (
      await sql<{ item_id: string; version: number; snapshot: unknown }>`
        select ${sql.ref(k.fk)} as item_id, version, snapshot from ${sql.table(k.versions)}
        where ${sql.ref(k.fk)} in (${sql.join(rows.map((r) => r.id))}) and version in (${sql.join([...wanted])})`.execute(db)
    ).rows;
    const keys = new Map(snapshots.map((s) => [`${s.item_id}:${Number(s.version)}`, k.key(s.snapshot)]));
    const set: Record<'0' | '1', string[]> = { '0': [], '1': [] };
    for (const r of rows) {
      const working = keys.get(`${r.id}:${Number(r.latest_version)}`);
      const published = keys.get(`${r.id}:${Number(r.published_version)}`);
      // A history without either version has nothing to compare: the row keeps its flag.
      if (working === undefined || published === undefined) continue;
      const pending = working !== published;
      if (pending !== Boolean(Number(r.has_pending_changes))) set[pending ? '1' : '0'].push(r.id);
    }
    for (const [value, ids] of Object.entries(set)) {
      if (ids.length) await sql`update ${table} set has_pending_changes = ${Number(value)} where id in (${sql.join(ids)})`.execute(db);
    }
  }
}
