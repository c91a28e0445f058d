/**
 * `quire export` (issue 12 item 5): writes one workspace whole — content model, entries with
 * their working copies, published versions and history, pages with block trees and
 * translations, media records and their files, locales and settings, releases with their items,
 * webhooks without their secrets, and with `withUsers` its members without passwords — in the
 * format of format.ts.
 *
 * Everything is read inside one transaction, so the export is one consistent moment even while
 * the server writes; rows are read BATCH at a time by key and streamed to the files, and media
 * files are streamed from the storage, so memory does not grow with the workspace.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../../context.js';
import { readOneSnapshot, withTransaction } from '../../db/transaction.js';
import { auditEntry, recordAudit, systemAuditActor, workspaceTarget } from '../audit/record.js';
import type { Db } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { fromJsonColumn, stableStringify } from '../../lib/json.js';
import { findWorkspaceBySlug } from '../workspaces/repository.js';
import { HashingWriter, quireVersion } from './files.js';
import {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  MANIFEST_FILE,
  MEMBERS_FILE,
  ROLES_FILE,
  WORKFLOWS_FILE,
  TABLES,
  WORKSPACE_SPEC,
  mediaFile,
  tableFile,
  type Manifest,
  type ManifestFile,
  type TableSpec,
} from './format.js';
import { readBatch, readCustomRoles, readMembers } from './repository.js';
import { packDirectory } from './tar.js';
import { exportWorkflows } from '../workflows/transfer.js';

/** Rows read and written per batch. */
export const BATCH = 500;

export interface ExportOptions {
  /** Workspace slug. */
  workspace: string;
  /** A directory (created; must be empty if it exists) or a file ending in `.tar` (replaced). */
  out: string;
  /** Also export the members (email, name, role; never password hashes). */
  withUsers?: boolean;
}

export interface ExportResult {
  workspace: { id: string; slug: string };
  out: string;
  kind: 'directory' | 'tar';
  counts: Record<string, number>;
  /** Media records whose stored file was missing (exported as records only). */
  missing_files: string[];
  /** Bytes written (all files, or the tar file). */
  bytes: number;
}

/** A row as exported: no omitted columns, JSON columns as values, bigints as numbers. */
export function exportRow(spec: TableSpec, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    if (spec.omit?.includes(column)) continue;
    if (spec.json?.includes(column)) out[column] = fromJsonColumn<unknown>(value, null);
    else if (spec.bigint?.includes(column) && value !== null) out[column] = Number(value);
    else out[column] = value;
  }
  return out;
}

/** Writes the workspace's rows of one table; `each` sees every exported row (media files). */
async function exportTable(
  db: Db,
  dir: string,
  spec: TableSpec,
  workspaceId: string,
  each?: (row: Record<string, unknown>) => Promise<void>,
): Promise<ManifestFile & { rows: number }> {
  const writer = new HashingWriter(path.join(dir, tableFile(spec)));
  try {
    let after: unknown[] | null = null;
    for (;;) {
      const rows = await readBatch(db, spec, workspaceId, after, BATCH);
      for (const raw of rows) {
        const row = exportRow(spec, raw);
        await writer.line(stableStringify(row));
        if (each) await each(row);
      }
      if (rows.length < BATCH) break;
      const last = rows[rows.length - 1];
      after = spec.key.map((k) => last[k]);
    }
  } catch (err) {
    writer.abort();
    throw err;
  }
  return { ...(await writer.close()), rows: writer.lines };
}

/** Prepares the directory the export is written into: `out` itself, or a temporary one beside the tar. */
function prepareTarget(out: string): { dir: string; kind: 'directory' | 'tar' } {
  if (out.toLowerCase().endsWith('.tar')) {
    const parent = path.dirname(path.resolve(out));
    if (!fs.existsSync(parent)) throw new AppError('VALIDATION_FAILED', 'Cannot export', [{ path: '--out', message: `directory '${parent}' does not exist` }]);
    const dir = path.join(parent, `.${path.basename(out)}.${randomBytes(4).toString('hex')}.tmp`);
    fs.mkdirSync(dir);
    return { dir, kind: 'tar' };
  }
  if (fs.existsSync(out)) {
    if (!fs.statSync(out).isDirectory() || fs.readdirSync(out).length)
      throw new AppError('VALIDATION_FAILED', 'Cannot export', [{ path: '--out', message: `'${out}' exists and is not an empty directory` }]);
  } else fs.mkdirSync(out, { recursive: true });
  return { dir: out, kind: 'directory' };
}

