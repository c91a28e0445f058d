/**
 * The derived-image cache, bounded (issue 8): every stored transform result has a row in
 * `media_variants` (asset, variant, storage key, bytes, last served), and after each new result
 * is stored
 * - an asset keeps at most `config.mediaMaxVariantsPerAsset` results, and
 * - all assets together keep at most `config.mediaDerivedCacheBytes`,
 * by deleting the least recently served results (file first, then row) until both hold. A result
 * served from the cache refreshes its `last_used_at` at most once a minute, so hits cost no write
 * in the common case. Files derived before the table existed are recorded when next served.
 * With several instances the limits may be exceeded briefly by results stored at the same
 * moment; the next store evicts them.
 */
import { sql } from 'kysely';
import type { Context } from '../../context.js';
import type { Db } from '../../db/types.js';
import { iso } from '../../lib/time.js';
import { derivedPrefix } from './locations.js';

/** How stale `last_used_at` may get before a hit refreshes it. */
const TOUCH_AFTER_MS = 60_000;

interface VariantRow {
  media_id: string;
  variant: string;
  storage_key: string;
  size: number;
}

/** Records a result just stored (or found without a row), then evicts past the limits. */
export async function recordVariant(ctx: Context, row: VariantRow): Promise<void> {
  const now = iso(ctx.clock());
  await ctx.db.kysely
    .insertInto('media_variants')
    .values({ ...row, created_at: now, last_used_at: now })
    .onConflict((oc) => oc.columns(['media_id', 'variant']).doUpdateSet({ storage_key: row.storage_key, size: row.size, last_used_at: now }))
    .execute();
  await evict(ctx, row.media_id);
}

/** Entries kept in ctx.caches.variantTouches before it is cleared (a bound on its memory). */
const MAX_TOUCHES = 10_000;

/**
 * Notes that a stored result was served: refreshes `last_used_at` when older than a minute, or
 * records a result that has no row yet (derived before migration 006). A hit this process noted
 * less than a minute ago costs nothing: no query at all.
 */
export async function touchVariant(ctx: Context, row: VariantRow): Promise<void> {
  const now = ctx.clock();
  const touches = ctx.caches.variantTouches;
  const key = `${row.media_id}/${row.variant}`;
  const last = touches.get(key);
  if (last !== undefined && now.getTime() - last < TOUCH_AFTER_MS) return;
  if (touches.size >= MAX_TOUCHES) touches.clear();
  touches.set(key, now.getTime());
  const found = await ctx.db.kysely
    .selectFrom('media_variants')
    .select('last_used_at')
    .where('media_id', '=', row.media_id)
    .where('variant', '=', row.variant)
    .executeTakeFirst();
  if (!found) return recordVariant(ctx, row);
  if (now.getTime() - Date.parse(found.last_used_at) < TOUCH_AFTER_MS) return;
  await ctx.db.kysely
    .updateTable('media_variants')
    .set({ last_used_at: iso(now) })
    .where('media_id', '=', row.media_id)
    .where('variant', '=', row.variant)
    .execute();
}

/** Removes every stored result of an asset (files and rows), e.g. when its file or focal point changes. */
export async function dropVariants(ctx: Context, workspaceId: string, mediaId: string): Promise<void> {
  await ctx.storage
    .backend()
    .deletePrefix(derivedPrefix(workspaceId, mediaId))
    .catch((e: unknown) => ctx.log.warn({ err: e, id: mediaId }, 'could not remove derived images'));
  await ctx.db.kysely.deleteFrom('media_variants').where('media_id', '=', mediaId).execute();
}

/** Deletes results least recently served first: beyond the per-asset count, then beyond the total bytes. */
async function evict(ctx: Context, mediaId: string): Promise<void> {
  const db = ctx.db;
  const perAsset = await db.kysely
    .selectFrom('media_variants')
    .select(['media_id', 'variant', 'storage_key', 'size'])
    .where('media_id', '=', mediaId)
    .orderBy('last_used_at', 'desc')
    .orderBy('variant')
    .offset(ctx.config.mediaMaxVariantsPerAsset)
    .limit(1000)
    .execute();
  await remove(ctx, perAsset);

  let total = await totalBytes(db);
  const budget = ctx.config.mediaDerivedCacheBytes;
  while (total > budget) {
    const oldest = await db.kysely
      .selectFrom('media_variants')
      .select(['media_id', 'variant', 'storage_key', 'size'])
      .orderBy('last_used_at')
      .orderBy('media_id')
      .orderBy('variant')
      .limit(50)
      .execute();
    if (oldest.length === 0) break;
    const batch: VariantRow[] = [];
    for (const r of oldest) {
      if (total <= budget) break;
      batch.push(r);
      total -= Number(r.size);
    }
    await remove(ctx, batch);
  }
}

async function totalBytes(db: Db): Promise<number> {
  const row = await db.kysely
    .selectFrom('media_variants')
    .select(sql<number | string | null>`sum(size)`.as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total ?? 0);
}

/** Deletes each file, then its row; a failed file delete is logged and the row goes anyway, so eviction always progresses. */
async function remove(ctx: Context, rows: readonly VariantRow[]): Promise<void> {
  if (rows.length === 0) return;
  const storage = ctx.storage.backend();
  for (const r of rows) {
    await storage.delete(r.storage_key).catch((e: unknown) => ctx.log.warn({ err: e, key: r.storage_key }, 'could not evict a derived image'));
    await ctx.db.kysely.deleteFrom('media_variants').where('media_id', '=', r.media_id).where('variant', '=', r.variant).execute();
  }
}
