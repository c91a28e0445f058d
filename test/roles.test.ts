/**
 * Roles as data, on every dialect: migration 022 creates the installation's `roles` table seeded
 * with the five preset rows, the context reads the rows once (ctx.caches.roles), and the rows it
 * read (not a compile-time table) drive the permission check: a custom row limits a key, and a
 * changed row changes what the API allows once the context forgets its copy.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createContext } from '../src/context.js';
import { createDb } from '../src/db/create-db.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { decide, effectiveScopes } from '../src/modules/access/authorize.js';
import { forgetRoles, readRoles, rolesOf } from '../src/modules/access/repository.js';
import { PRESET_ROLES } from '../src/modules/access/roles.js';
import { authenticate } from '../src/modules/auth/operations.js';
import type { Actor, Role, Scope } from '../src/modules/auth/permissions.js';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from './helpers.js';
import { migrateUpTo } from './migration-helpers.js';

const M = '/api/v1/manage';

describe.each(dialects())('roles as data (%s)', (dialect) => {
  let env: TestEnv;

  beforeAll(async () => {
    env = await createTestEnv(dialect);
  });
  afterAll(async () => {
    await env?.close();
  });

  it('migration 022 seeds the five preset roles, as the code lists them', async () => {
    const rows = await env.ctx.db.kysely.selectFrom('roles').selectAll().orderBy('key').execute();
    expect(
      rows.map((r) => ({
        name: r.key,
        scopes: JSON.parse(r.scopes) as string[],
        manages: Number(r.manages_workspace) === 1,
        ownsWorkspace: Number(r.owns_workspace) === 1,
      })),
    ).toEqual(
      [...PRESET_ROLES]
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((r) => ({ name: r.name, scopes: [...r.scopes], manages: r.manages, ownsWorkspace: r.ownsWorkspace })),
    );
    for (const r of rows) {
      expect(r.name).toBe(r.key);
      expect(Number(r.is_preset)).toBe(1);
      expect(r.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    expect((await readRoles(env.ctx.db))?.rows).toEqual(PRESET_ROLES);
  });

  it('a context reads the rows once and keeps them until told to forget them', async () => {
    const first = await rolesOf(env.ctx);
    expect(await rolesOf(env.ctx)).toBe(first);
    forgetRoles(env.ctx);
    const again = await rolesOf(env.ctx);
    expect(again).not.toBe(first);
    expect(again.rows).toEqual(first.rows);
  });

  it('a custom role row read from the database limits a key to its scopes', async () => {
    const db = env.ctx.db.kysely;
    await db
      .insertInto('roles')
      .values({
        key: 'reviewer',
        name: 'Reviewer',
        scopes: JSON.stringify(['content:write', 'no:such-scope']),
        manages_workspace: 0,
        owns_workspace: 0,
        is_preset: 0,
        created_at: new Date().toISOString(),
      })
      .execute();
    try {
      const roles = (await readRoles(env.ctx.db))!;
      expect(roles.row('reviewer')).toMatchObject({
        name: 'reviewer',
        label: 'Reviewer',
        scopes: ['content:write'],
        manages: false,
        ownsWorkspace: false,
        preset: false,
      });
      const role = 'reviewer' as Role;
      const keyScopes = new Set<Scope>(['content:write', 'content:publish']);
      const actor: Actor = {
        keyId: 'k',
        keyClass: 'management',
        workspaceId: 'w',
        userId: 1,
        role,
        keyScopes,
        scopes: effectiveScopes(keyScopes, role, roles),
        environment: null,
        contentTypes: [],
        roles,
      };
      expect([...actor.scopes]).toEqual(['content:write']);
      expect(decide(actor, 'content:write')).toBeNull();
      expect(decide(actor, 'content:publish')).toEqual({
        code: 'FORBIDDEN',
        message: "The key's creator (role 'Reviewer') lacks permission for 'content:publish' (may not publish entries, pages or releases)",
      });
      expect(decide({ ...actor, session: { digest: 'd' } }, 'keys:list')?.message).toBe('Only owners and admins can manage API keys (your role: Reviewer)');
    } finally {
      await db.deleteFrom('roles').where('key', '=', 'reviewer').execute();
    }
  });

  it("the API follows the context's rows: a changed owner row refuses the owner's key once the context forgets its copy", async () => {
    const ws = await seedWorkspace(env.ctx);
    const key = ws.keys.management;
    const body = (slug: string) => ({ slug, name: slug, fields: [{ name: 'title', field_type: 'text' }] });
    expect((await call(env.app, 'POST', `${M}/content-types`, { key, body: body('first') })).status).toBe(201);
    const db = env.ctx.db.kysely;
    const owner = await db.selectFrom('roles').select('scopes').where('key', '=', 'owner').executeTakeFirstOrThrow();
    const without = (JSON.parse(owner.scopes) as string[]).filter((s) => s !== 'schema:write');
    await db
      .updateTable('roles')
      .set({ scopes: JSON.stringify(without) })
      .where('key', '=', 'owner')
      .execute();
    try {
      // The context still holds the rows it read.
      expect((await call(env.app, 'POST', `${M}/content-types`, { key, body: body('second') })).status).toBe(201);
      forgetRoles(env.ctx);
      const refused = expectError(await call(env.app, 'POST', `${M}/content-types`, { key, body: body('third') }), 403, 'FORBIDDEN');
      expect(refused.message).toBe("The key's creator (role 'owner') lacks permission for 'schema:write'");
      expect((await authenticate(env.ctx, key, 'management')).scopes.has('schema:write')).toBe(false);
    } finally {
      await db.updateTable('roles').set({ scopes: owner.scopes }).where('key', '=', 'owner').execute();
      forgetRoles(env.ctx);
    }
    expect((await call(env.app, 'POST', `${M}/content-types`, { key, body: body('fourth') })).status).toBe(201);
  });

  it('a database migrated before 022 is checked against the preset rows, then against its table once migrated', async () => {
    const dataDir = path.join(os.tmpdir(), `quire-m022-${randomBytes(4).toString('hex')}`);
    const config = loadConfig(
      {
        DATA_DIR: dataDir,
        DATABASE_URL: dialect === 'postgres' ? process.env.DATABASE_URL : undefined,
      },
      { demo: false },
    );
    const schema = dialect === 'postgres' ? `t_m022_${randomBytes(5).toString('hex')}` : undefined;
    const db = await createDb(config, dialect === 'postgres' ? { pgSchema: schema, poolSize: 2, migrate: false } : { sqliteFile: ':memory:', migrate: false });
    try {
      await migrateUpTo(db.kysely as unknown as Kysely<unknown>, dialect, '021-invitations', schema);
      const ctx = await createContext(config, db, { log: pino({ level: 'silent' }) });
      expect(await readRoles(db)).toBeNull();
      expect((await rolesOf(ctx)).rows).toEqual(PRESET_ROLES);
      await migrateToLatest(db.kysely, dialect, schema);
      await db.kysely.updateTable('roles').set({ scopes: '[]' }).where('key', '=', 'admin').execute();
      expect((await rolesOf(ctx)).row('admin')?.scopes).toEqual([]);
    } finally {
      if (schema) await sql.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).execute(db.kysely);
      await db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
