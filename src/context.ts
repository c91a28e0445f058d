/**
 * The dependencies every operation receives: configuration, database, clock, installation
 * secret, logger, media storage and in-memory caches. Built once by createContext for the server
 * (then buildApp) or the CLI and passed explicitly; operations are plain functions of
 * (ctx, actor, input) so routes, the CLI, jobs and tests share them. Everything stateful hangs
 * off the context, not module globals, so it lives and dies with the app that owns it.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { createLogger } from './lib/logger.js';
import { closeRedis, createRedis } from './lib/redis.js';
import { createCaches, type ContextCaches } from './caches.js';
import type { Config } from './config.js';
import type { Db } from './db/types.js';
import { systemClock, type Clock } from './lib/time.js';
import { ContextStorage } from './storage/index.js';
import { IndexBuilder } from './modules/content-types/index-builds.js';
import { RevisionChecker } from './modules/workspaces/revision-checker.js';
import { systemResolver, type HostResolver } from './modules/webhooks/http-client.js';
import { LiveHub } from './modules/live/hub.js';
import { StudioHub } from './modules/live/studio-hub.js';
import { WakeUps } from './modules/live/wake-ups.js';
import type { AnswerTags } from './modules/read/cache-tags.js';

export interface Context {
  readonly config: Readonly<Config>;
  readonly db: Db;
  readonly clock: Clock;
  /** Per-installation secret (32 bytes) signing preview tokens and cursors (D44, D46). */
  readonly secret: Uint8Array;
  readonly log: Logger;
  /** Media storage, opened on first use; closed with the app (buildApp) or the CLI runtime. */
  readonly storage: ContextStorage;
  /** In-memory caches and bookkeeping of this context (src/caches.ts). */
  readonly caches: ContextCaches;
  /** Redis when REDIS_URL is set (shared rate limits and sign-in throttling), else null. */
  readonly redis: Redis | null;
  /**
   * PostgreSQL: the revision check of cached answers on a connection of its own, outside the pool
   * (src/modules/workspaces/revision-checker.ts), opened on first use; null on SQLite.
   */
  readonly revisions: RevisionChecker | null;
  /**
   * Background index builds of field flags on big tables (src/modules/content-types/index-builds.ts);
   * null in the CLI, whose commands build indexes within themselves.
   */
  readonly indexBuilds: IndexBuilder | null;
  /**
   * How webhook deliveries resolve host names (the system resolver); the SSRF guard checks its
   * answers when a webhook is saved and at connect time. Tests replace it to play DNS rebinding.
   */
  readonly resolveHost: HostResolver;
  /** The Live Content API's subscribers and readers (src/modules/live/hub.ts, D142); closed with the app. */
  readonly live: LiveHub;
  /** The Studio's event streams and presence (src/modules/live/studio-hub.ts, D133); closed with the app. */
  readonly studio: StudioHub;
  /**
   * How this instance's stream readers hear of commits, here and on other instances (one
   * transport for both hubs: src/modules/live/wake-ups.ts); closed with the context.
   */
  readonly wakeUps: WakeUps;
  /**
   * The cache tags of the delivery answer being read: set only on a delivery request's own copy
   * of the context (src/http/cache-tags.ts taggedContext), where the read model notes what it
   * reads (src/modules/read/cache-tags.ts); absent on the app's context, so other reads note nothing.
   */
  readonly answerTags?: AnswerTags;
}

/**
 * Loads the installation secret from the settings table, creating it on first start. Several
 * instances starting together agree on one value: the insert ignores a conflict and re-reads.
 */
export async function loadInstallationSecret(db: Db): Promise<Uint8Array> {
  const existing = await db.kysely.selectFrom('settings').select('value').where('name', '=', 'installation_secret').executeTakeFirst();
  if (existing) return Buffer.from(existing.value, 'base64url');
  await db.kysely
    .insertInto('settings')
    .values({ name: 'installation_secret', value: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.kysely.selectFrom('settings').select('value').where('name', '=', 'installation_secret').executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'base64url');
}

export interface ContextOptions {
  clock?: Clock;
  log?: Logger;
  /** false: no Redis client even when REDIS_URL is set (the CLI counts nothing across instances). */
  redis?: boolean;
  /** false: field indexes are always built within the operation (the CLI, which exits after it). */
  indexBuilds?: boolean;
  /** The resolver of webhook host names (default: the system resolver). */
  resolveHost?: HostResolver;
}

export async function createContext(config: Readonly<Config>, db: Db, options: ContextOptions = {}): Promise<Context> {
  const log = options.log ?? createLogger(config.logLevel);
  const ctx = {
    config,
    db,
    clock: options.clock ?? systemClock,
    secret: await loadInstallationSecret(db),
    log,
    storage: new ContextStorage(config),
    caches: createCaches(),
    redis: config.redisUrl && options.redis !== false ? await createRedis(config.redisUrl, config.redisPrefix, log) : null,
    revisions: db.connectDedicated ? new RevisionChecker(db.connectDedicated, log) : null,
    indexBuilds: options.indexBuilds === false ? null : new IndexBuilder({ db, log, clock: options.clock ?? systemClock }),
    resolveHost: options.resolveHost ?? systemResolver,
  };
  const wakeUps = new WakeUps({ db, log, redis: ctx.redis, config });
  return {
    ...ctx,
    wakeUps,
    live: new LiveHub({ db, log, clock: ctx.clock, config, wakeUps }),
    studio: new StudioHub({ db, log, clock: ctx.clock, config, wakeUps }),
  };
}

/**
 * Closes what the context opened (live and Studio streams, their wake-ups, the index builder, the revision check's connection, media
 * storage, Redis); the database is its owner's to close.
 */
export async function closeContext(ctx: Context): Promise<void> {
  await ctx.live.close();
  await ctx.studio.close();
  await ctx.wakeUps.close();
  await ctx.indexBuilds?.stop();
  await ctx.revisions?.close();
  await ctx.storage.close();
  if (ctx.redis) await closeRedis(ctx.redis);
}
