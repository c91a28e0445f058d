/**
 * Reading the audit log (docs/api.md "Audit log", docs/access.md "Audit log" (D122)): the
 * filtered, cursor-paged list of GET /audit-log, the export's walk (`quire audit export`) and the
 * retention prune. Nothing here edits a row; only the prune deletes, by age.
 */
import type { Context } from '../../context.js';
import { invalid } from '../../errors.js';
import { stableStringify } from '../../lib/json.js';
import { offsetPage } from '../../lib/pagination.js';
import { iso, parseTimestamp } from '../../lib/time.js';
import { authorize } from '../access/authorize.js';
import type { Actor } from '../auth/permissions.js';
import { decodeCursor, encodeCursor, type CursorBinding } from '../delivery/cursor.js';
import { auditRowsSince, listAuditRows, pruneAuditRows, type AuditFilter, type AuditRow } from './repository.js';

/** A row as the API, the CLI and the Studio read it. */
export interface AuditRecord {
  id: string;
  at: string;
  actor: { type: 'user' | 'key' | 'system'; id: string | null; label: string | null; user_id: number | null };
  action: string;
  target: { kind: string; id: string | null; slug: string | null };
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
  changed_fields?: string[];
}

/** The query of GET /audit-log (strings as sent). */
export interface AuditLogQuery {
  actor?: string;
  action?: string;
  target?: string;
  from?: string;
  to?: string;
  limit?: number;
  cursor?: string;
}

/** A stored row in its read shape. */
export function toAuditRecord(row: AuditRow): AuditRecord {
  const record: AuditRecord = {
    id: row.id,
    at: row.at,
    actor: {
      type: row.actor_type as AuditRecord['actor']['type'],
      id: row.actor_id,
      label: row.actor_label,
      user_id: row.actor_user_id === null ? null : Number(row.actor_user_id),
    },
    action: row.action,
    target: { kind: row.target_kind, id: row.target_id, slug: row.target_slug },
    ip: row.ip,
    user_agent: row.user_agent,
    request_id: row.request_id,
  };
  if (row.changed_fields !== null) record.changed_fields = JSON.parse(row.changed_fields) as string[];
  return record;
}

const ACTOR_TYPES = new Set(['user', 'key', 'system']);
const NAME = /^[a-z][a-z_]*(\.[a-z][a-z_]*)*$/;

/** An ISO 8601 time of the query as the stored form (UTC, milliseconds); 400 at `query.<name>`. */
function instant(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  const at = parseTimestamp(value);
  if (!at) throw invalid(`query.${name}`, 'must be an ISO 8601 time, e.g. 2026-11-29T00:00:00Z');
  return iso(at);
}

/** The filters of a query, checked: 400 VALIDATION_FAILED naming the parameter. */
export function parseAuditFilter(workspaceId: string, q: AuditLogQuery): AuditFilter {
  const f: AuditFilter = { workspaceId };
  if (q.actor !== undefined) {
    const [type, ...rest] = q.actor.split(':');
    const id = rest.join(':');
    if (!ACTOR_TYPES.has(type) || (rest.length > 0 && (!id || type === 'system'))) {
      throw invalid('query.actor', 'must be user:<id>, key:<id>, or one of user, key, system');
    }
    f.actor = rest.length ? { type, id } : { type };
  }
  if (q.action !== undefined) {
    const prefix = q.action.endsWith('.*') ? q.action.slice(0, -2) : null;
    if (!NAME.test(prefix ?? q.action)) throw invalid('query.action', 'must be an action such as entry.updated, or a prefix such as entry.*');
    f.action = prefix !== null ? { prefix: `${prefix}.` } : { exact: q.action };
  }
  if (q.target !== undefined) {
    const colon = q.target.indexOf(':');
    const kind = colon < 0 ? q.target : q.target.slice(0, colon);
    const id = colon < 0 ? undefined : q.target.slice(colon + 1);
    if (!NAME.test(kind) || id === '') throw invalid('query.target', 'must be <kind>:<id> (entry:<uuid>, user:12) or a kind alone');
    f.target = id === undefined ? { kind } : { kind, id: /^[0-9a-f-]{36}$/i.test(id) ? id.toLowerCase() : id };
  }
  f.from = instant(q.from, 'from');
  f.to = instant(q.to, 'to');
  if (f.from !== undefined && f.to !== undefined && f.from >= f.to) throw invalid('query.to', 'must be later than from');
  return f;
}

