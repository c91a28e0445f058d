/**
 * Media URLs are computed when read, never stored (issue 12 item 3; D51; docs/media.md "URLs").
 *
 * Until now each media row stored its absolute `url`, frozen with the PUBLIC_URL of whichever
 * process wrote it: a CLI import run with another PUBLIC_URL, or a database moved to a server at
 * another address, served the old host's URLs. The URL of a stored file is now derived from its
 * `storage_key` and this server's configuration on every read (src/modules/media/locations.ts
 * mediaUrl), so the stored column goes:
 *
 * - `remote_url` (new, nullable) keeps the one URL that cannot be derived: a remote original's
 *   (Contentful assets imported by URL, `storage_key` null), copied from `url`;
 * - `url` is dropped on both dialects. Rows with a stored file keep working unchanged: their
 *   storage key is what their URL is computed from.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../types.js';

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('media').addColumn('remote_url', 'text').execute();
  await sql`UPDATE media SET remote_url = url WHERE storage_key IS NULL`.execute(db);
  // SQLite 3.35+ drops a column in place (it is in no index, constraint or trigger).
  await db.schema.alterTable('media').dropColumn('url').execute();
}
