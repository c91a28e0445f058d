/**
 * `quire import quire` (issue 12 item 5): restores a workspace export (format.ts) into an empty
 * workspace of this installation, on SQLite or PostgreSQL, keeping ids, versions, timestamps,
 * statuses, positions and schedules.
 *
 * Rules (docs/cli.md "Export and restore"):
 * - The target workspace is created when missing (with the exported workspace's id when that is
 *   free here) or must hold nothing yet: no content types, entries, pages, media or webhooks.
 *   Its keys and members stay.
 * - Every file is checked against the manifest's size and SHA-256 before anything is written;
 *   an export of a newer format version is refused. Version 1 media rows (with the exporting
 *   installation's absolute `url`) and version 2 ones (without `title` and `description`) are
 *   read as version 3 ones: media URLs are computed here, titles and descriptions are null.
 * - One transaction for the whole restore, writing BATCH rows per statement: a failed restore
 *   leaves the database as it was (and removes the media files it had stored).
 * - Ids are kept, so a database that already holds one of the items (the original workspace
 *   in the same installation) is refused with the item named. Translation record ids are kept
 *   when free, otherwise new ones are given (versions' snapshots keep the old numbers).
 * - Webhooks are restored disabled (unless `webhooks: 'as-exported'`), each with a new signing
 *   secret returned once: the export holds no secret, and a receiver should be told the new one
 *   before deliveries resume.
 * - No change events are recorded: the restored workspace starts with an empty change log, so
 *   webhooks fire nothing for the restore and sync clients start with an initial sync.
 * - Members (exports made with `--with-users`) are matched to users here by email; missing users
 *   are created without a password (set one with `quire users set-password --link`) and user ids
 *   in the content are mapped to them. Without members, user ids are kept as numbers.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../../context.js';
import { withTransaction } from '../../db/transaction.js';
import type { Db } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { isPlainObject } from '../../lib/json.js';
import { newId } from '../../lib/ids.js';
import { tmpDirOf } from '../../storage/index.js';
import { createUniqueIndex, syncDataIndex } from '../content-types/repository.js';
import type { FieldType } from '../content-types/model.js';
import { generateSecret, sealSecret } from '../webhooks/secrets.js';
import { findWorkspaceBySlug } from '../workspaces/repository.js';
import { BATCH } from './export.js';
import { hashFile, readLines } from './files.js';
import {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  MANIFEST_FILE,
  OLDEST_EXPORT_VERSION,
  MEMBERS_FILE,
  TABLES,
  WORKSPACE_SPEC,
  mediaFile,
  tableFile,
  type Manifest,
  type TableSpec,
} from './format.js';
import {
  advanceSequence,
  existingKeys,
  insertRows,
  insertWithNewId,
  setBlockParent,
  takenIds,
  userIdByEmail,
  userIdTaken,
  workspaceHoldsAnything,
} from './repository.js';
import { unpackTo } from './tar.js';

export interface RestoreOptions {
  /** An export directory or `.tar` file. */
  source: string;
  /** Target workspace slug (created when missing). */
  workspace: string;
  /** `disabled` (default): restored webhooks stay off until enabled; `as-exported`: keep their state. */
  webhooks?: WebhookRestoreMode;
}

export const WEBHOOK_MODES = ['disabled', 'as-exported'] as const;
export type WebhookRestoreMode = (typeof WEBHOOK_MODES)[number];

export interface RestoreResult {
  workspace: { id: string; slug: string; created: boolean };
  from: { workspace: string; quire_version: string };
  counts: Record<string, number>;
  /** Restored webhooks (disabled) with their new secrets, shown once. */
  webhooks: { id: string; url: string; secret: string }[];
  /** Members restored: users created here and users matched by email. */
  users: { created: number; matched: number } | null;
  /** Translation records whose id was taken here and got a new one. */
  renumbered: number;
}

function bad(message: string): AppError {
  return new AppError('VALIDATION_FAILED', 'Cannot restore the export', [{ path: 'export', message }]);
}

const ACCEPTED = /^(manifest\.json|[a-z_]+\.ndjson|media\/[A-Za-z0-9-]+)$/;