/** What an audit-log cursor is bound to: this workspace and these filters. */
function binding(f: AuditFilter): CursorBinding {
  const { workspaceId, ...filters } = f;
  return { contentTypeId: workspaceId, sort: 'at:desc', filters: stableStringify(filters), locale: null, environment: 'audit-log' };
}

/**
 * GET /audit-log (owners and admins, Studio session: authorize 'audit:read'): the workspace's rows
 * and the sign-in, sign-out and password rows of its members, newest first, filtered, one page
 * (`limit`, default 10, at most 100) and `next_cursor` (null on the last page). Cursors are signed
 * and bound to the filters: a tampered one, or one from other filters, answers 400 at `query.cursor`.
 */
export async function listAuditLog(
  ctx: Context,
  actor: Actor,
  q: AuditLogQuery,
): Promise<{ items: AuditRecord[]; meta: { page_size: number; next_cursor: string | null } }> {
  authorize(actor, 'audit:read');
  const limit = offsetPage(1, q.limit).limit;
  const f = parseAuditFilter(actor.workspaceId, q);
  const bound = binding(f);
  let after = null;
  if (q.cursor !== undefined) {
    const p = decodeCursor(ctx.secret, bound, q.cursor);
    if (typeof p.value !== 'string' || p.byRow) throw invalid('query.cursor', 'is not a valid cursor for this list; pass meta.next_cursor back unchanged');
    after = { at: p.value, id: p.id };
  }
  // One row more than asked tells whether a next page exists.
  const rows = await listAuditRows(ctx.db, f, after, limit + 1);
  const items = rows.slice(0, limit).map(toAuditRecord);
  const last = items[items.length - 1];
  const next = rows.length > limit ? encodeCursor(ctx.secret, bound, { value: last.at, id: last.id }) : null;
  return { items, meta: { page_size: items.length, next_cursor: next } };
}

/** Rows the export reads per query: a page in memory at a time, never the whole log. */
const EXPORT_BATCH = 500;

/**
 * Every row from `since` to `until` (of one workspace, or the whole installation), oldest
 * first, read in pages of 500 by keyset: `quire audit export` writes each as it comes.
 */
export async function* auditRowsForExport(ctx: Context, range: { since: string; until?: string; workspaceId?: string }): AsyncGenerator<AuditRecord> {
  let after = null;
  for (;;) {
    const rows = await auditRowsSince(ctx.db, range, after, EXPORT_BATCH);
    for (const row of rows) yield toAuditRecord(row);
    if (rows.length < EXPORT_BATCH) return;
    const last = rows[rows.length - 1];
    after = { at: last.at, id: last.id };
  }
}

/** Rows the prune deletes per statement. */
const PRUNE_BATCH = 1000;

/**
 * Deletes rows older than `AUDIT_RETENTION_DAYS` (config.auditRetentionDays; 0 keeps every row),
 * in batches; returns how many this call deleted. Safe on several instances at once: each batch
 * deletes what is still there, and a pass stops only at a batch that found nothing, so a batch
 * shortened by another instance's deletes does not end it early.
 */
export async function pruneAuditLog(ctx: Context): Promise<number> {
  const days = ctx.config.auditRetentionDays;
  if (days <= 0) return 0;
  const before = iso(new Date(ctx.clock().getTime() - days * 86_400_000));
  let total = 0;
  for (;;) {
    const n = await pruneAuditRows(ctx.db, before, PRUNE_BATCH);
    total += n;
    if (n === 0) return total;
  }
}
