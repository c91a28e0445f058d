/**
 * The in-memory state of one Context (Context.caches), created empty by createContext. It lives
 * on the context rather than in module globals so that it starts and ends with the app or CLI
 * run that owns it: two apps in one process (tests, a CLI run beside a server) never share or
 * leak entries, and nothing outlives the database handle it was computed from.
 *
 * Only the shapes live here; each cache's rules (bounds, invalidation) stay with the module that
 * uses it, named on each field. Nothing here needs closing.
 */
import type { GraphQLSchema } from 'graphql';
import type { CompiledQuery } from 'kysely';
import type { Configuration as OidcClient } from 'openid-client';
import type { RoleTable } from './modules/access/roles.js';
import type { Actor } from './modules/auth/permissions.js';
import type { Projection } from './modules/delivery/fields-selection.js';
import type { DeliverySchema, DeliveryType } from './modules/delivery/model.js';
import { PersistedQueryMemory } from './modules/graphql/apq.js';
import type { WorkspaceRevisions } from './modules/workspaces/repository.js';

/** An authenticated key as remembered by src/modules/auth/key-cache.ts. */
export interface CachedKey {
  actor: Actor;
  expiresAt: string | null;
}

/** A workspace's content model as loaded by src/modules/delivery/schema-cache.ts. */
export interface CachedSchema {
  fingerprint: string;
  loadedAt: number;
  schema: DeliverySchema;
  /**
   * Workspace revisions (by kind, src/modules/delivery/schema-cache.ts) under which the
   * fingerprint was last found unchanged: a request whose actor was checked at one of them skips
   * the fingerprint query, since every model change bumps both revisions.
   */
  verified: Partial<Record<keyof WorkspaceRevisions, number>>;
}

/**
 * SQL of the queries every request runs, compiled on first use: only their parameters change,
 * so building and compiling them anew each time would be wasted work.
 */
export interface QueryTemplates {
  /** readWorkspaceRevision (src/modules/workspaces/repository.ts). */
  workspaceRevision?: CompiledQuery;
  /** readWorkspaceFingerprint (src/modules/delivery/query/schema-repository.ts). */
  workspaceFingerprint?: CompiledQuery;
}

/** Derived-image renderings under way (src/modules/media/files.ts). */
export interface RenderState {
  /** By derived storage key: identical concurrent misses wait for one rendering. */
  readonly inFlight: Map<string, Promise<Buffer>>;
  /** Renderings holding a slot now (at most one per core). */
  running: number;
  /** Renderings waiting for a slot, first come first served. */
  readonly queue: (() => void)[];
}

export interface ContextCaches {
  /** Authenticated keys by SHA-256 digest, valid while their workspace revision holds (D12). */
  readonly keys: Map<string, CachedKey>;
  /** Delivery content models by workspace id, reloaded when their fingerprint changes. */
  readonly deliverySchemas: Map<string, CachedSchema>;
  /** Full projections of block types (pages delivery), dropped with the schema they belong to. */
  readonly blockProjections: WeakMap<DeliveryType, Projection>;
  readonly queries: QueryTemplates;
  readonly renders: RenderState;
  /** When this process last recorded a hit of each derived image (`media/variant` → ms), so hits skip the database (src/modules/media/variants.ts). */
  readonly variantTouches: Map<string, number>;
  /**
   * Failed Studio sign-ins of this process (src/modules/auth/throttle.ts): times in ms by email of
   * an existing account, by email without an account and by client address, in three stores so
   * a flood of the last two cannot evict the first. Per instance, like the rate limits.
   */
  readonly signInFailures: SignInFailures;
  /** The installation's role rows, read once (src/modules/access/repository.ts: rolesOf, forgetRoles). */
  readonly roles: { table?: Promise<RoleTable> };
  /** The single sign-on provider as discovered, with its keys (src/modules/auth/oidc-client.ts). */
  readonly oidc: { client?: Promise<OidcClient>; discoveredAt?: number };
  /** GraphQL schemas by workspace id, rebuilt when the delivery model's fingerprint changes (src/modules/graphql/schema.ts). */
  readonly graphqlSchemas: Map<string, { fingerprint: string; schema: GraphQLSchema }>;
  /** GraphQL queries registered by their hash (automatic persisted queries, src/modules/graphql/apq.ts). */
  readonly persistedQueries: PersistedQueryMemory;
  /** Rate-limit windows by bucket and key when no Redis is configured (src/modules/limits/rate-limit.ts). */
  readonly rateLimits: Map<string, { count: number; endsAt: number }>;
}

/** The in-memory sign-in failure stores (times in ms), each in the order of its keys' last failure. */
export interface SignInFailures {
  readonly accounts: Map<string, number[]>;
  readonly unknownEmails: Map<string, number[]>;
  readonly addresses: Map<string, number[]>;
}

export function createCaches(): ContextCaches {
  return {
    keys: new Map(),
    deliverySchemas: new Map(),
    blockProjections: new WeakMap(),
    queries: {},
    renders: { inFlight: new Map(), running: 0, queue: [] },
    variantTouches: new Map(),
    signInFailures: { accounts: new Map(), unknownEmails: new Map(), addresses: new Map() },
    roles: {},
    oidc: {},
    graphqlSchemas: new Map(),
    persistedQueries: new PersistedQueryMemory(),
    rateLimits: new Map(),
  };
}
