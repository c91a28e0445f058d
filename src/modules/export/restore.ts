/**
 * `quire import quire` (issue 12 item 5): restores a workspace export (format.ts) into an empty
 * workspace of this installation, on SQLite or PostgreSQL, keeping ids, versions, timestamps,
 * statuses, positions and schedules.
 *
 * Rules (docs/cli.md "Export and restore"):
 * - The target workspace is created when missing (with the exported workspace's id when that is
 *   free here) or must hold nothing yet: no content types, entries, pages, media, releases or
 *   webhooks. Its keys and members stay.
 * - Every file is checked against the manifest's size and SHA-256 before anything is written;
 *   an export of a newer format version is refused. Version 1 media rows (with the exporting
 *   installation's absolute `url`) and version 2 ones (without `title` and `description`) are
 *   read as version 3 ones: media URLs are computed here, titles and descriptions are null.
 *   Versions 1 to 3 hold no releases (format.ts TableSpec.since): none are restored.
 *   Versions 1 to 4 hold no comments.
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
 *   in the content are mapped to them. Without members, user ids are kept as numbers, except
 *   in releases and their items and in comments, whose user columns reference users: there an
 *   id no member maps is restored as null. Comments' mentions are read again from their text
 *   against the restored members (a restore notifies no one).
 *
 * An export is hostile input (issue 23; docs/cli.md "What a restore refuses"): a file of it may
 * have been written by anyone. So every file is read through confined.ts (only export names,
 * inside the export, no links, regular files, sizes bounded before reading: MANIFEST_MAX_BYTES,
 * LINE_MAX_BYTES, MEDIA_MAX_BYTES) and only when the manifest lists it (with its hash); a tar is
 * unpacked by tar.ts under the same names and limits; every row is checked before it is written
 * (checkRow: ids are uuids, serial ids and user ids integers, statuses and kinds known words,
 * column names plain); every reference to a parent (content type, entry, page, release) must name
 * a record restored into the target workspace,
 * so no row can land in, or hang under, another workspace; media storage keys are derived here
 * from the target workspace, the media id and the file's type (the file's `storage_key` is never
 * used), and each media file is identified by its bytes like an upload (its type must be the
 * row's `mime_type`; an SVG is sanitized). Any refusal is one VALIDATION_FAILED line naming the
 * file and the row.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../../context.js';
import { withTransaction } from '../../db/transaction.js';
import { auditEntry, recordAudit, systemAuditActor, workspaceTarget } from '../audit/record.js';
import type { Db } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { isPlainObject } from '../../lib/json.js';
import { isUuid, newId } from '../../lib/ids.js';
import { SLUG_PATTERN } from '../../lib/slugs.js';
import { tmpDirOf } from '../../storage/index.js';
import { isRole } from '../auth/permissions.js';
import { restoreCustomRole } from '../access/custom-roles.js';
import { MAX_COMMENT_LENGTH, restoreMentions } from '../comments/operations.js';
import { linkReply } from '../comments/repository.js';
import { restoreWorkflow } from '../workflows/transfer.js';
import { folderProblem } from '../media/folders.js';
import { originalKey, storedFilename } from '../media/locations.js';
import { probeFile } from '../media/probe.js';
import { spoolStream } from '../media/spool.js';
import { buildField, type FieldInput } from '../content-types/fields.js';
import { createUniqueIndex, fieldCountsOfWorkspace, syncDataIndex } from '../content-types/repository.js';
import { fieldCapProblem, type FieldType } from '../content-types/model.js';
import { appendVersions, ENTRY_TABLES, PAGE_TABLES, type ItemTables, type VersionAction } from '../publishing/repository.js';
import { generateSecret, sealSecret } from '../webhooks/secrets.js';
import { LOCALE_PATTERN, checkPreviewTemplate } from '../workspaces/operations.js';
import { findWorkspaceBySlug } from '../workspaces/repository.js';
import { BATCH } from './export.js';
import {
  ExportFileError,
  MANIFEST_MAX_BYTES,
  exportName,
  exportRoot,
  hashOpened,
  linesOf,
  openConfined,
  printable,
  readWhole,
  sizeText,
  streamOf,
  type OpenedFile,
} from './confined.js';
import {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  MANIFEST_FILE,
  OLDEST_EXPORT_VERSION,
  MEMBERS_FILE,
  ROLES_FILE,
  TABLES,
  WORKFLOWS_FILE,
  WORKSPACE_SPEC,
  mediaFile,
  tableFile,
  type Manifest,
  type ParentTable,
  type TableSpec,
} from './format.js';
import {
  advanceSequence,
  existingKeys,
  idsInWorkspace,
  insertRows,
  insertWithNewId,
  largestSerialId,
  setBlockParent,
  takenIds,
  userIdByEmail,
  userIdTaken,
  workspaceHoldsAnything,
} from './repository.js';
import { TarError, unpackTo } from './tar.js';

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

/** The most bytes a restore takes for the export file `name`, or null when no export holds it. */
function limitOf(ctx: Context, name: string): number | null {
  const kind = exportName(name);
  if (kind === 'manifest') return MANIFEST_MAX_BYTES;
  if (kind === 'media') return ctx.config.mediaMaxBytes;
  // Table files are read a line at a time, each line bounded (LINE_MAX_BYTES); a tar holds no more than its own size.
  if (kind === 'table') return Number.MAX_SAFE_INTEGER;
  return null;
}

