/**
 * Studio sign-in (docs/api.md "Studio sessions, people, keys and workspace" (D90, D91)): people get
 * a password, sessions and one-time links.
 *
 * - `users.password_hash`: scrypt with its salt and parameters in the stored string
 *   (src/modules/auth/passwords.ts); null until the person sets a password. `last_sign_in_at`
 *   is shown on the People screen.
 * - `sessions`: one row per signed-in browser, keyed by the SHA-256 of the session id. The id
 *   itself lives only in the person's cookie, so a copy of the database signs nobody in.
 *   `last_seen_at` bounds idle time (SESSION_IDLE_HOURS), `expires_at` the whole life
 *   (SESSION_MAX_AGE_HOURS).
 * - `one_time_tokens`: setup and invitation links (72 h, single use), also stored only as the
 *   SHA-256 of the token; `used_at` is set once, by a conditional update.
 * - `workspaces.preview_url_template`: where the Studio's "Open preview" button goes (D91).
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../types.js';

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('users').addColumn('password_hash', 'text').execute();
  await db.schema.alterTable('users').addColumn('last_sign_in_at', 'text').execute();
  await db.schema.alterTable('workspaces').addColumn('preview_url_template', 'text').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('one_time_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.references('workspaces.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('one_time_tokens_user').on('one_time_tokens').column('user_id').execute();
}
