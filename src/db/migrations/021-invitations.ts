/**
 * Pending invitations (issue 23: accounts belong to their person). An invitation no longer adds a
 * membership: it is a row here until the invited person accepts it, signed in as the account of
 * that email (or, for a brand-new address, by choosing a password with the link), and only then
 * becomes a membership. It is keyed by email, not by user, so inviting an address creates no
 * account and says nothing about whether one exists.
 *
 * - `email` lower-cased; one pending invitation per workspace and email (re-inviting replaces it);
 * - `name` as the inviting admin typed it (never the account's own name);
 * - `token_hash`: SHA-256 of the link's token (`qt_…`), never the token itself;
 * - `invited_by`: the admin who sent it (kept null when that user is deleted).
 *
 * Memberships and one-time tokens made by earlier versions stay as they are.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../types.js';

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('invited_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('invitations_workspace_email', ['workspace_id', 'email'])
    .execute();
  await db.schema.createIndex('invitations_email').on('invitations').column('email').execute();
}