/** The export's directory: `source` itself (its real path), or a new temporary extraction of the tar. */
async function openSource(ctx: Context, source: string): Promise<{ root: string; cleanup: () => void }> {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(source);
  } catch {
    throw bad(`'${source}' does not exist`);
  }
  if (stat.isDirectory()) return { root: exportRoot(source), cleanup: () => {} };
  if (!stat.isFile()) throw bad(`'${source}' is neither a directory nor a .tar file`);
  fs.mkdirSync(tmpDirOf(ctx.config), { recursive: true });
  const dir = fs.mkdtempSync(path.join(tmpDirOf(ctx.config), 'restore-'));
  const cleanup = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    await unpackTo(source, dir, (name) => limitOf(ctx, name));
  } catch (err) {
    cleanup();
    if (err instanceof TarError) throw bad(err.message);
    throw bad(`the tar file cannot be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  return { root: exportRoot(dir), cleanup };
}

/** Opens an export file under the rules of confined.ts, turning a refusal into VALIDATION_FAILED. */
async function confined(root: string, name: string, maxBytes: number): Promise<OpenedFile | null> {
  try {
    return await openConfined(root, name, maxBytes);
  } catch (err) {
    if (err instanceof ExportFileError) throw bad(err.message);
    throw err;
  }
}

const SHA256 = /^[0-9a-f]{64}$/;
const VERSION_TEXT = /^[0-9A-Za-z.+-]{1,64}$/;

/** Reads and checks manifest.json and every file it lists (name, declared size, size and SHA-256). */
async function checkedManifest(ctx: Context, root: string): Promise<Manifest> {
  const opened = await confined(root, MANIFEST_FILE, MANIFEST_MAX_BYTES);
  if (!opened) throw bad(`no ${MANIFEST_FILE}: not a Quire export`);
  let manifest: Manifest;
  try {
    manifest = JSON.parse((await readWhole(opened)).toString('utf8')) as Manifest;
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
      `export format version ${typeof manifest.version === 'number' ? manifest.version : printable(showValue(manifest.version))} is not supported by this Quire (it reads versions ${OLDEST_EXPORT_VERSION} to ${EXPORT_VERSION}): upgrade Quire`,
    );
  if (!isPlainObject(manifest.files) || !isPlainObject(manifest.workspace)) throw bad(`${MANIFEST_FILE} lacks files or workspace`);
  // Both are printed by the CLI: no control characters reach the operator's terminal.
  if (typeof manifest.workspace.slug !== 'string' || !SLUG_PATTERN.test(manifest.workspace.slug))
    throw bad(`${MANIFEST_FILE}: workspace.slug is not a workspace slug`);
  if (typeof manifest.quire_version !== 'string' || !VERSION_TEXT.test(manifest.quire_version)) throw bad(`${MANIFEST_FILE}: quire_version is not a version`);
  for (const [name, expected] of Object.entries(manifest.files)) {
    const limit = limitOf(ctx, name);
    if (limit === null || name === MANIFEST_FILE) throw bad(`${MANIFEST_FILE} lists '${printable(name)}', which is not part of a Quire export`);
    if (
      !isPlainObject(expected) ||
      !Number.isSafeInteger(expected.bytes) ||
      expected.bytes < 0 ||
      typeof expected.sha256 !== 'string' ||
      !SHA256.test(expected.sha256)
    )
      throw bad(`${MANIFEST_FILE}: the entry of '${name}' is not {bytes, sha256}`);
    if (expected.bytes > limit)
      throw bad(
        `'${name}' is ${sizeText(expected.bytes)} by the manifest, more than the limit of ${sizeText(limit)}${exportName(name) === 'media' ? ' (MEDIA_MAX_BYTES)' : ''}`,
      );
    const file = await confined(root, name, limit);
    if (!file) throw bad(`file '${name}' is missing`);
    if (file.size !== expected.bytes) {
      await file.handle.close();
      throw bad(`file '${name}' does not match the manifest (changed or damaged)`);
    }
    const actual = await hashOpened(file);
    if (actual.sha256 !== expected.sha256 || actual.bytes !== expected.bytes) throw bad(`file '${name}' does not match the manifest (changed or damaged)`);
  }
  for (const spec of [WORKSPACE_SPEC, ...TABLES]) {
    const listed = Boolean(manifest.files[tableFile(spec)]);
    if (inVersion(spec, manifest.version) && !listed) throw bad(`file '${tableFile(spec)}' is missing`);
    // An older export with a newer table's file was not written by Quire: its rows would be ignored.
    if (!inVersion(spec, manifest.version) && listed)
      throw bad(`${MANIFEST_FILE} lists '${tableFile(spec)}', which is not part of a version ${manifest.version} export`);
  }
  return manifest;
}

/** True when exports of format `version` hold the table of `spec`. */
function inVersion(spec: TableSpec, version: number): boolean {
  return version >= (spec.since ?? OLDEST_EXPORT_VERSION);
}

const COLUMN = /^[a-z][a-z0-9_]{0,62}$/;

/** Lines of a table file (one the manifest lists and checked) as rows, BATCH at a time, each with its line number. */
/** The largest `id` of a serial table's file (0 when empty): one pass over its lines, ids only. */
async function largestNumberIn(root: string, spec: TableSpec): Promise<number> {
  let largest = 0;
  for await (const lines of batches(root, tableFile(spec))) for (const { row } of lines) largest = Math.max(largest, Number(row.id) || 0);
  return largest;
}

async function* batches(root: string, name: string): AsyncGenerator<{ line: number; row: Record<string, unknown> }[]> {
  const opened = await confined(root, name, Number.MAX_SAFE_INTEGER);
  if (!opened) throw bad(`file '${name}' is missing`);
  let batch: { line: number; row: Record<string, unknown> }[] = [];
  let line = 0;
  for await (const text of linesOf(opened, name)) {
    line += 1;
    let row: unknown;
    try {
      row = JSON.parse(text);
    } catch {
      throw bad(`${name} line ${line} is not valid JSON`);
    }
    if (!isPlainObject(row)) throw bad(`${name} line ${line} is not a JSON object`);
    const bad_ = Object.keys(row).find((k) => !COLUMN.test(k));
    if (bad_ !== undefined) throw bad(`${name} line ${line}: '${printable(bad_)}' is not a column name`);
    batch.push({ line, row });
    if (batch.length >= BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/** State carried through one restore. */
interface Restore {
  ctx: Context;
  db: Db;
  root: string;
  /** The files manifest.json lists (and whose hashes were checked): the only ones read. */
  files: ReadonlySet<string>;
  workspaceId: string;
  users: Map<number, number>;
  /** Per serial table: old id → new id, for ids that were taken here. */
  renumbered: Map<string, Map<number, number>>;
  webhooks: WebhookRestoreMode;
  /** The export's format version (manifest.json). */
  version: number;
}

/** Tables whose rows carry the workspace id (replaced by the target's on restore). */
const WORKSPACE_TABLES = new Set(['content_types', 'media', 'releases', 'entries', 'pages', 'comments', 'webhooks']);

/** A value from the export in a refusal: as JSON (control characters escaped), shortened. */
const showValue = (v: unknown) => printable(JSON.stringify(v)?.slice(0, 80) ?? String(v));

/**
 * Refuses a row of `spec` that is not what its columns claim: uuid columns (spec.ids, and
 * spec.optionalIds unless null) hold uuids, serial ids and version numbers positive integers,
 * user ids and spec.integers integers (or null where allowed), spec.words one of their words,
 * and every row of a batch has the columns of its first row.
 */
function checkRow(spec: TableSpec, line: number, row: Record<string, unknown>, columns: readonly string[]): void {
  const where = `${tableFile(spec)} line ${line}`;
  const keys = Object.keys(row);
  if (keys.length !== columns.length || keys.some((k) => !columns.includes(k))) throw bad(`${where} does not have the columns of the rows before it`);
  for (const c of spec.ids ?? []) if (!isUuid(row[c])) throw bad(`${where}: ${c} ${showValue(row[c])} is not a uuid`);
  for (const c of spec.optionalIds ?? [])
    if (row[c] !== null && row[c] !== undefined && !isUuid(row[c])) throw bad(`${where}: ${c} ${showValue(row[c])} is not a uuid`);
  const integers = [...(spec.serial || spec.serialOf ? ['id'] : []), ...(spec.key.includes('version') ? ['version'] : [])];
  for (const c of integers) {
    const v = row[c];
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) throw bad(`${where}: ${c} ${showValue(v)} is not a positive integer`);
  }
  for (const c of spec.users ?? []) {
    const v = row[c];
    if (v !== null && v !== undefined && (typeof v !== 'number' || !Number.isSafeInteger(v))) throw bad(`${where}: ${c} ${showValue(v)} is not a user id`);
  }
  const { required = [], optional = [] } = spec.integers ?? {};
  for (const c of [...required, ...optional]) {
    const v = row[c];
    if ((v === null || v === undefined) && optional.includes(c)) continue;
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw bad(`${where}: ${c} ${showValue(v)} is not an integer`);
  }
  for (const [c, words] of Object.entries(spec.words ?? {}))
    if (typeof row[c] !== 'string' || !words.includes(row[c])) throw bad(`${where}: ${c} ${showValue(row[c])} is not one of ${words.join(', ')}`);
}

const PARENT_WORDS: Record<ParentTable, string> = { content_types: 'content type', entries: 'entry', pages: 'page', releases: 'release' };

/**
 * Refuses a field the content-types API would refuse (fields.ts buildField: name, type, options,
 * validation, flags). Field names reach SQL as JSON paths and index expressions
 * (db/dialect.ts), so only names of the API's pattern may ever be stored.
 */
function checkField(line: number, row: Record<string, unknown>): void {
  const where = `fields.ndjson line ${line}`;
  if (typeof row.name !== 'string' || typeof row.field_type !== 'string' || (row.label !== undefined && typeof row.label !== 'string'))
    throw bad(`${where}: name, label and field_type must be strings`);
  const input: FieldInput = {
    name: row.name,
    label: row.label as string | undefined,
    field_type: row.field_type,
    is_unique: Boolean(row.is_unique),
    filterable: Boolean(row.filterable),
    sortable: Boolean(row.sortable),
    options: row.options as FieldInput['options'],
    validation: row.validation as FieldInput['validation'],
  };
  const { errors } = buildField(String(row.content_type_id), input, 0, '', where);
  if (errors.length) throw bad(`${printable(errors[0].path)} ${printable(errors[0].message)}`);
}

/**
 * Refuses a batch with a reference (spec.parents) to anything but a record restored into the
 * target workspace. Null references pass: checkRow allowed them only in optional id columns.
 */
async function checkParents(r: Restore, spec: TableSpec, rows: { line: number; row: Record<string, unknown> }[]): Promise<void> {
  for (const parent of spec.parents ?? []) {
    const { when } = parent;
    const naming = rows.filter(({ row }) => row[parent.column] !== null && row[parent.column] !== undefined && (!when || row[when.column] === when.is));
    const ids = [...new Set(naming.map(({ row }) => String(row[parent.column])))];
    const found = await idsInWorkspace(r.db, parent.table, r.workspaceId, ids);
    const stray = naming.find(({ row }) => !found.has(String(row[parent.column])));
    if (stray)
      throw bad(
        `${tableFile(spec)} line ${stray.line}: ${parent.column} ${String(stray.row[parent.column])} names no ${PARENT_WORDS[parent.table]} of this export`,
      );
  }
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

const STORED_EXT = /^[a-z0-9]{1,8}$/;

/**
 * Checks a media row's file columns and gives it the storage key this server derives (the
 * export's `storage_key` says only whether the record has a stored file): the target workspace,
 * the row's folder and the file name `<media id>.<ext>`, as an upload's. A remote asset
 * (no stored file) keeps an http(s) `remote_url`.
 */
function withDerivedKey(r: Restore, line: number, v: Record<string, unknown>): Record<string, unknown> {
  const where = `media.ndjson line ${line}`;
  const id = String(v.id);
  if (typeof v.mime_type !== 'string') throw bad(`${where}: mime_type is not a string`);
  const folder = v.folder ?? null;
  if (folder !== null && (typeof folder !== 'string' || folderProblem(folder) !== null))
    throw bad(`${where}: folder ${showValue(folder)} is not a media folder`);
  if (v.storage_key === null || v.storage_key === undefined) {
    const remote = v.remote_url ?? null;
    if (remote !== null && (typeof remote !== 'string' || !/^https?:\/\//i.test(remote) || !URL.canParse(remote)))
      throw bad(`${where}: remote_url ${showValue(remote)} is not an http(s) URL`);
    return { ...v, storage_key: null };
  }
  const ext = typeof v.filename === 'string' && v.filename.startsWith(`${id}.`) ? v.filename.slice(id.length + 1) : '';
  if (!STORED_EXT.test(ext)) throw bad(`${where}: filename ${showValue(v.filename)} is not the stored name of media ${id} (<id>.<extension>)`);
  return { ...v, storage_key: originalKey(r.workspaceId, folder as string | null, storedFilename(id, ext)), remote_url: null };
}

/** An exported row as the database takes it: target workspace, JSON as text, users mapped (format.ts usersReferenced). */
function dbRow(r: Restore, spec: TableSpec, line: number, row: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> = spec.table === 'media' ? mediaRowOf(r.version, row) : { ...row };
  if (WORKSPACE_TABLES.has(spec.table)) out.workspace_id = r.workspaceId;
  if (spec.table === 'media') out = withDerivedKey(r, line, out);
  for (const c of spec.json ?? []) if (out[c] !== null && out[c] !== undefined) out[c] = JSON.stringify(out[c]);
  for (const c of spec.users ?? []) {
    const id = out[c];
    if (typeof id !== 'number') continue;
    if (r.users.has(id)) out[c] = r.users.get(id);
    else if (spec.usersReferenced) out[c] = null;
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
  // Serial ids (translation records) are not refused but renumbered when taken (restoreTable).
  if (spec.serial || spec.key.length !== 1 || spec.key[0] !== 'id') return;
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

/**
 * Stores the file of a restored media record, identified by its bytes as an upload is (probe.ts):
 * its type must be the row's `mime_type` and its extension the row's, an SVG is sanitized; the
 * record's size is the stored file's. Reads `media/<id>` only when the manifest lists it.
 * Returns the row as inserted, or it unchanged when the export holds no file for it.
 */
async function storeMediaFile(r: Restore, line: number, v: Record<string, unknown>, stored: string[]): Promise<Record<string, unknown>> {
  const name = mediaFile(String(v.id));
  if (typeof v.storage_key !== 'string' || !r.files.has(name)) return v;
  const opened = await confined(r.root, name, r.ctx.config.mediaMaxBytes);
  if (!opened) throw bad(`file '${name}' is missing`);
  const spooled = await spoolStream(r.ctx.config, streamOf(opened), r.ctx.config.mediaMaxBytes);
  try {
    let probed;
    try {
      probed = await probeFile(spooled);
    } catch (err) {
      throw bad(`'${name}' is not a file Quire stores (${err instanceof Error ? err.message : String(err)})`);
    }
    if (probed.mime !== v.mime_type || !v.storage_key.endsWith(`.${probed.ext}`))
      throw bad(`media.ndjson line ${line}: '${name}' is ${probed.mime} (.${probed.ext}), not the ${showValue(v.mime_type)} of its record`);
    await r.ctx.storage.backend().put(v.storage_key, fs.createReadStream(spooled.path), { contentType: probed.mime });
    stored.push(v.storage_key);
    return { ...v, size: spooled.size };
  } finally {
    await spooled.dispose();
  }
}

/**
 * Refuses a release item the releases API could not have made (releases/operations.ts
 * addReleaseItem): a `publish` item holds its release version as a JSON object, an `unpublish`
 * item none. The version's content is checked when the release is published, as any variant's.
 */
function checkReleaseItem(line: number, row: Record<string, unknown>): void {
  const where = `release_items.ndjson line ${line}`;
  if (row.action === 'publish' && !isPlainObject(row.snapshot)) throw bad(`${where}: a publish item's snapshot must be an object`);
  if (row.action === 'unpublish' && row.snapshot !== null && row.snapshot !== undefined) throw bad(`${where}: an unpublish item holds no snapshot`);
}

/**
 * Refuses a comment the comments API could not have made (docs/workflow.md "Comments"): it is
 * about exactly the entry or the page its `item_kind` names, its text is 1 to 10,000 characters,
 * its anchor strings or null. Anchors are not checked against the fields: a comment keeps its
 * anchor when a field or block goes.
 */
function checkComment(line: number, row: Record<string, unknown>): void {
  const where = `comments.ndjson line ${line}`;
  const entry = row.item_kind === 'entry';
  if (entry ? !row.entry_id || row.page_id : !row.page_id || row.entry_id)
    throw bad(`${where}: a comment is about exactly the ${String(row.item_kind)} its item_kind names`);
  if (typeof row.body !== 'string' || row.body.trim().length === 0 || row.body.length > MAX_COMMENT_LENGTH)
    throw bad(`${where}: body must be text of 1 to ${MAX_COMMENT_LENGTH} characters`);
  for (const c of ['field', 'locale'])
    if (row[c] !== null && row[c] !== undefined && (typeof row[c] !== 'string' || (row[c] as string).length > 300))
      throw bad(`${where}: ${c} ${showValue(row[c])} is not a field path or locale`);
}

async function restoreTable(r: Restore, spec: TableSpec, stored: string[], webhooks: RestoreResult['webhooks']): Promise<number> {
  if (!inVersion(spec, r.version)) return 0;
  let count = 0;
  // Numbers given to taken translation records start above every number of the file and of the
  // table, so they never collide with a record written as exported, in this batch or a later one.
  let nextNumber: number | null = null;
  const newNumber = async (): Promise<number> => {
    if (nextNumber === null) nextNumber = Math.max(await largestNumberIn(r.root, spec), await largestSerialId(r.db, spec.table)) + 1;
    return nextNumber++;
  };
  for await (const lines of batches(r.root, tableFile(spec))) {
    const columns = Object.keys(lines[0].row);
    for (const { line, row } of lines) checkRow(spec, line, row, columns);
    if (spec.table === 'fields') for (const { line, row } of lines) checkField(line, row);
    if (spec.table === 'release_items') for (const { line, row } of lines) checkReleaseItem(line, row);
    if (spec.table === 'comments') for (const { line, row } of lines) checkComment(line, row);
    const rows = lines.map((l) => l.row);
    await refuseExisting(r, spec, rows);
    await checkParents(r, spec, lines);
    let values = lines.map(({ line, row }) => dbRow(r, spec, line, row));
    // A child block may come before its parent in key order: parents are set once all blocks exist.
    if (spec.table === 'blocks' || spec.table === 'comments') values = values.map((v) => ({ ...v, parent_id: null }));
    if (spec.table === 'media') {
      const withFiles: Record<string, unknown>[] = [];
      for (const [k, v] of values.entries()) withFiles.push(await storeMediaFile(r, lines[k].line, v, stored));
      values = withFiles;
    }
    if (spec.table === 'webhooks') {
      // The report prints each URL: an http(s) URL without control characters, as the API takes.
      for (const [k, v] of values.entries())
        if (typeof v.url !== 'string' || !/^https?:\/\//i.test(v.url) || !URL.canParse(v.url) || printable(v.url) !== v.url)
          throw bad(`webhooks.ndjson line ${lines[k].line}: url ${showValue(v.url)} is not an http(s) URL`);
      values = values.map((v) => {
        const secret = generateSecret();
        webhooks.push({ id: String(v.id), url: String(v.url), secret });
        return { ...v, enabled: r.webhooks === 'as-exported' ? v.enabled : 0, secret_encrypted: sealSecret(r.ctx.secret, String(v.id), secret) };
      });
    }
    if (spec.serial) {
      const taken = await takenIds(
        r.db,
        spec.table,
        values.map((v) => Number(v.id)),
      );
      if (taken.size) {
        let map = r.renumbered.get(spec.table);
        if (!map) r.renumbered.set(spec.table, (map = new Map()));
        const renumbered: Record<string, unknown>[] = [];
        for (const v of values) {
          if (!taken.has(Number(v.id))) renumbered.push(v);
          else {
            const id = await newNumber();
            map.set(Number(v.id), id);
            renumbered.push({ ...v, id });
          }
        }
        values = renumbered;
      }
    }
    const history = HISTORY_TABLES[spec.table];
    if (history) await restoreVersions(spec, history, lines, values, r.db);
    else await insertRows(r.db, spec.table, values);
    if (spec.table === 'fields') {
      for (const f of values) {
        if (f.filterable || f.sortable) await syncDataIndex(r.db, String(f.name), f.field_type as FieldType);
        if (f.is_unique)
          await createUniqueIndex(r.db, String(f.content_type_id), { id: String(f.id), name: String(f.name), field_type: f.field_type as FieldType });
      }
    }
    count += rows.length;
  }
  if (spec.serial) await advanceSequence(r.db, spec.table);
  if (spec.table === 'blocks') {
    // Parents within the block's own page only (setBlockParent matches page and id).
    for await (const lines of batches(r.root, tableFile(spec)))
      for (const { row: b } of lines) if (b.parent_id) await setBlockParent(r.db, String(b.page_id), String(b.id), String(b.parent_id));
  }
  if (spec.table === 'comments') {
    // A reply answers a thread's first comment of its own item; mentions follow the restored members.
    for await (const lines of batches(r.root, tableFile(spec)))
      for (const { line, row: c } of lines)
        if (c.parent_id && !(await linkReply(r.db, r.workspaceId, String(c.id), String(c.parent_id))))
          throw bad(`${tableFile(spec)} line ${line}: parent_id ${String(c.parent_id)} names no thread of the same item in this export`);
    await restoreMentions(r.db, r.workspaceId);
  }
  if (spec.table === 'fields') {
    // The field cap holds here as on every other path that adds fields (content-types/model.ts).
    for (const t of await fieldCountsOfWorkspace(r.db, r.workspaceId)) {
      const cap = fieldCapProblem(0, t.n);
      if (cap) throw bad(`${tableFile(spec)}: content type ${showValue(t.slug)}: ${cap}`);
    }
  }
  return count;
}

/** The history tables, written through the publishing core's appendVersions like every other version. */
const HISTORY_TABLES: Partial<Record<string, ItemTables>> = { entry_versions: ENTRY_TABLES, page_versions: PAGE_TABLES };

/**
 * Writes restored versions with appendVersions (publishing/repository.ts), the writer of every
 * version, so a rule it holds reaches restored history too. A version row must have only the
 * columns of a version (`release_id` from format version 4 on; older rows have none, or null) and a
 * snapshot; `values` are the rows as dbRow made them (user ids mapped), `lines` as read (the
 * snapshot before dbRow encoded it: appendVersions encodes it).
 */
async function restoreVersions(
  spec: TableSpec,
  t: ItemTables,
  lines: { line: number; row: Record<string, unknown> }[],
  values: Record<string, unknown>[],
  db: Db,
): Promise<void> {
  const columns = [t.fk, 'version', 'action', 'status', 'snapshot', 'created_at', 'created_by', 'release_id'];
  const rows = lines.map(({ line, row }, k) => {
    const where = `${tableFile(spec)} line ${line}`;
    const extra = Object.keys(row).find((c) => !columns.includes(c));
    if (extra !== undefined) throw bad(`${where}: '${printable(extra)}' is not a column of a version`);
    if (row.snapshot === null || row.snapshot === undefined) throw bad(`${where}: snapshot is missing`);
    for (const c of ['action', 'status', 'created_at']) if (typeof row[c] !== 'string') throw bad(`${where}: ${c} ${showValue(row[c])} is not a string`);
    const v = values[k];
    return {
      itemId: String(v[t.fk]),
      version: Number(v.version),
      action: v.action as VersionAction,
      status: v.status as string,
      snapshot: row.snapshot,
      created_at: v.created_at as string,
      created_by: v.created_by === null || v.created_by === undefined ? null : Number(v.created_by),
      releaseId: typeof v.release_id === 'string' ? v.release_id : null,
    };
  });
  await appendVersions(db, t, rows);
}

/** Restores the members file: users matched by email or created without a password. */
async function restoreMembers(r: Restore): Promise<{ created: number; matched: number; custom: CustomMembership[] }> {
  let created = 0;
  let matched = 0;
  const custom: CustomMembership[] = [];
  for await (const lines of batches(r.root, tableFile({ file: MEMBERS_FILE }))) {
    for (const { line, row: m } of lines) {
      const where = `${tableFile({ file: MEMBERS_FILE })} line ${line}`;
      if (typeof m.email !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(m.email) || m.email.length > 320) throw bad(`${where}: email is not an email address`);
      if (typeof m.user_id !== 'number' || !Number.isSafeInteger(m.user_id) || m.user_id < 1) throw bad(`${where}: user_id is not a user id`);
      if (typeof m.role !== 'string' || (!isRole(m.role) && !isUuid(m.role))) throw bad(`${where}: role ${showValue(m.role)} is not a role`);
      const email = m.email.toLowerCase();
      const oldId = m.user_id;
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
      const membership = { workspace_id: r.workspaceId, user_id: id, role: m.role, created_at: String(m.created_at), updated_at: String(m.updated_at) };
      // A custom role's membership waits for the roles file, restored after the content types
      // its permissions name (restoreRoles).
      if (!member && !isRole(m.role)) custom.push({ ...membership, where });
      else if (!member) await insertRows(r.db, 'memberships', [membership]);
    }
  }
  return { created, matched, custom };
}

/** A membership holding a custom role of the export, inserted once its role is restored. */
interface CustomMembership {
  workspace_id: string;
  user_id: number;
  role: string;
  created_at: string;
  updated_at: string;
  /** Its line, for errors. */
  where: string;
}

/**
 * Restores the custom roles file (ROLES_FILE), each role checked as the roles API checks it and
 * given a new key, then the memberships holding them; a membership naming a role the export does
 * not hold is refused. Returns the number of roles.
 */
async function restoreRoles(r: Restore, memberships: CustomMembership[]): Promise<number> {
  const keys = new Map<string, string>();
  const name = tableFile({ file: ROLES_FILE });
  if (r.files.has(name)) {
    for await (const lines of batches(r.root, name)) {
      for (const { line, row } of lines) {
        const where = `${name} line ${line}`;
        if (typeof row.key !== 'string' || !isUuid(row.key) || keys.has(row.key)) throw bad(`${where}: key is not a role key`);
        if (!Array.isArray(row.permissions)) throw bad(`${where}: permissions is not a list`);
        const input = { name: row.name as string, description: typeof row.description === 'string' ? row.description : '', permissions: row.permissions };
        try {
          keys.set(row.key, await restoreCustomRole({ ...r.ctx, db: r.db }, r.workspaceId, input));
        } catch (err) {
          if (err instanceof AppError && err.code === 'VALIDATION_FAILED') {
            throw bad(`${where}: ${(err.errors ?? []).map((e) => `${e.path.replace(/^body\./, '')} ${e.message}`).join('; ') || err.message}`);
          }
          throw err;
        }
      }
    }
  }
  for (const { where, ...m } of memberships) {
    const key = keys.get(m.role);
    if (key === undefined) throw bad(`${where}: role ${showValue(m.role)} is not a role of this export`);
    await insertRows(r.db, 'memberships', [{ ...m, role: key }]);
  }
  return keys.size;
}

/**
 * Restores the workflows file (WORKFLOWS_FILE) after the items and custom roles it names: each
 * workflow checked as POST /workflows checks one, its items put back in their stages
 * (src/modules/workflows/transfer.ts). Returns the number of workflows.
 */
async function restoreWorkflows(r: Restore): Promise<number> {
  const name = tableFile({ file: WORKFLOWS_FILE });
  if (!r.files.has(name)) return 0;
  let count = 0;
  for await (const lines of batches(r.root, name)) {
    for (const { line, row } of lines) {
      try {
        await restoreWorkflow(r.db, r.workspaceId, row, r.ctx.clock().toISOString());
      } catch (err) {
        if (err instanceof AppError && err.code === 'VALIDATION_FAILED') {
          throw bad(`${name} line ${line}: ${(err.errors ?? []).map((e) => `${e.path} ${e.message}`).join('; ') || err.message}`);
        }
        throw err;
      }
      count++;
    }
  }
  return count;
}

/** Creates the target workspace or fills in the empty one with the exported settings. */
async function restoreWorkspace(db: Db, root: string, slug: string, existing: { id: string } | null): Promise<{ id: string; created: boolean }> {
  let row: Record<string, unknown> | null = null;
  for await (const lines of batches(root, tableFile(WORKSPACE_SPEC))) {
    row = lines[0].row;
    break;
  }
  if (!row) throw bad(`${tableFile(WORKSPACE_SPEC)} holds no workspace`);
  checkRow(WORKSPACE_SPEC, 1, row, Object.keys(row));
  // The rules of the workspace settings API (workspaces/operations.ts): the Studio links to the preview template.
  const where = `${tableFile(WORKSPACE_SPEC)} line 1`;
  if (!Array.isArray(row.locales) || !row.locales.length || !row.locales.every((l) => typeof l === 'string' && LOCALE_PATTERN.test(l)))
    throw bad(`${where}: locales is not a list of locales`);
  if (typeof row.default_locale !== 'string' || !row.locales.includes(row.default_locale)) throw bad(`${where}: default_locale is not one of its locales`);
  if (typeof row.name !== 'string') throw bad(`${where}: name is not a string`);
  if (row.preview_url_template !== null && row.preview_url_template !== undefined) {
    try {
      if (typeof row.preview_url_template !== 'string') throw new Error('not a string');
      checkPreviewTemplate(row.preview_url_template);
    } catch (err) {
      const detail = err instanceof AppError ? (err.errors?.[0]?.message ?? err.message) : 'is not a string';
      throw bad(`${where}: preview_url_template ${detail}`);
    }
  }
  const settings = {
    name: String(row.name),
    default_locale: String(row.default_locale),
    locales: JSON.stringify(row.locales),
    preview_url_template: typeof row.preview_url_template === 'string' ? row.preview_url_template : null,
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
 * (naming the problem, in one line) for a damaged, foreign or hostile export (see the module
 * comment), a non-empty workspace or ids already present in this database.
 */
export async function restoreWorkspaceExport(ctx: Context, opts: RestoreOptions): Promise<RestoreResult> {
  const { root, cleanup } = await openSource(ctx, opts.source);
  const stored: string[] = [];
  try {
    const manifest = await checkedManifest(ctx, root);
    const existing = await findWorkspaceBySlug(ctx.db, opts.workspace);
    if (existing && (await workspaceHoldsAnything(ctx.db, existing.id)))
      throw new AppError('VALIDATION_FAILED', 'Cannot restore the export', [
        { path: '--workspace', message: `workspace '${opts.workspace}' is not empty: restore into a new workspace slug, or an empty one` },
      ]);
    const webhooks: RestoreResult['webhooks'] = [];
    const counts: Record<string, number> = {};
    let users: RestoreResult['users'] = null;
    const result = await withTransaction(ctx.db, async (db) => {
      const ws = await restoreWorkspace(db, root, opts.workspace, existing);
      const r: Restore = {
        ctx,
        db,
        root,
        files: new Set(Object.keys(manifest.files)),
        workspaceId: ws.id,
        users: new Map(),
        renumbered: new Map(),
        webhooks: opts.webhooks ?? 'disabled',
        version: manifest.version,
      };
      let custom: CustomMembership[] = [];
      if (manifest.files[tableFile({ file: MEMBERS_FILE })]) ({ custom, ...users } = await restoreMembers(r));
      for (const spec of TABLES) counts[spec.file] = await restoreTable(r, spec, stored, webhooks);
      counts[ROLES_FILE] = await restoreRoles(r, custom);
      counts[WORKFLOWS_FILE] = await restoreWorkflows(r);
      counts.media_files = stored.length;
      const renumbered = [...r.renumbered.values()].reduce((n, m) => n + m.size, 0);
      await recordAudit(
        db,
        auditEntry(ws.id, ctx.clock(), systemAuditActor('cli'), 'workspace.restored', workspaceTarget({ id: ws.id, slug: opts.workspace })),
      );
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
