/**
 * The content model of a workspace for delivery requests, cached in memory per context
 * (Context.caches.deliverySchemas) and workspace. Correctness across instances: every request first reads the workspace's model
 * fingerprint (one indexed query: counts and latest `updated_at` of its content types and fields,
 * plus the workspace row, see readWorkspaceFingerprint) and reloads the model whenever it differs,
 * so a field made sortable or a content type added by another instance is seen on the very next
 * request. As a safety net against writes that bypass `updated_at` (or clock skew between
 * instances), a cached model is also reloaded after MAX_AGE_MS.
 */
import type { Context } from '../../context.js';
import { notFound } from '../../errors.js';
import type { ContentType } from '../content-types/model.js';
import type { DeliverySchema, DeliveryType } from './model.js';
import { loadWorkspaceModel, readWorkspaceFingerprint } from './query/schema-repository.js';

const MAX_AGE_MS = 30_000;

function toDeliveryType(ct: ContentType): DeliveryType {
  return {
    id: ct.id,
    slug: ct.slug,
    name: ct.name,
    is_block: ct.is_block,
    orderable: ct.orderable,
    display_field: ct.display_field,
    fields: ct.fields,
    fieldsByName: new Map(ct.fields.map((f) => [f.name, f])),
  };
}

/**
 * The workspace's schema (workspace, content types, fields) for one request.
 * Throws 404 NOT_FOUND when the workspace no longer exists.
 */
export async function loadDeliverySchema(ctx: Context, workspaceId: string): Promise<DeliverySchema> {
  return (await loadDeliveryModel(ctx, workspaceId)).schema;
}

/**
 * loadDeliverySchema with the fingerprint the model was loaded under, for caches of what is
 * derived from the model (the GraphQL schema: src/modules/graphql/schema.ts), which rebuild
 * exactly when it changes. Throws 404 NOT_FOUND when the workspace no longer exists.
 */
export async function loadDeliveryModel(ctx: Context, workspaceId: string): Promise<{ schema: DeliverySchema; fingerprint: string }> {
  const current = await readWorkspaceFingerprint(ctx.db, workspaceId, ctx.caches.queries);
  if (!current) throw notFound('workspace');
  const cache = ctx.caches.deliverySchemas;
  const cached = cache.get(workspaceId);
  const now = Date.now();
  if (cached && cached.fingerprint === current.fingerprint && now - cached.loadedAt < MAX_AGE_MS) {
    return { schema: cached.schema, fingerprint: current.fingerprint };
  }
  const types = (await loadWorkspaceModel(ctx.db, workspaceId)).map(toDeliveryType);
  const schema: DeliverySchema = {
    workspace: current.workspace,
    types,
    byId: new Map(types.map((t) => [t.id, t])),
    bySlug: new Map(types.map((t) => [t.slug, t])),
  };
  cache.set(workspaceId, { fingerprint: current.fingerprint, loadedAt: now, schema });
  return { schema, fingerprint: current.fingerprint };
}
