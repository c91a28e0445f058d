/**
 * Runs the migrations in src/db/migrations at start, in order, each once, each in a transaction
 * (PostgreSQL takes an advisory lock so that several instances starting together migrate once).
 * Migrations are plain modules exporting `up(db, dialect)`; they are listed here rather than read
 * from disk so that the compiled build and the tests see the same list.
 *
 * Migrations freeze the code they run. A migration imports at run time only kysely and files of
 * src/db/migrations/ (type-only imports are free): never live module code such as the snapshot
 * builders or src/db/dialect.ts, whose later changes would silently change what an old migration
 * does on the databases that have not run it yet. Code a migration needs is copied into the
 * migration itself or into src/db/migrations/frozen/<NNN>-<what>.ts, named for the first
 * migration that used it; later migrations may import a frozen file, and no frozen file (nor a
 * migration that has shipped) is edited afterwards: a migration that needs different code takes a
 * new copy named for itself. src/db/migrate.test.ts fails on any other import.
 */
import { Migrator, sql, type Migration, type MigrationProvider, type Kysely } from 'kysely';
import type { Database, Dialect } from './types.js';
import * as m001 from './migrations/001-core.js';
import * as m002 from './migrations/002-pages.js';
import * as m003 from './migrations/003-delivery-indexes.js';
import * as m004 from './migrations/004-revisions.js';
import * as m005 from './migrations/005-versions.js';
import * as m006 from './migrations/006-media-variants.js';
import * as m007 from './migrations/007-blocks-per-page.js';
import * as m008 from './migrations/008-studio-auth.js';
import * as m009 from './migrations/009-recent-versions.js';
import * as m010 from './migrations/010-events.js';
import * as m011 from './migrations/011-webhooks.js';
import * as m012 from './migrations/012-unique-indexes.js';
import * as m013 from './migrations/013-webhooks-scope.js';
import * as m014 from './migrations/014-scale-indexes.js';
import * as m015 from './migrations/015-media-urls.js';
import * as m016 from './migrations/016-workspace-id-indexes.js';
import * as m017 from './migrations/017-field-index-builds.js';
import * as m018 from './migrations/018-media-title-description.js';
import * as m019 from './migrations/019-datetime-offsets.js';
import * as m020 from './migrations/020-production-sort-include.js';
import * as m021 from './migrations/021-invitations.js';
import * as m022 from './migrations/022-roles.js';
import * as m023 from './migrations/023-releases.js';
import * as m024 from './migrations/024-pending-changes.js';
import * as m025 from './migrations/025-release-revisions.js';
import * as m026 from './migrations/026-event-visibility.js';
import * as m027 from './migrations/027-webhook-secret-rotation.js';
import * as m028 from './migrations/028-coalesced-revision-bumps.js';
import * as m029 from './migrations/029-audit-log.js';
import * as m030 from './migrations/030-workspace-roles.js';
import * as m031 from './migrations/031-activity-notifications.js';
import * as m032 from './migrations/032-workflows.js';
import * as m033 from './migrations/033-comments.js';
import * as m034 from './migrations/034-presence.js';

type DialectMigration = { up(db: Kysely<unknown>, dialect: Dialect): Promise<void>; down?(db: Kysely<unknown>, dialect: Dialect): Promise<void> };

/** Every migration by name; names sort in the order they must run. */
export const MIGRATIONS: Record<string, DialectMigration> = {
  '001-core': m001,
  '002-pages': m002,
  '003-delivery-indexes': m003,
  '004-revisions': m004,
  '005-versions': m005,
  '006-media-variants': m006,
  '007-blocks-per-page': m007,
  '008-studio-auth': m008,
  '009-recent-versions': m009,
  '010-events': m010,
  '011-webhooks': m011,
  '012-unique-indexes': m012,
  '013-webhooks-scope': m013,
  '014-scale-indexes': m014,
  '015-media-urls': m015,
  '016-workspace-id-indexes': m016,
  '017-field-index-builds': m017,
  '018-media-title-description': m018,
  '019-datetime-offsets': m019,
  '020-production-sort-include': m020,
  '021-invitations': m021,
  '022-roles': m022,
  '023-releases': m023,
  '024-pending-changes': m024,
  '025-release-revisions': m025,
  '026-event-visibility': m026,
  '027-webhook-secret-rotation': m027,
  '028-coalesced-revision-bumps': m028,
  '029-audit-log': m029,
  '030-workspace-roles': m030,
  '031-activity-notifications': m031,
  '032-workflows': m032,
  '033-comments': m033,
  '034-presence': m034,
};

class StaticProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    for (const [name, m] of Object.entries(MIGRATIONS)) {
      out[name] = { up: (db) => m.up(db, this.dialect) };
    }
    return out;
  }
}

/**
 * Whether migration `name` (e.g. '022-roles') has run on `db`, by Kysely's bookkeeping table;
 * false when no migration has. For code that must tell a database an older release migrated
 * from a failure of its own.
 */
export async function migrationHasRun(db: Kysely<Database>, name: string): Promise<boolean> {
  try {
    const { rows } = await sql<{ one: number }>`select 1 as one from kysely_migration where name = ${name}`.execute(db);
    return rows.length > 0;
  } catch {
    return false;
  }
}

/**
 * Brings the schema up to date; throws with the failing migration's error.
 *
 * Kysely's migrator checks for its own tables by introspecting every schema of the database
 * (`has_schema_privilege` by schema name, `pg_get_serial_sequence` by table name); a schema or
 * table dropped by someone else at that moment (another tenant or test schema on the same server)
 * fails the check before any migration ran (see {@link isIntrospectionRace}). That attempt
 * changed nothing, so it is retried (up to 5 attempts).
 */
export async function migrateToLatest(db: Kysely<Database>, dialect: Dialect, pgSchema?: string): Promise<void> {
  // Kysely must look for its own bookkeeping tables in the schema it writes to: without a named
  // schema it accepts them in ANY schema of the database, so a database whose `public` schema was
  // migrated once would make a server using another schema (a search_path in DATABASE_URL) skip
  // creating them, then fail to read them. PostgreSQL therefore always names the current schema.
  const schema =
    pgSchema ?? (dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s : undefined) ?? undefined;
  const migrator = new Migrator({ db, provider: new StaticProvider(dialect), ...(schema ? { migrationTableSchema: schema } : {}) });
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    if (!error) return;
    const failed = results?.find((r) => r.status === 'Error');
    if (!failed && isIntrospectionRace(error) && attempt < 5) continue;
    const reason = error instanceof Error ? error.message : String(error);
    // Without a failed migration the error came from the migrator's own setup (its tables, its lock).
    const where = failed ? `migration ${failed.migrationName}` : 'preparing migrations';
    throw new Error(`${where} failed: ${reason}`, { cause: error });
  }
}

/**
 * Whether a PostgreSQL error thrown while Kysely's migrator introspects the catalog means that
 * another session dropped what the catalog scan had just listed: 3F000 (schema gone), 42P01
 * (relation gone), 42703 (column gone: `pg_get_serial_sequence` looks a listed column up by name
 * after a concurrent DROP SCHEMA or ALTER TABLE removed it) or XX000 "cache lookup failed" (an oid
 * gone mid-scan). Such an error, raised before any migration ran, is worth another attempt; any
 * other error is not.
 */
export function isIntrospectionRace(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === '3F000' || code === '42P01' || code === '42703') return true;
  return code === 'XX000' && /cache lookup failed/i.test(error instanceof Error ? error.message : '');
}
