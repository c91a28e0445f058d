/**
 * Media assets get a `title` and a `description` (issue 12 item 2; docs/media.md "The record"):
 * nullable text beside `alt_text`, set on upload and by PUT /media/{id}, delivered with the asset
 * and filled by the Contentful importer from an asset's `title` and `description`. Existing rows
 * have neither (null); nothing is derived from `alt_text`, which keeps its own meaning.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../types.js';

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('media').addColumn('title', 'text').execute();
  await db.schema.alterTable('media').addColumn('description', 'text').execute();
}
