/**
 * Derived images on record (issue 8: transforms bounded). Every stored transform result has a row:
 * its asset, variant name, storage key, size in bytes and when it was last served, so that the
 * number of variants per asset and the total bytes of the derived-image cache can be held to their
 * limits by evicting the least recently used (src/modules/media/variants.ts). Files derived before
 * this migration have no row; the first time one is served it is recorded.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../types.js';

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('media_variants')
    .addColumn('media_id', 'text', (c) => c.notNull().references('media.id').onDelete('cascade'))
    .addColumn('variant', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('media_variants_pk', ['media_id', 'variant'])
    .execute();
  await db.schema.createIndex('media_variants_lru').on('media_variants').columns(['last_used_at']).execute();
}