/**
 * Exports workspace `opts.workspace` to `opts.out`. Throws NOT_FOUND for an unknown workspace,
 * VALIDATION_FAILED for an unusable `out`; a failed export leaves no partial tar behind.
 */
export async function exportWorkspace(ctx: Context, opts: ExportOptions): Promise<ExportResult> {
  const ws = await findWorkspaceBySlug(ctx.db, opts.workspace);
  if (!ws) throw new AppError('NOT_FOUND', `workspace '${opts.workspace}' not found`);
  const { dir, kind } = prepareTarget(opts.out);
  try {
    const storage = ctx.storage.backend();
    const files: Record<string, ManifestFile> = {};
    const counts: Record<string, number> = {};
    const missing: string[] = [];
    await withTransaction(ctx.db, async (db) => {
      // One snapshot for every table: an export taken while the server writes is still one moment.
      await readOneSnapshot(db);
      for (const spec of [WORKSPACE_SPEC, ...TABLES]) {
        const each =
          spec.table === 'media'
            ? async (row: Record<string, unknown>) => {
                const key = row.storage_key;
                if (typeof key !== 'string' || !key) return;
                const object = await storage.get(key);
                if (!object) {
                  missing.push(String(row.id));
                  return;
                }
                const name = mediaFile(String(row.id));
                const writer = new HashingWriter(path.join(dir, name));
                try {
                  for await (const chunk of object.body) await writer.write(chunk as Buffer);
                } catch (err) {
                  writer.abort();
                  throw err;
                }
                files[name] = await writer.close();
              }
            : undefined;
        const { rows, ...file } = await exportTable(db, dir, spec, ws.id, each);
        files[tableFile(spec)] = file;
        counts[spec.file] = rows;
      }
      if (opts.withUsers) {
        const writer = new HashingWriter(path.join(dir, tableFile({ file: MEMBERS_FILE })));
        for (const m of await readMembers(db, ws.id)) await writer.line(stableStringify({ ...m, user_id: Number(m.user_id) }));
        counts[MEMBERS_FILE] = writer.lines;
        files[tableFile({ file: MEMBERS_FILE })] = await writer.close();
      }
      const roles = await readCustomRoles(db, ws.id);
      if (roles.length) {
        const writer = new HashingWriter(path.join(dir, tableFile({ file: ROLES_FILE })));
        for (const role of roles) await writer.line(stableStringify(role));
        counts[ROLES_FILE] = writer.lines;
        files[tableFile({ file: ROLES_FILE })] = await writer.close();
      }
      const workflows = await exportWorkflows(db, ws.id);
      if (workflows.length) {
        const writer = new HashingWriter(path.join(dir, tableFile({ file: WORKFLOWS_FILE })));
        for (const wf of workflows) await writer.line(stableStringify(wf));
        counts[WORKFLOWS_FILE] = writer.lines;
        files[tableFile({ file: WORKFLOWS_FILE })] = await writer.close();
      }
    });
    counts.media_files = Object.keys(files).filter((f) => f.startsWith('media/')).length;
    const sortedFiles = Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const manifest: Manifest = {
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      quire_version: quireVersion(),
      workspace: { id: ws.id, slug: ws.slug, name: ws.name },
      options: { with_users: Boolean(opts.withUsers) },
      counts,
      files: sortedFiles,
    };
    const manifestText = `${JSON.stringify(manifest, null, 2)}\n`;
    fs.writeFileSync(path.join(dir, MANIFEST_FILE), manifestText);
    let bytes = Buffer.byteLength(manifestText) + Object.values(files).reduce((n, f) => n + f.bytes, 0);
    if (kind === 'tar') {
      // The manifest first, so a reader learns the format before anything else.
      const tmp = `${dir}.tar`;
      await packDirectory(dir, [MANIFEST_FILE, ...Object.keys(sortedFiles)], tmp);
      fs.renameSync(tmp, opts.out);
      bytes = fs.statSync(opts.out).size;
    }
    // An export changes nothing, so it has no change transaction: its row follows the finished export.
    await recordAudit(ctx.db, auditEntry(ws.id, ctx.clock(), systemAuditActor('cli'), 'workspace.exported', workspaceTarget(ws)));
    return { workspace: { id: ws.id, slug: ws.slug }, out: opts.out, kind, counts, missing_files: missing, bytes };
  } catch (err) {
    if (kind === 'directory') fs.rmSync(path.join(dir, MANIFEST_FILE), { force: true });
    throw err;
  } finally {
    if (kind === 'tar') {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(`${dir}.tar`, { force: true });
    }
  }
}