/** The directory holding the export: `source` itself, or a temporary extraction of the tar. */
async function openSource(ctx: Context, source: string): Promise<{ dir: string; cleanup: () => void }> {
  if (!fs.existsSync(source)) throw bad(`'${source}' does not exist`);
  if (fs.statSync(source).isDirectory()) return { dir: source, cleanup: () => {} };
  const dir = path.join(tmpDirOf(ctx.config), `restore-${randomBytes(6).toString('hex')}`);
  fs.mkdirSync(dir, { recursive: true });
  const cleanup = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    await unpackTo(source, dir, (name) => ACCEPTED.test(name));
  } catch (err) {
    cleanup();
    throw bad(err instanceof Error ? err.message : String(err));
  }
  return { dir, cleanup };
}

/** Reads and checks manifest.json and every file it lists (size and SHA-256). */
async function checkedManifest(dir: string): Promise<Manifest> {
  const file = path.join(dir, MANIFEST_FILE);
  if (!fs.existsSync(file)) throw bad(`no ${MANIFEST_FILE}: not a Quire export`);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
  } catch {
    throw bad(`${MANIFEST_FILE} is not valid JSON`);
  }
  if (!isPlainObject(manifest) || manifest.format !== EXPORT_FORMAT) throw bad(`${MANIFEST_FILE} is not a Quire export manifest`);
  if (
    typeof manifest.version !== 'number' ||
    !Number.isInteger(manifest.version) ||
    manifest.version > EXPORT_VERSION ||
    manifest.version < OLDEST_EXPORT_VERSION
  )
    throw bad(
      `export format version ${String(manifest.version)} is not supported by this Quire (it reads versions ${OLDEST_EXPORT_VERSION} to ${EXPORT_VERSION}): upgrade Quire`,
    );
  if (!isPlainObject(manifest.files) || !isPlainObject(manifest.workspace)) throw bad(`${MANIFEST_FILE} lacks files or workspace`);
  for (const [name, expected] of Object.entries(manifest.files)) {
    if (!ACCEPTED.test(name)) throw bad(`${MANIFEST_FILE} lists '${name}', which is not part of a Quire export`);
    const full = path.join(dir, ...name.split('/'));
    if (!fs.existsSync(full)) throw bad(`file '${name}' is missing`);
    const actual = await hashFile(full);
    if (actual.sha256 !== expected.sha256 || actual.bytes !== expected.bytes) throw bad(`file '${name}' does not match the manifest (changed or damaged)`);
  }
  for (const spec of [WORKSPACE_SPEC, ...TABLES]) if (!manifest.files[tableFile(spec)]) throw bad(`file '${tableFile(spec)}' is missing`);
  return manifest;
}

