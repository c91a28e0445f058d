/**
 * Fixtures of the delivery suites: content types created through the management API, entries,
 * translations and media inserted directly (the rows the entries and media modules write).
 */
import type { FastifyInstance } from 'fastify';
import type { Context } from '../src/context.js';
import { newId } from '../src/lib/ids.js';
import { createApiKey } from '../src/modules/auth/operations.js';
import { call, insertMediaRow, seedWorkspace } from './helpers.js';

export const M = '/api/v1/manage';
export const P = '/api/v1/public';

export interface EntrySeed {
  type: string;
  slug: string;
  status?: 'draft' | 'published' | 'scheduled' | 'archived';
  data?: Record<string, unknown>;
  translations?: Record<string, Record<string, unknown>>;
  position?: number;
  publish_at?: string | null;
  published_at?: string | null;
  created_at?: string;
  updated_at?: string;
}

export interface DeliveryWorld {
  workspaceId: string;
  userId: number;
  keys: { management: string; delivery: string; preview: string };
  /** Content type id by slug. */
  types: Record<string, string>;
  insertEntry(seed: EntrySeed): Promise<string>;
  insertMedia(fields?: { deleted?: boolean; storage_key?: string; alt_text?: string }): Promise<string>;
  /** A delivery key with a content type whitelist. */
  deliveryKey(options: { environment?: 'production' | 'preview'; contentTypes?: string[] }): Promise<string>;
}

let clockTick = 0;
/** Distinct, increasing created_at values so default ordering is deterministic. */
export function stamp(): string {
  clockTick += 1;
  return new Date(Date.UTC(2026, 0, 1, 0, 0, 0, 0) + clockTick * 1000).toISOString();
}

/** A workspace (en default; de, fr) with management/delivery/preview keys and helpers. */
export async function createWorld(ctx: Context, app: FastifyInstance, contentTypes: unknown[]): Promise<DeliveryWorld> {
  const s = await seedWorkspace(ctx, { locales: ['en', 'de', 'fr'] });
  const types: Record<string, string> = {};
  for (const body of contentTypes) {
    const res = await call(app, 'POST', `${M}/content-types`, { key: s.keys.management, body });
    if (res.status !== 201) throw new Error(`content type: ${res.status} ${JSON.stringify(res.body)}`);
    types[res.body.data.slug] = res.body.data.id;
  }
  const workspaceId = s.workspace.id;
  return {
    workspaceId,
    userId: s.user.id,
    keys: s.keys,
    types,
    async insertEntry(seed) {
      const id = newId();
      const created = seed.created_at ?? stamp();
      const status = seed.status ?? 'published';
      // Rows written directly, as migration 005 leaves an existing item: a live entry's published
      // copy is its content (production keys read it, D70).
      const live = status === 'published' || status === 'scheduled';
      await ctx.db.kysely
        .insertInto('entries')
        .values({
          id,
          workspace_id: workspaceId,
          content_type_id: types[seed.type],
          slug: seed.slug,
          status,
          data: JSON.stringify(seed.data ?? {}),
          published_data: live ? JSON.stringify(seed.data ?? {}) : null,
          published_by: live ? s.user.id : null,
          published_version: status === 'published' ? 1 : null,
          position: seed.position ?? 0,
          publish_at: seed.publish_at ?? null,
          published_at: seed.published_at !== undefined ? seed.published_at : (seed.status ?? 'published') === 'published' ? created : null,
          version: 1,
          created_at: created,
          updated_at: seed.updated_at ?? created,
          created_by: s.user.id,
          updated_by: s.user.id,
        })
        .execute();
      for (const [locale, data] of Object.entries(seed.translations ?? {})) {
        const t = await ctx.db.kysely
          .insertInto('entry_translations')
          .values({ entry_id: id, locale, data: JSON.stringify(data), created_at: created, updated_at: created })
          .returning('id')
          .executeTakeFirstOrThrow();
        if (live)
          await ctx.db.kysely
            .insertInto('published_entry_translations')
            .values({ entry_id: id, locale, id: Number(t.id), data: JSON.stringify(data) })
            .execute();
      }
      await ctx.db.kysely
        .insertInto('entry_versions')
        .values({
          entry_id: id,
          version: 1,
          action: live ? 'publish' : 'create',
          status,
          snapshot: JSON.stringify({ data: seed.data ?? {}, translations: [] }),
          created_at: created,
          created_by: s.user.id,
        })
        .execute();
      return id;
    },
    async insertMedia(fields = {}) {
      const now = stamp();
      return insertMediaRow(ctx, workspaceId, s.user.id, {
        created_at: now,
        updated_at: now,
        deleted: fields.deleted,
        ...(fields.storage_key ? { storage_key: fields.storage_key } : {}),
        ...(fields.alt_text ? { alt_text: fields.alt_text } : {}),
      });
    },
    async deliveryKey(options) {
      const k = await createApiKey(ctx, workspaceId, s.user.id, {
        keyClass: 'delivery',
        environment: options.environment ?? 'production',
        contentTypes: options.contentTypes,
      });
      return k.key;
    },
  };
}

/** A rich-text document of paragraphs of plain text. */
export function doc(...paragraphs: string[]): Record<string, unknown> {
  return {
    nodeType: 'document',
    data: {},
    content: paragraphs.map((p) => ({ nodeType: 'paragraph', data: {}, content: [{ nodeType: 'text', value: p, marks: [], data: {} }] })),
  };
}

/** Parses `data` of every entry of a delivery list response. */
export function datas(body: { data: { data: string }[] }): Record<string, unknown>[] {
  return body.data.map((e) => JSON.parse(e.data) as Record<string, unknown>);
}
