/**
 * Builds databases as an older release left them: migrations up to a given one only, with the
 * provider and bookkeeping table of src/db/migrate.ts, so a later migration can be tested as an
 * in-place upgrade.
 */
import { Migrator, type Kysely, type Migration } from 'kysely';
import { MIGRATIONS } from '../src/db/migrate.js';
import type { Dialect } from '../src/db/types.js';

/** Runs migrations up to and including `last` (e.g. '004_…'); throws the migrator's error. */
export async function migrateUpTo(db: Kysely<unknown>, dialect: Dialect, last: string, pgSchema?: string): Promise<void> {
  const provider = {
    getMigrations: async (): Promise<Record<string, Migration>> =>
      Object.fromEntries(Object.entries(MIGRATIONS).map(([name, m]) => [name, { up: (k: Kysely<unknown>) => m.up(k, dialect) }])),
  };
  const { error } = await new Migrator({ db, provider, ...(pgSchema ? { migrationTableSchema: pgSchema } : {}) }).migrateTo(last);
  if (error) throw error;
}
