/**
 * The content model of a workspace for delivery requests, cached in memory per context
 * (Context.caches.deliverySchemas) and workspace. Correctness across instances: every request first reads the workspace's model
 * fingerprint (one indexed query: counts and latest `updated_at` of its content types and fields,
 * plus the workspace row, see readWorkspaceFingerprint) and reloads the model whenever it differs,
 * so a field made sortable or a content type added by another instance is seen on the very next
 * request. As a safety net against writes that bypass `updated_at` (or clock skew between
 * instances), a cached model is also reloaded after MAX_AGE_MS.
 *
 * The fingerprint query is skipped when the request's actor was checked, on this request,
 * against a workspace revision under which the fingerprint was already found unchanged: every
 * change of content types, fields or the workspace's locales bumps both revisions (migration 005's
 * triggers, the workspace settings writes), and the key cache reads the current revision on every
 * request (src/modules/auth/key-cache.ts), so an equal revision means an unchanged model. A write
 * of content bumps the revision too, which costs one fingerprint query on the next request.
 */
import type { Context } from '../../context.js';
import { notFound } from '../../errors.js';
import type { Actor } from '../auth/permissions.js';
import { actorRevisionKind } from '../read/resolver.js';
import type { ContentType } from '../content-types/model.js';
import type { DeliverySchema, DeliveryType } from './model.js';
import { noteModel } from '../read/cache-tags.js';
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
 * Whom a model is loaded for: the actor of the request (its workspace, and the revision it was
 * checked at on this request, if any), or only a workspace id (always one fingerprint query).
 */
export type ModelReader = Pick<Actor, 'workspaceId' | 'revision' | 'keyClass' | 'environment'> | string;

/**
 * The workspace's schema (workspace, content types, fields) for one request by `reader`.
 * Throws 404 NOT_FOUND when the workspace no longer exists.
 */
export async function loadDeliverySchema(ctx: Context, reader: ModelReader): Promise<DeliverySchema> {
  return (await loadDeliveryModel(ctx, reader)).schema;
}

/**
 * loadDeliverySchema with the fingerprint the model was loaded under, for caches of what is
 * derived from the model (the GraphQL schema: src/modules/graphql/schema.ts), which rebuild
 * exactly when it changes. Throws 404 NOT_FOUND when the workspace no longer exists.
 */
export async function loadDeliveryModel(ctx: Context, reader: ModelReader): Promise<{ schema: DeliverySchema; fingerprint: string }> {
  if (typeof reader === 'string') reader = { workspaceId: reader, keyClass: 'management', environment: null };
  const { workspaceId } = reader;
  noteModel(ctx, workspaceId);
  const cache = ctx.caches.deliverySchemas;
  const cached = cache.get(workspaceId);
  const now = Date.now();
  const kind = reader.revision === undefined ? null : actorRevisionKind(reader);
  const fresh = cached !== undefined && now - cached.loadedAt < MAX_AGE_MS;
  if (fresh && kind !== null && cached.verified[kind] === reader.revision) return { schema: cached.schema, fingerprint: cached.fingerprint };
  const current = await readWorkspaceFingerprint(ctx.db, workspaceId, ctx.caches.queries);
  if (!current) throw notFound('workspace');
  if (fresh && cached.fingerprint === current.fingerprint) {
    if (kind !== null) cached.verified[kind] = reader.revision;
    return { schema: cached.schema, fingerprint: current.fingerprint };
  }
  const types = (await loadWorkspaceModel(ctx.db, workspaceId)).map(toDeliveryType);
  const schema: DeliverySchema = {
    workspace: current.workspace,
    types,
    byId: new Map(types.map((t) => [t.id, t])),
    bySlug: new Map(types.map((t) => [t.slug, t])),
  };
  cache.set(workspaceId, { fingerprint: current.fingerprint, loadedAt: now, schema, verified: kind === null ? {} : { [kind]: reader.revision } });
  return { schema, fingerprint: current.fingerprint };
}
