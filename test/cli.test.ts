/**
 * The `quire` CLI (docs/cli.md "The `quire` command line" (D61)) through runCli, in-process:
 * commands on the environment
 * (DATA_DIR / DATABASE_URL, as `npx quire` runs) and on a test Context, JSON and human output,
 * exit codes and the one-line errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRuntime } from '../src/cli/runtime.js';
import { authenticate } from '../src/modules/auth/operations.js';
import { systemActor } from '../src/modules/auth/permissions.js';
import { createContentType } from '../src/modules/content-types/operations.js';
import { createEntry } from '../src/modules/entries/operations.js';
import { cli, externalEnv } from './cli-helpers.js';
import { call, createTestEnv, dialects, seedWorkspace, type TestEnv } from './helpers.js';

const HOUR = 3_600_000;

describe.each(dialects())('quire CLI on %s', (dialect) => {
  let env: TestEnv;
  let external: Awaited<ReturnType<typeof externalEnv>>;
  beforeAll(async () => {
    env = await createTestEnv(dialect);
    external = await externalEnv(dialect);
  });
  afterAll(async () => {
    await env?.close();
    await external?.cleanup();
  });

  it('bootstrap --json prints exactly one JSON object and creates three working keys', async () => {
    const run = await cli(['bootstrap', '--workspace', 'acme', '--name', 'Acme', '--locales', 'en,de,fr', '--email', 'Owner@Example.com', '--json'], {
      env: external.env,
    });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    const out = run.json();
    expect(Object.keys(out)).toEqual(['workspace', 'user', 'keys', 'setup_url']);
    expect(out.workspace).toEqual({ id: expect.any(String), slug: 'acme' });
    expect(out.user).toEqual({ id: expect.any(Number), email: 'owner@example.com' });
    expect(out.keys).toEqual({
      management: expect.stringMatching(/^svc_mgmt_/),
      delivery: expect.stringMatching(/^svc_live_/),
      preview: expect.stringMatching(/^svc_live_/),
    });

    // A second process (here: a second runtime) on the same environment sees the workspace and keys.
    const rt = await openRuntime({ env: external.env, stdout: { write: () => true }, stderr: { write: () => true } });
    try {
      const mgmt = await authenticate(rt.ctx, out.keys.management, 'management');
      expect(mgmt).toMatchObject({ workspaceId: out.workspace.id, userId: out.user.id, role: 'owner' });
      expect([...mgmt.scopes].sort()).toEqual(['content:publish', 'content:write', 'media:write', 'schema:write', 'webhooks:write']);
      expect((await authenticate(rt.ctx, out.keys.delivery, 'delivery')).environment).toBe('production');
      expect((await authenticate(rt.ctx, out.keys.preview, 'delivery')).environment).toBe('preview');
      const ws = await rt.ctx.db.kysely.selectFrom('workspaces').selectAll().where('slug', '=', 'acme').executeTakeFirstOrThrow();
      expect(ws).toMatchObject({ name: 'Acme', default_locale: 'en' });
    } finally {
      await rt.close();
    }
  });

  it('bootstrap without --json prints a short summary; a used slug fails with one line', async () => {
    const run = await cli(['bootstrap', '--workspace', 'beta', '--default-locale', 'de', '--locales', 'en'], { context: env.ctx });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^Created workspace 'beta' \([0-9a-f-]{36}\) owned by owner@beta\.local\.\n/);
    expect(run.stdout).toMatch(/Management key: svc_mgmt_\w+\nDelivery key: {3}svc_live_\w+\nPreview key: {4}svc_live_\w+\n/);
    const ws = await env.ctx.db.kysely.selectFrom('workspaces').selectAll().where('slug', '=', 'beta').executeTakeFirstOrThrow();
    expect(ws.default_locale).toBe('de');

    const again = await cli(['bootstrap', '--workspace', 'beta', '--json'], { context: env.ctx });
    expect(again).toMatchObject({ code: 1, stdout: '', stderr: "quire: workspace 'beta' already exists\n" });
    const bad = await cli(['bootstrap', '--workspace', 'Not A Slug'], { context: env.ctx });
    expect(bad).toMatchObject({ code: 1, stdout: '', stderr: 'quire: Validation failed: slug: must be lowercase letters, digits and single hyphens\n' });
  });

  it('users create and set-role', async () => {
    const created = await cli(['users', 'create', '--workspace', 'acme', '--email', 'ed@example.com', '--role', 'editor', '--json'], { env: external.env });
    expect(created.code).toBe(0);
    expect(created.json()).toEqual({ id: expect.any(Number), email: 'ed@example.com', role: 'editor' });
    const changed = await cli(['users', 'set-role', '--workspace', 'acme', '--email', 'ed@example.com', '--role', 'author'], { env: external.env });
    expect(changed).toMatchObject({ code: 0, stderr: '', stdout: "User ed@example.com is now author of 'acme'.\n" });
    const changedJson = await cli(['users', 'set-role', '--workspace', 'acme', '--email', 'ed@example.com', '--role', 'viewer', '--json'], {
      env: external.env,
    });
    expect(changedJson.json()).toEqual({ id: created.json().id, email: 'ed@example.com', role: 'viewer' });

    const badRole = await cli(['users', 'create', '--workspace', 'acme', '--email', 'x@example.com', '--role', 'boss'], { env: external.env });
    expect(badRole).toMatchObject({ code: 1, stdout: '', stderr: 'quire: Validation failed: role: must be one of owner, admin, editor, author, viewer\n' });
    const noWs = await cli(['users', 'create', '--workspace', 'nope', '--email', 'x@example.com', '--role', 'editor', '--json'], { env: external.env });
    expect(noWs).toMatchObject({ code: 1, stdout: '', stderr: "quire: workspace 'nope' not found\n" });
    const notMember = await cli(['users', 'set-role', '--workspace', 'acme', '--email', 'stranger@example.com', '--role', 'editor'], { env: external.env });
    expect(notMember).toMatchObject({ code: 1, stderr: "quire: user 'stranger@example.com' is not a member of 'acme'\n" });
  });

  it('keys create (management and delivery), for the owner or a member, and keys revoke', async () => {
    const before = Date.now();
    const mgmt = await cli(
      ['keys', 'create', '--workspace', 'acme', '--class', 'management', '--scopes', 'content:write,content:publish', '--expires-in', '12h', '--json'],
      { env: external.env },
    );
    expect(mgmt).toMatchObject({ code: 0, stderr: '' });
    const key = mgmt.json();
    expect(Object.keys(key)).toEqual(['id', 'key', 'expires_at']);
    expect(key.key).toMatch(/^svc_mgmt_[A-Za-z0-9]{40}$/);
    const expires = Date.parse(key.expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 12 * HOUR);
    expect(expires).toBeLessThan(Date.now() + 12 * HOUR + 1000);

    const delivery = await cli(
      [
        'keys',
        'create',
        '--workspace',
        'acme',
        '--class',
        'delivery',
        '--environment',
        'preview',
        '--content-types',
        'post,author',
        '--user',
        'ed@example.com',
        '--json',
      ],
      { env: external.env },
    );
    expect(delivery.code).toBe(0);
    expect(delivery.json()).toEqual({ id: expect.any(String), key: expect.stringMatching(/^svc_live_/), expires_at: null });

    const human = await cli(['keys', 'create', '--workspace', 'acme', '--class', 'delivery'], { env: external.env });
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^Created delivery key \(production\) [0-9a-f-]{36} for owner@example\.com\.\nsvc_live_\w+\nStore this key now/);

    const rt = await openRuntime({ env: external.env, stdout: { write: () => true }, stderr: { write: () => true } });
    try {
      const actor = await authenticate(rt.ctx, key.key, 'management');
      expect([...actor.keyScopes].sort()).toEqual(['content:publish', 'content:write']);
      expect(actor.role).toBe('owner');
      const d = await authenticate(rt.ctx, delivery.json().key, 'delivery');
      expect(d).toMatchObject({ environment: 'preview', contentTypes: ['post', 'author'] });

      const revoked = await cli(['keys', 'revoke', '--id', key.id, '--json'], { env: external.env });
      expect(revoked.code).toBe(0);
      expect(revoked.json()).toEqual({ id: key.id, revoked_at: expect.any(String) });
      await expect(authenticate(rt.ctx, key.key, 'management')).rejects.toThrow('This API key has been revoked');
    } finally {
      await rt.close();
    }

    const unknownScope = await cli(['keys', 'create', '--workspace', 'acme', '--class', 'management', '--scopes', 'content:write,everything'], {
      env: external.env,
    });
    expect(unknownScope).toMatchObject({
      code: 1,
      stdout: '',
      stderr:
        "quire: Validation failed: scopes: unknown scope 'everything'; scopes are content:write, content:publish, media:write, schema:write, webhooks:write\n",
    });
    const tooLong = await cli(['keys', 'create', '--workspace', 'acme', '--class', 'management', '--expires-in', '400d'], { env: external.env });
    expect(tooLong).toMatchObject({ code: 1, stderr: 'quire: Validation failed: expires_in: management keys expire within 365 days\n' });
    const stranger = await cli(['keys', 'create', '--workspace', 'acme', '--class', 'delivery', '--user', 'stranger@example.com'], { env: external.env });
    expect(stranger).toMatchObject({ code: 1, stderr: "quire: user 'stranger@example.com' is not a member of 'acme'\n" });
    const unknownKey = await cli(['keys', 'revoke', '--id', 'does-not-exist'], { env: external.env });
    expect(unknownKey).toMatchObject({ code: 1, stderr: "quire: API key 'does-not-exist' not found\n" });
  });

  it('preview-token mints a token the delivery API accepts', async () => {
    const seeded = await seedWorkspace(env.ctx, { slug: 'previewing' });
    const actor = systemActor(seeded.workspace.id, seeded.user.id);
    await createContentType(env.ctx, actor, { name: 'Post', display_field: 'title', fields: [{ name: 'title', field_type: 'text' }] });
    const entry = await createEntry(env.ctx, actor, 'post', { data: { title: 'Draft only' } });

    const run = await cli(['preview-token', '--workspace', 'previewing', '--entry', entry.id, '--json'], { context: env.ctx });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const out = run.json();
    expect(Object.keys(out)).toEqual(['token', 'expires_at']);
    expect(Date.parse(out.expires_at) - Date.now()).toBeGreaterThan(47.9 * HOUR);
    const res = await call(env.app, 'GET', `/api/v1/public/preview?token=${encodeURIComponent(out.token)}`, { key: seeded.keys.delivery });
    expect(res.status).toBe(200);
    expect(res.body.data.entry).toMatchObject({ id: entry.id, status: 'draft' });

    const human = await cli(['preview-token', '--workspace', 'previewing', '--entry', entry.id], { context: env.ctx });
    expect(human.stdout).toMatch(new RegExp(`^Preview token for entry ${entry.id} \\(expires [^)]+\\):\\n[\\w-]+\\.[\\w-]+\\.[\\w-]+\\n$`));
    const missing = await cli(['preview-token', '--workspace', 'previewing', '--entry', '0190d1a4-0000-7000-8000-000000000000', '--json'], {
      context: env.ctx,
    });
    expect(missing).toMatchObject({ code: 1, stdout: '', stderr: "quire: entry '0190d1a4-0000-7000-8000-000000000000' not found\n" });
  });

  it('usage errors exit 2 with one line; --help exits 0', async () => {
    const cases: [string[], string][] = [
      [['bootstrap'], "quire: required option '--workspace <slug>' not specified\n"],
      [
        ['keys', 'create', '--workspace', 'acme', '--class', 'admin'],
        "quire: option '--class <class>' argument 'admin' is invalid. Allowed choices are delivery, management.\n",
      ],
      [
        ['keys', 'create', '--workspace', 'acme', '--class', 'management', '--expires-in', 'soon'],
        "quire: option '--expires-in <duration>' argument 'soon' is invalid. expected a positive number followed by s, m, h or d (e.g. 90s, 12h, 30d)\n",
      ],
      [['users', 'create', '--workspace', 'acme', '--email', 'a@b.c', '--role', 'editor', '--colour', 'red'], "quire: unknown option '--colour'\n"],
      [['import', 'contentful', '--workspace', 'acme'], "quire: missing required argument 'file'\n"],
    ];
    for (const [argv, stderr] of cases) {
      const run = await cli(argv, { env: external.env });
      expect({ argv, code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({ argv, code: 2, stdout: '', stderr });
    }
    const unknown = await cli(['frobnicate'], { env: external.env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe("quire: unknown command 'frobnicate'\n");
    const nothing = await cli([], { env: external.env });
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('Usage: quire');

    const help = await cli(['--help'], { env: external.env });
    expect(help.code).toBe(0);
    for (const c of ['bootstrap', 'users', 'keys', 'preview-token', 'import']) expect(help.stdout).toContain(c);
    const sub = await cli(['keys', 'create', '--help'], { env: external.env });
    expect(sub.code).toBe(0);
    expect(sub.stdout).toContain('--expires-in <duration>');
  });

  it('configuration errors exit 1 with one line and no stack trace', async () => {
    const pgUrl = await cli(['bootstrap', '--workspace', 'x'], { env: { DATABASE_URL: 'mysql://localhost/x' } });
    expect(pgUrl).toEqual(
      expect.objectContaining({
        code: 1,
        stdout: '',
        stderr: 'quire: DATABASE_URL must start with postgres:// (unset it to use the embedded SQLite database)\n',
      }),
    );
    const level = await cli(['bootstrap', '--workspace', 'x'], { env: { ...external.env, LOG_LEVEL: 'loud' } });
    expect(level.code).toBe(1);
    expect(level.stderr).toMatch(/^quire: LOG_LEVEL must be one of [a-z, ]+\n$/);
  });
});
