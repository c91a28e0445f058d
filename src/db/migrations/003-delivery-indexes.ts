/**
 * Indexes for delivery reads: `(content_type_id, status, publish_at)` covers the visibility
 * condition (published, or scheduled and due: D21), so counting a content type's visible entries
 * for `meta.total_data` reads the index alone instead of every entry row.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../types.js';

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.createIndex('entries_type_status').ifNotExists().on('entries').columns(['content_type_id', 'status', 'publish_at']).execute();
}
