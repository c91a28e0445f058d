/**
 * SQL behind the delivery schema cache: the workspace row with a cheap fingerprint of its content
 * model (one query), and the full content model when the fingerprint changed.
 */
import { CompiledQuery } from 'kysely';
import type { QueryTemplates } from '../../../caches.js';
import type { Db } from '../../../db/types.js';
import { fromJsonColumn } from '../../../lib/json.js';
import type { ContentType } from '../../content-types/model.js';
import { listAllContentTypes } from '../../content-types/repository.js';
import type { DeliveryWorkspace } from '../model.js';

export interface WorkspaceFingerprint {
  workspace: DeliveryWorkspace;
  /**
   * Changes whenever a content type or field of the workspace is added, removed or edited, or the
   * workspace's locales change: counts plus the latest `updated_at` of each table (every write of
   * the content-types module bumps `updated_at`), plus the workspace row itself.
   */
  fingerprint: string;
}

interface FingerprintRow {
  id: string;
  name: string;
  slug: string;
  default_locale: string;
  locales: unknown;
  updated_at: string;
  ct_n: number;
  ct_m: string | null;
  f_n: number;
  f_m: string | null;
}

function fingerprintQuery(db: Db, workspaceId: string) {
  return db.kysely
    .selectFrom([
      'workspaces as w',
      db.kysely
        .selectFrom('content_types')
        .where('workspace_id', '=', workspaceId)
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('updated_at').as('m')])
        .as('c'),
      db.kysely
        .selectFrom('fields as f')
        .innerJoin('content_types as t', 't.id', 'f.content_type_id')
        .where('t.workspace_id', '=', workspaceId)
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('f.updated_at').as('m')])
        .as('f'),
    ])
    .select(['w.id', 'w.name', 'w.slug', 'w.default_locale', 'w.locales', 'w.updated_at', 'c.n as ct_n', 'c.m as ct_m', 'f.n as f_n', 'f.m as f_m'])
    .where('w.id', '=', workspaceId);
}

/**
 * The fingerprint query runs on every delivery request, so it is built and compiled once into
 * the context's templates; its only parameters are the workspace id (checked with a sentinel).
 */
const SENTINEL = '\u0000workspace';
function fingerprintTemplate(db: Db, templates: QueryTemplates): CompiledQuery {
  if (!templates.workspaceFingerprint) {
    const t = fingerprintQuery(db, SENTINEL).compile();
    if (!t.parameters.every((p) => p === SENTINEL)) throw new Error('fingerprint query takes only the workspace id');
    templates.workspaceFingerprint = t;
  }
  return templates.workspaceFingerprint;
}

/**
 * The workspace and its model fingerprint in one query; null when the workspace is gone.
 * `templates` is the context's (ctx.caches.queries), which keeps the compiled query.
 */
export async function readWorkspaceFingerprint(db: Db, workspaceId: string, templates: QueryTemplates): Promise<WorkspaceFingerprint | null> {
  const t = fingerprintTemplate(db, templates);
  const res = await db.kysely.executeQuery<FingerprintRow>(
    CompiledQuery.raw(
      t.sql,
      t.parameters.map(() => workspaceId),
    ),
  );
  const row = res.rows[0];
  if (!row) return null;
  const locales = fromJsonColumn<string[]>(row.locales, [row.default_locale]);
  return {
    workspace: { id: row.id, name: row.name, slug: row.slug, default_locale: row.default_locale, locales },
    fingerprint: [row.updated_at, row.default_locale, locales.join(','), Number(row.ct_n), row.ct_m ?? '', Number(row.f_n), row.f_m ?? ''].join('|'),
  };
}

/** Every content type of the workspace with its fields (two queries). */
export async function loadWorkspaceModel(db: Db, workspaceId: string): Promise<ContentType[]> {
  return listAllContentTypes(db, workspaceId);
}
