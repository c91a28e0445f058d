/**
 * `quire audit export --since <iso> [--until <iso>] [--workspace <slug>]` (docs/cli.md "quire
 * audit export" (D122)): the audit log as NDJSON on stdout, one row per line, oldest first, in the
 * shape of GET /api/v1/manage/audit-log. Rows are read in pages and written as they come, waiting
 * for stdout to drain, so a large log never sits in memory. Without --workspace, the whole
 * installation (failed sign-ins of unknown emails included).
 */
import { once } from 'node:events';
import type { Context } from '../../context.js';
import { AppError } from '../../errors.js';
import { iso, parseTimestamp } from '../../lib/time.js';
import { auditRowsForExport } from '../../modules/audit/operations.js';
import { findWorkspaceBySlug } from '../../modules/workspaces/repository.js';
import { CliUsageError, type CliIo, type CommandResult } from '../io.js';

export interface AuditExportOptions {
  since: string;
  until?: string;
  workspace?: string;
}

function instant(value: string, option: string): string {
  const at = parseTimestamp(value);
  if (!at) throw new CliUsageError(`option '${option}' must be an ISO 8601 time, e.g. 2026-11-01T00:00:00Z`);
  return iso(at);
}

/** Writes `line`, waiting for the stream to drain when it asks to (process.stdout). */
async function write(stdout: CliIo['stdout'], line: string): Promise<void> {
  const more = stdout.write(line);
  if (more === false && typeof (stdout as Partial<NodeJS.WritableStream>).once === 'function') await once(stdout as NodeJS.WritableStream, 'drain');
}

export async function runAuditExport(ctx: Context, io: CliIo, opts: AuditExportOptions): Promise<CommandResult> {
  const since = instant(opts.since, '--since <iso>');
  const until = opts.until === undefined ? undefined : instant(opts.until, '--until <iso>');
  if (until !== undefined && until <= since) throw new CliUsageError("option '--until <iso>' must be later than --since");
  let workspaceId: string | undefined;
  if (opts.workspace !== undefined) {
    const ws = await findWorkspaceBySlug(ctx.db, opts.workspace);
    if (!ws) throw new AppError('NOT_FOUND', `workspace '${opts.workspace}' not found`);
    workspaceId = ws.id;
  }
  let rows = 0;
  for await (const record of auditRowsForExport(ctx, { since, until, workspaceId })) {
    await write(io.stdout, `${JSON.stringify(record)}\n`);
    rows++;
  }
  return { json: { rows }, text: '', streamed: true };
}