/** Lines of a table file as rows, BATCH at a time. */
async function* batches(file: string): AsyncGenerator<Record<string, unknown>[]> {
  let batch: Record<string, unknown>[] = [];
  for await (const line of readLines(file)) {
    batch.push(JSON.parse(line) as Record<string, unknown>);
    if (batch.length >= BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/** State carried through one restore. */
interface Restore {
  db: Db;
  dir: string;
  workspaceId: string;
  users: Map<number, number>;
  /** Per serial table: old id → new id, for ids that were taken here. */
  renumbered: Map<string, Map<number, number>>;
  webhooks: WebhookRestoreMode;
  /** The export's format version (manifest.json). */
  version: number;
}

/**
 * A media row of export format `version` as version 3 holds it. Version 1: the stored absolute
 * `url` was the exporting installation's; it is kept only as the `remote_url` of a record without
 * a stored file (a remote original), a stored file's URL being computed from this server's
 * configuration. Versions 1 and 2: no `title` or `description` (null).
 */
function mediaRowOf(version: number, row: Record<string, unknown>): Record<string, unknown> {
  if (version >= 3) return { ...row };
  const { url, ...rest } = row;
  const out = { ...rest, title: null, description: null };
  return version === 1 ? { ...out, remote_url: rest.storage_key ? null : typeof url === 'string' ? url : null } : out;
}

/** An exported row as the database takes it: target workspace, JSON as text, users mapped. */
function dbRow(r: Restore, spec: TableSpec, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = spec.table === 'media' ? mediaRowOf(r.version, row) : { ...row };
  if ('workspace_id' in out) out.workspace_id = r.workspaceId;
  for (const c of spec.json ?? []) if (out[c] !== null && out[c] !== undefined) out[c] = JSON.stringify(out[c]);
  for (const c of spec.users ?? []) {
    const id = out[c];
    if (typeof id === 'number' && r.users.has(id)) out[c] = r.users.get(id);
  }
  if (spec.serialOf) {
    const map = r.renumbered.get(spec.serialOf);
    const id = Number(out.id);
    if (map?.has(id)) out.id = map.get(id);
  }
  return out;
}

/** Refuses a batch whose items exist in this database already (ids are kept). */
async function refuseExisting(r: Restore, spec: TableSpec, rows: Record<string, unknown>[]): Promise<void> {
  if (spec.key.length !== 1 || spec.key[0] !== 'id') return;
  const taken = await existingKeys(
    r.db,
    spec.table,
    rows.map((row) => String(row.id)),
  );
  if (taken.length)
    throw bad(
      `${spec.table} ${taken[0]} already exists in this database (restore keeps ids): restore into another database, or delete the workspace it belongs to first`,
    );
}

async function restoreTable(ctx: Context, r: Restore, spec: TableSpec, stored: string[], webhooks: RestoreResult['webhooks']): Promise<number> {
  let count = 0;
  for await (const rows of batches(path.join(r.dir, tableFile(spec)))) {
    await refuseExisting(r, spec, rows);
    let values = rows.map((row) => dbRow(r, spec, row));
    // A child block may come before its parent in key order: parents are set once all blocks exist.
    if (spec.table === 'blocks') values = values.map((v) => ({ ...v, parent_id: null }));
    if (spec.table === 'webhooks') {
      values = values.map((v) => {
        const secret = generateSecret();
        webhooks.push({ id: String(v.id), url: String(v.url), secret });
        return { ...v, enabled: r.webhooks === 'as-exported' ? v.enabled : 0, secret_encrypted: sealSecret(ctx.secret, String(v.id), secret) };
      });
    }
    if (spec.serial) {
      const taken = await takenIds(
        r.db,
        spec.table,
        values.map((v) => Number(v.id)),
      );
      if (taken.size) {
        await advanceSequence(r.db, spec.table);
        let map = r.renumbered.get(spec.table);
        if (!map) r.renumbered.set(spec.table, (map = new Map()));
        for (const v of values.filter((x) => taken.has(Number(x.id)))) map.set(Number(v.id), await insertWithNewId(r.db, spec.table, v));
        values = values.filter((v) => !taken.has(Number(v.id)));
      }
    }
    await insertRows(r.db, spec.table, values);
    if (spec.table === 'fields') {
      for (const f of values) {
        if (f.filterable || f.sortable) await syncDataIndex(r.db, String(f.name), f.field_type as FieldType);
        if (f.is_unique)
          await createUniqueIndex(r.db, String(f.content_type_id), { id: String(f.id), name: String(f.name), field_type: f.field_type as FieldType });
      }
    }
    if (spec.table === 'media') {
      const storage = ctx.storage.backend();
      for (const v of values) {
        const file = path.join(r.dir, ...mediaFile(String(v.id)).split('/'));
        if (typeof v.storage_key !== 'string' || !v.storage_key || !fs.existsSync(file)) continue;
        await storage.put(v.storage_key, fs.createReadStream(file), { contentType: String(v.mime_type) });
        stored.push(v.storage_key);
      }
    }
    count += rows.length;
  }
  if (spec.serial) await advanceSequence(r.db, spec.table);
  if (spec.table === 'blocks') {
    for await (const rows of batches(path.join(r.dir, tableFile(spec))))
      for (const b of rows) if (b.parent_id) await setBlockParent(r.db, String(b.page_id), String(b.id), String(b.parent_id));
  }
  return count;
}

/** Restores the members file: users matched by email or created without a password. */
async function restoreMembers(r: Restore): Promise<{ created: number; matched: number }> {
  let created = 0;
  let matched = 0;
  for await (const rows of batches(path.join(r.dir, tableFile({ file: MEMBERS_FILE })))) {
    for (const m of rows) {
      const email = String(m.email).toLowerCase();
      const oldId = Number(m.user_id);
      let id = await userIdByEmail(r.db, email);
      if (id !== null) matched += 1;
      else {
        const row = { email, name: m.name ?? null, created_at: String(m.user_created_at), password_hash: null, last_sign_in_at: null };
        if (await userIdTaken(r.db, oldId)) id = await insertWithNewId(r.db, 'users', row);
        else {
          await insertRows(r.db, 'users', [{ id: oldId, ...row }]);
          await advanceSequence(r.db, 'users');
          id = oldId;
        }
        created += 1;
      }
      r.users.set(oldId, id);
      const member = await r.db.kysely
        .selectFrom('memberships')
        .select('role')
        .where('workspace_id', '=', r.workspaceId)
        .where('user_id', '=', id)
        .executeTakeFirst();
      if (!member)
        await insertRows(r.db, 'memberships', [
          { workspace_id: r.workspaceId, user_id: id, role: String(m.role), created_at: String(m.created_at), updated_at: String(m.updated_at) },
        ]);
    }
  }
  return { created, matched };
}

/** Creates the target workspace or fills in the empty one with the exported settings. */
async function restoreWorkspace(db: Db, dir: string, slug: string, existing: { id: string } | null): Promise<{ id: string; created: boolean }> {
  let row: Record<string, unknown> | null = null;
  for await (const rows of batches(path.join(dir, tableFile(WORKSPACE_SPEC)))) row = rows[0];
  if (!row) throw bad(`${tableFile(WORKSPACE_SPEC)} holds no workspace`);
  const settings = {
    name: String(row.name),
    default_locale: String(row.default_locale),
    locales: JSON.stringify(row.locales),
    preview_url_template: (row.preview_url_template as string | null) ?? null,
  };
  if (existing) {
    await db.kysely.updateTable('workspaces').set(settings).where('id', '=', existing.id).execute();
    return { id: existing.id, created: false };
  }
  const id = (await existingKeys(db, 'workspaces', [String(row.id)])).length ? newId() : String(row.id);
  await insertRows(db, 'workspaces', [{ id, slug, ...settings, created_at: String(row.created_at), updated_at: String(row.updated_at) }]);
  return { id, created: true };
}

/**
 * Restores the export at `opts.source` into workspace `opts.workspace`. Throws VALIDATION_FAILED
 * (naming the problem) for a damaged or foreign export, a non-empty workspace or ids already
 * present in this database.
 */
export async function restoreWorkspaceExport(ctx: Context, opts: RestoreOptions): Promise<RestoreResult> {
  const { dir, cleanup } = await openSource(ctx, opts.source);
  const stored: string[] = [];
  try {
    const manifest = await checkedManifest(dir);
    const existing = await findWorkspaceBySlug(ctx.db, opts.workspace);
    if (existing && (await workspaceHoldsAnything(ctx.db, existing.id)))
      throw new AppError('VALIDATION_FAILED', 'Cannot restore the export', [
        { path: '--workspace', message: `workspace '${opts.workspace}' is not empty: restore into a new workspace slug, or an empty one` },
      ]);
    const webhooks: RestoreResult['webhooks'] = [];
    const counts: Record<string, number> = {};
    let users: RestoreResult['users'] = null;
    const result = await withTransaction(ctx.db, async (db) => {
      const ws = await restoreWorkspace(db, dir, opts.workspace, existing);
      const r: Restore = {
        db,
        dir,
        workspaceId: ws.id,
        users: new Map(),
        renumbered: new Map(),
        webhooks: opts.webhooks ?? 'disabled',
        version: manifest.version,
      };
      if (manifest.files[tableFile({ file: MEMBERS_FILE })]) users = await restoreMembers(r);
      for (const spec of TABLES) counts[spec.file] = await restoreTable(ctx, r, spec, stored, webhooks);
      counts.media_files = stored.length;
      const renumbered = [...r.renumbered.values()].reduce((n, m) => n + m.size, 0);
      return { ws, renumbered };
    });
    return {
      workspace: { id: result.ws.id, slug: opts.workspace, created: result.ws.created },
      from: { workspace: manifest.workspace.slug, quire_version: manifest.quire_version },
      counts,
      webhooks,
      users,
      renumbered: result.renumbered,
    };
  } catch (err) {
    // The transaction rolled back; the files it stored belong to no record.
    const storage = stored.length ? ctx.storage.backend() : null;
    for (const key of stored) await storage?.delete(key).catch(() => {});
    throw err;
  } finally {
    cleanup();
  }
}
