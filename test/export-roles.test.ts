/**
 * Custom roles travel with a workspace export (docs/operations.md, docs/access.md "Roles and
 * permissions"): the export holds them in its roles file, a restore checks each one as the roles
 * API does, gives it a new key, and gives members holding it the restored role, so a translator
 * restored elsewhere still writes German only. An export whose roles file is hostile (a role
 * naming a type the export lacks, a member naming a role the export does not hold) is refused
 * whole and restores nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportWorkspace } from '../src/modules/export/export.js';
import { restoreWorkspaceExport } from '../src/modules/export/restore.js';
import { findWorkspaceBySlug } from '../src/modules/workspaces/repository.js';
import { setPasswordForUser } from '../src/modules/auth/sessions.js';
import { createTestEnv, dialects, seedWorkspace, type TestEnv } from './helpers.js';
import { memberWithPassword, PASSWORD, signedIn, type Browser } from './studio-helpers.js';

const M = '/api/v1/manage';
/** docs/access.md's translator, limited to posts. */
const TRANSLATOR = {
  name: 'Translator',
  description: 'Translates entries into German',
  permissions: [{ resource: 'entries', actions: ['read', 'update'], locales: ['de'], content_types: ['post'] }],
};

describe.each(dialects())('custom roles in an export (%s)', (dialect) => {
  let env: TestEnv;
  /** A second database: a restore keeps ids, so it goes where the original is not. */
  let other: TestEnv;
  let owner: Browser;
  let slug: string;
  let dir: string;
  const out = () => path.join(dir, `x-${randomBytes(3).toString('hex')}`);

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    other = await createTestEnv(dialect);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-export-roles-'));
    const s = await seedWorkspace(env.ctx, { locales: ['en', 'de'] });
    slug = s.workspace.slug;
    await setPasswordForUser(env.ctx, s.user.id, PASSWORD);
    owner = await signedIn(env.app, s.user.email, s.workspace.id);
    const type = await owner.call('POST', `${M}/content-types`, {
      body: { name: 'Post', slug: 'post', fields: [{ name: 'title', field_type: 'text', localizable: true }] },
    });
    expect(type.status, JSON.stringify(type.body)).toBe(201);
    const role = await owner.call('POST', `${M}/roles`, { body: TRANSLATOR });
    expect(role.status, JSON.stringify(role.body)).toBe(201);
    const m = await memberWithPassword(env.ctx, slug, 'viewer');
    expect((await owner.call('PATCH', `${M}/users/${m.id}`, { body: { role: 'Translator' } })).status).toBe(200);
    const made = await owner.call('POST', `${M}/content-types/post/entries`, { body: { slug: 'hello', data: { title: 'Hello' } } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
  });
  afterAll(async () => {
    await env?.close();
    await other?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('restores the role under a new key, and the member holding it keeps its limits', async () => {
    const target = out();
    const exported = await exportWorkspace(env.ctx, { workspace: slug, out: target, withUsers: true });
    expect(exported.counts.roles).toBe(1);
    const line = JSON.parse(fs.readFileSync(path.join(target, 'roles.ndjson'), 'utf8').trim());
    expect(line).toMatchObject({ name: 'Translator', description: TRANSLATOR.description });

    const copy = `${slug}-copy-${randomBytes(2).toString('hex')}`;
    const restored = await restoreWorkspaceExport(other.ctx, { source: target, workspace: copy });
    expect(restored.counts.roles).toBe(1);
    const ws = (await findWorkspaceBySlug(other.ctx.db, copy))!;
    const roles = await other.ctx.db.kysely.selectFrom('roles').selectAll().where('workspace_id', '=', ws.id).execute();
    expect(roles).toHaveLength(1);
    expect(roles[0].key).not.toBe(line.key);
    expect(JSON.parse(roles[0].permissions!)).toEqual(line.permissions);
    // Only what its permissions grant: no management of the workspace, never a preset.
    expect(roles[0]).toMatchObject({ name: 'Translator', manages_workspace: 0, owns_workspace: 0, is_preset: 0 });
    const members = await other.ctx.db.kysely.selectFrom('memberships').select(['role']).where('workspace_id', '=', ws.id).execute();
    expect(members.map((r) => r.role).sort()).toEqual(['owner', roles[0].key].sort());

    // The translator, signed in to the restored workspace, writes German and nothing else.
    const member = await other.ctx.db.kysely
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['u.email', 'u.id'])
      .where('m.workspace_id', '=', ws.id)
      .where('m.role', '=', roles[0].key)
      .executeTakeFirstOrThrow();
    await setPasswordForUser(other.ctx, member.id, PASSWORD);
    const translator = await signedIn(other.app, member.email, ws.id);
    const german = await translator.call('PUT', `${M}/content-types/post/entries/hello`, {
      body: { data: { title: 'Hello' }, translations: { de: { data: { title: 'Hallo' } } } },
    });
    expect(german.status, JSON.stringify(german.body)).toBe(200);
    const english = await translator.call('PUT', `${M}/content-types/post/entries/hello`, { body: { data: { title: 'Hi' } } });
    expect(english.status).toBe(403);
  });

  it('refuses an export whose roles or members are not what the workspace can hold, and restores nothing', async () => {
    const target = out();
    await exportWorkspace(env.ctx, { workspace: slug, out: target, withUsers: true });
    const rolesFile = path.join(target, 'roles.ndjson');
    const manifestFile = path.join(target, 'manifest.json');
    const original = fs.readFileSync(rolesFile, 'utf8');
    const rewrite = async (text: string) => {
      fs.writeFileSync(rolesFile, text);
      // The manifest's hash is recomputed as a hostile author would.
      const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
      const { createHash } = await import('node:crypto');
      manifest.files['roles.ndjson'] = { bytes: Buffer.byteLength(text), sha256: createHash('sha256').update(text).digest('hex') };
      fs.writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
    };
    // A database of its own: refused restores roll back, so both go to the same one.
    const third = await createTestEnv(dialect);
    const refused = async (message: RegExp) => {
      const copy = `${slug}-bad-${randomBytes(2).toString('hex')}`;
      await expect(restoreWorkspaceExport(third.ctx, { source: target, workspace: copy })).rejects.toMatchObject({
        errors: [{ message: expect.stringMatching(message) }],
      });
      expect(await findWorkspaceBySlug(third.ctx.db, copy)).toBeNull();
    };
    const role = JSON.parse(original);
    await rewrite(`${JSON.stringify({ ...role, permissions: [{ resource: 'entries', actions: ['read'], content_types: ['missing'] }] })}\n`);
    await refused(/roles\.ndjson line 1: .*missing/);
    await rewrite(`${JSON.stringify({ ...role, key: '01234567-89ab-7def-8123-456789abcdef' })}\n`);
    await refused(/members\.ndjson line \d+: role .* is not a role of this export/);
    await third.close();
  });
});
