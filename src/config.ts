/**
 * Configuration: read once from the environment into one frozen object that is passed to
 * buildApp, the CLI and the jobs. Nothing in Quire reads process.env anywhere else.
 *
 * Variables (docs/configuration.md "Configuration" (D60)): PORT (default 3000), HOST (default
 * 0.0.0.0), DATA_DIR
 * (default ./data, holds the SQLite file and media), DATABASE_URL (postgres://… switches to
 * PostgreSQL; unset means embedded SQLite), PUBLIC_URL (absolute base of media URLs, default
 * http://localhost:PORT), LOG_LEVEL (pino level, default info), SCHEDULER_INTERVAL_MS (how often
 * the publishing job runs, default 2000), QUIRE_DEMO (set to 0 to skip the demo workspace).
 * Media (docs/media.md "Uploading" (D50), "URLs" (D51), "Storage" (D52)): STORAGE_DRIVER (`local`,
 * default: files under DATA_DIR/media;
 * `s3`: any S3-compatible object store), S3_ENDPOINT, S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID,
 * S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE, MEDIA_MAX_BYTES (upload limit, default 10 MB),
 * MEDIA_PUBLIC_URL (base of media URLs in place of `PUBLIC_URL/media/files`, e.g. a CDN; media
 * URLs are computed from it or from PUBLIC_URL whenever an asset is read, never stored).
 * Rate limits (docs/api.md "Rate limits": 429 RATE_LIMITED): RATE_LIMIT_MANAGEMENT and RATE_LIMIT_DELIVERY,
 * requests per minute per API key (defaults 1200 and 0; 0 turns the limit off).
 * History (docs/api.md "History" (D72)): VERSION_COALESCE_SECONDS (default 300; 0 turns coalescing off):
 * consecutive updates by one person within this time make one version.
 * Audit log (docs/access.md "Audit log" (D122)): AUDIT_RETENTION_DAYS (default 365; 0 keeps every
 * row): rows older than this are pruned every hour.
 * Timeouts (issue 8, docs/security.md): HTTP_HEADERS_TIMEOUT_MS (10 s to send the request
 * headers), HTTP_REQUEST_TIMEOUT_MS (60 s to send the whole request, body included),
 * HTTP_KEEP_ALIVE_TIMEOUT_MS (72 s idle between requests on a connection),
 * HTTP_HANDLER_TIMEOUT_MS (30 s to answer once the request is routed; uploads get the request
 * timeout on top), DB_STATEMENT_TIMEOUT_MS (15 s per PostgreSQL statement and per SQLite delivery
 * list on a reader thread, also the longest wait for a pooled connection, for SQLite's write lock
 * and for a write waiting behind a background index build). SQLite memory (docs/scaling.md
 * "Memory"): SQLITE_CACHE_BYTES (page cache of each connection, default 4 MiB) and
 * SQLITE_READER_THREADS (threads running delivery lists and counts, default 2).
 * Transforms (issue 8, docs/media.md): MEDIA_TRANSFORM_SIZES (the widths and heights requests
 * round up to), MEDIA_MAX_VARIANTS_PER_ASSET (default 50) and MEDIA_DERIVED_CACHE_BYTES (1 GiB):
 * stored results beyond either are evicted least recently served first.
 * MEDIA_ACTIVE_DISPOSITION (`attachment` or `inline`): how SVG and PDF originals open when visited.
 * Studio (docs/api.md "Studio sessions, people, keys and workspace" (D90)): SESSION_IDLE_HOURS
 * (default 24) and SESSION_MAX_AGE_HOURS (default 336,
 * 14 days) end a session after that long without a request or after sign-in; SMTP_URL
 * (smtp:// or smtps://, unset: invitations are not e-mailed, the inviting admin copies the link)
 * and SMTP_FROM (sender address, default `Quire <no-reply@<PUBLIC_URL host>>`).
 * Front ends (docs/front-ends.md "CORS" (D80), "HTTP caching and compression" (D81); docs/api.md
 * "Webhooks" (D82)): CORS_DELIVERY_ORIGINS (comma-separated
 * origins allowed to call the delivery API from a browser; unset or `*`: any origin),
 * CORS_MANAGEMENT_ORIGINS (origins allowed on the management API; default none, the Studio is
 * same-origin), DELIVERY_MAX_AGE (seconds for `Cache-Control: public, max-age=N` on delivery
 * answers; unset: `no-cache`), DELIVERY_CACHE_BYTES (most bytes of the delivery response cache,
 * default 16 MiB, 0: off), WEBHOOK_ALLOW_PRIVATE (deliver webhooks to loopback, private and other
 * non-public addresses; default off everywhere, the embedded database included: only an explicit
 * `1`/`true` turns the SSRF guard off),
 * WEBHOOK_TIMEOUT_MS (10 s per delivery attempt), WEBHOOK_POLL_MS (1 s between outbox scans).
 * Security headers (docs/security.md, docs/configuration.md): FRAME_ANCESTORS (who may frame the
 * Studio, /docs and media files: `none` by default, or `self` and comma-separated origins) and
 * STUDIO_PREVIEW_ORIGINS (origins the Studio's live preview may frame; unset: any http(s) origin,
 * since each workspace sets its own preview URL template at run time).
 * GraphQL (docs/graphql.md "Limits" (D103)): GRAPHQL_MAX_DEPTH (default 12) and GRAPHQL_MAX_COST
 * (default 10,000), the deepest and costliest query the GraphQL delivery endpoint runs.
 * Live updates (docs/front-ends.md "Live updates" (D142)): LIVE_HEARTBEAT_MS (default 15,000),
 * LIVE_HISTORY_SECONDS (resumable history, default 600, at least 300), LIVE_POLL_MS (a reader's
 * read without a wake-up, default 5,000) and LIVE_MAX_CONNECTIONS_PER_KEY (per instance, 1,000).
 * The Studio's event stream (docs/workflow.md "Who else is here" (D133)) shares the heartbeat and
 * poll, and takes STUDIO_MAX_STREAMS_PER_PERSON (per person and instance, default 20).
 * Many instances (docs/scaling.md): REDIS_URL (redis:// or rediss://; unset: each instance counts
 * rate limits and sign-in failures alone) and REDIS_PREFIX (prefix of every key, default `quire:`).
 * Single sign-on (docs/access.md "Single sign-on" (D121)): OIDC_ISSUER, OIDC_CLIENT_ID,
 * OIDC_CLIENT_SECRET, OIDC_ROLE_CLAIM, OIDC_ROLE_MAP, OIDC_ONLY and OIDC_NAME, read and checked by
 * src/modules/auth/oidc-config.ts.
 */
import path from 'node:path';
import { PASSWORD_HASH_LOG2N, PASSWORD_HASH_MAX_LOG2N, PASSWORD_HASH_MIN_LOG2N } from './modules/auth/passwords.js';
import { DEFAULT_TRANSFORM_SIZES, MAX_DIMENSION } from './modules/media/transform.js';
import { oidcSettingsFrom, OidcSettingsError, type OidcSettings } from './modules/auth/oidc-config.js';

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  /** null means the embedded SQLite database in dataDir. */
  readonly databaseUrl: string | null;
  readonly publicUrl: string;
  /**
   * Base URL media files are served from, in place of `{publicUrl}/media/files` (a CDN in front of
   * that route or of the bucket); the storage key is appended. null: `{publicUrl}/media/files`.
   */
  readonly mediaPublicUrl: string | null;
  readonly logLevel: string;
  readonly schedulerIntervalMs: number;
  /** D72: consecutive `update` writes by one actor within this many seconds share one version. */
  readonly versionCoalesceSeconds: number;
  /** D122: audit log rows older than this many days are pruned (0: never). */
  readonly auditRetentionDays: number;
  readonly demo: boolean;
  /** Where media files live: `local` (DATA_DIR/media) or `s3` (an S3-compatible bucket). */
  readonly storageDriver: StorageDriver;
  /** S3 endpoint URL (MinIO, R2, …); null means AWS S3 of s3Region. */
  readonly s3Endpoint: string | null;
  readonly s3Bucket: string | null;
  readonly s3Region: string;
  /** Null means the AWS SDK's default credential chain (AWS_* variables, instance roles). */
  readonly s3AccessKeyId: string | null;
  readonly s3SecretAccessKey: string | null;
  /** Path-style addressing (`endpoint/bucket/key`), which most self-hosted stores need. */
  readonly s3ForcePathStyle: boolean;
  /** Largest accepted upload in bytes (docs/security.md "Limits and their settings": 10 MB). */
  readonly mediaMaxBytes: number;
  /** Requests per minute per management key; 0 means no limit. */
  readonly rateLimitManagement: number;
  /** Requests per minute per delivery key; 0 (default) means no limit. */
  readonly rateLimitDelivery: number;
  /** Milliseconds a client has to send the request headers (slow-loris bound). */
  readonly httpHeadersTimeoutMs: number;
  /** Milliseconds a client has to send the whole request, body included (answers 408). */
  readonly httpRequestTimeoutMs: number;
  /** Milliseconds an idle keep-alive connection stays open. */
  readonly httpKeepAliveTimeoutMs: number;
  /** Milliseconds a routed request may take to be answered (then 503, Retry-After). */
  readonly httpHandlerTimeoutMs: number;
  /** Milliseconds per PostgreSQL statement and per wait for a connection or SQLite's write lock. */
  readonly dbStatementTimeoutMs: number;
  /** SQLite: most bytes of database pages each connection keeps in memory (its page cache). */
  readonly sqliteCacheBytes: number;
  /** SQLite: worker threads running delivery lists and counts (src/db/sqlite-readers.ts). */
  readonly sqliteReaderThreads: number;
  /** Widths and heights transforms round up to (ascending, 1 to 4,000). */
  readonly mediaTransformSizes: readonly number[];
  /** Most stored transform results per asset; beyond, its least recently served one goes. */
  readonly mediaMaxVariantsPerAsset: number;
  /** Most bytes of stored transform results in all; beyond, the least recently served go. */
  readonly mediaDerivedCacheBytes: number;
  /** How SVG and PDF originals are served when visited: downloaded (default) or shown inline; sandboxed either way. */
  readonly mediaActiveDisposition: 'attachment' | 'inline';
  /** Hours a Studio session lives without a request (D90). */
  readonly sessionIdleHours: number;
  /** Hours a Studio session lives after sign-in, however active (D90). */
  readonly sessionMaxAgeHours: number;
  /**
   * log2 of scrypt's N for new password hashes and for the check of an unknown email (D90):
   * PASSWORD_HASH_LOG2N (15), which no environment variable changes; only test suites pass a lower
   * one (loadConfig's overrides, 10 at the least) so that their sign-ins do not dominate their time.
   */
  readonly passwordHashLog2n: number;
  /** SMTP server invitations are sent through (smtp:// or smtps://); null: not e-mailed. */
  readonly smtpUrl: string | null;
  /** Sender of invitation e-mails. */
  readonly smtpFrom: string;
  /** Origins allowed to call the delivery API from a browser; null means any origin (D80). */
  readonly corsDeliveryOrigins: readonly string[] | null;
  /** Origins allowed to call the management API from a browser; empty means none (D80). */
  readonly corsManagementOrigins: readonly string[];
  /** Seconds of `Cache-Control: max-age` on delivery answers; null means `no-cache` (D81). */
  readonly deliveryMaxAge: number | null;
  /** Most bytes the delivery response cache keeps (bodies and per-response overhead); 0 turns it off. */
  readonly deliveryCacheBytes: number;
  /** Deliver webhooks to loopback, private and other non-public addresses (SSRF guard off, D82); false unless set. */
  readonly webhookAllowPrivate: boolean;
  /** Milliseconds one webhook delivery attempt may take before it counts as failed. */
  readonly webhookTimeoutMs: number;
  /** Milliseconds between scans of the webhook outbox by the delivery worker. */
  readonly webhookPollMs: number;
  /**
   * CSP `frame-ancestors` sources of the Studio, /docs and media files: `['none']` (default, with
   * X-Frame-Options DENY) or `self` and origins (FRAME_ANCESTORS).
   */
  readonly frameAncestors: readonly string[];
  /** Origins the Studio's live preview may frame (CSP frame-src); null: any http(s) origin. */
  readonly studioPreviewOrigins: readonly string[] | null;
  /** Deepest GraphQL delivery query run, in nested fields (D103). */
  readonly graphqlMaxDepth: number;
  /** Costliest GraphQL delivery query run, as computed before it runs (D103). */
  readonly graphqlMaxCost: number;
  /** Milliseconds between two heartbeat comments of a live stream (D142). */
  readonly liveHeartbeatMs: number;
  /** Seconds of event history a live stream resumes from with Last-Event-ID (D142). */
  readonly liveHistorySeconds: number;
  /** Milliseconds after which a live reader with subscribers reads without a wake-up. */
  readonly livePollMs: number;
  /** Live streams one delivery key may hold open on one instance (more: 429). */
  readonly liveMaxConnectionsPerKey: number;
  /** Studio event streams one person may hold open on one instance (more: 429, D133). */
  readonly studioMaxStreamsPerPerson: number;
  /** Redis shared by the instances (rate limits, sign-in throttling); null: per instance. */
  readonly redisUrl: string | null;
  /** Prefix of every Redis key Quire writes, so one Redis can serve several installations. */
  readonly redisPrefix: string;
  /** Single sign-on with OpenID Connect (D121); null when OIDC_ISSUER is unset. */
  readonly oidc: OidcSettings | null;
}

export type StorageDriver = 'local' | 's3';

/** Default bound of the delivery response cache: 16 MiB (docs/scaling.md "Memory"). */
export const DEFAULT_DELIVERY_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * Default page cache of each SQLite connection: 4 MiB, against better-sqlite3's 16 MiB, with no
 * measurable change in `npm run bench:scale` latencies (docs/scaling.md "Memory"); pages beyond
 * it are read from the operating system's file cache.
 */
export const DEFAULT_SQLITE_CACHE_BYTES = 4 * 1024 * 1024;

/** Default upload limit: 10 MB (docs/security.md "Limits and their settings"). */
export const DEFAULT_MEDIA_MAX_BYTES = 10 * 1024 * 1024;

/** MEDIA_TRANSFORM_SIZES: comma-separated integers from 1 to 4,000, returned ascending, unique. */
function sizesFrom(env: Record<string, string | undefined>, fallback: readonly number[]): readonly number[] {
  const raw = env.MEDIA_TRANSFORM_SIZES;
  if (raw === undefined || raw.trim() === '') return fallback;
  const sizes = raw.split(',').map((p) => Number(p.trim()));
  if (sizes.some((n) => !Number.isInteger(n) || n < 1 || n > MAX_DIMENSION)) {
    throw new ConfigError(`MEDIA_TRANSFORM_SIZES must be comma-separated integers from 1 to ${MAX_DIMENSION}, got '${raw}'`);
  }
  return Object.freeze([...new Set(sizes)].sort((a, b) => a - b));
}

/** MEDIA_ACTIVE_DISPOSITION: `attachment` (default) or `inline`. */
function dispositionFrom(env: Record<string, string | undefined>): 'attachment' | 'inline' {
  const raw = (env.MEDIA_ACTIVE_DISPOSITION ?? 'attachment').toLowerCase();
  if (raw !== 'attachment' && raw !== 'inline') throw new ConfigError(`MEDIA_ACTIVE_DISPOSITION must be attachment or inline, got '${raw}'`);
  return raw;
}

/** Raised for an environment value that cannot be used; the server prints it and exits 1. */
export class ConfigError extends Error {}

function intFrom(env: Record<string, string | undefined>, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got '${raw}'`);
  }
  return n;
}

function boolFrom(env: Record<string, string | undefined>, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes)$/i.test(raw)) return true;
  if (/^(0|false|no)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got '${raw}'`);
}

/** The media storage variables; S3 needs a bucket, and an endpoint must be an http(s) URL. */
function storageFrom(
  env: Record<string, string | undefined>,
): Pick<Config, 'storageDriver' | 's3Endpoint' | 's3Bucket' | 's3Region' | 's3AccessKeyId' | 's3SecretAccessKey' | 's3ForcePathStyle'> {
  const driver = (env.STORAGE_DRIVER ?? 'local').toLowerCase();
  if (driver !== 'local' && driver !== 's3') throw new ConfigError(`STORAGE_DRIVER must be local or s3, got '${driver}'`);
  const s3Endpoint = env.S3_ENDPOINT ? env.S3_ENDPOINT.replace(/\/+$/, '') : null;
  if (s3Endpoint && !/^https?:\/\/[^/]+/.test(s3Endpoint)) throw new ConfigError(`S3_ENDPOINT must be an http(s) URL, got '${s3Endpoint}'`);
  const s3Bucket = env.S3_BUCKET ? env.S3_BUCKET : null;
  if (driver === 's3' && !s3Bucket) throw new ConfigError('STORAGE_DRIVER=s3 needs S3_BUCKET');
  const s3AccessKeyId = env.S3_ACCESS_KEY_ID ? env.S3_ACCESS_KEY_ID : null;
  const s3SecretAccessKey = env.S3_SECRET_ACCESS_KEY ? env.S3_SECRET_ACCESS_KEY : null;
  if ((s3AccessKeyId === null) !== (s3SecretAccessKey === null)) throw new ConfigError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
  return {
    storageDriver: driver,
    s3Endpoint,
    s3Bucket,
    s3Region: env.S3_REGION ? env.S3_REGION : 'us-east-1',
    s3AccessKeyId,
    s3SecretAccessKey,
    s3ForcePathStyle: boolFrom(env, 'S3_FORCE_PATH_STYLE', s3Endpoint !== null),
  };
}

/** SMTP_URL must be smtp:// or smtps://; SMTP_FROM defaults to no-reply at PUBLIC_URL's host. */
function smtpFrom(env: Record<string, string | undefined>, publicUrl: string): Pick<Config, 'smtpUrl' | 'smtpFrom'> {
  const smtpUrl = env.SMTP_URL ? env.SMTP_URL : null;
  if (smtpUrl !== null) {
    let ok: boolean;
    try {
      ok = /^smtps?:$/.test(new URL(smtpUrl).protocol);
    } catch {
      ok = false;
    }
    // The URL may hold a password: it is never echoed.
    if (!ok) throw new ConfigError('SMTP_URL must be an smtp:// or smtps:// URL');
  }
  const host = new URL(publicUrl).hostname || 'localhost';
  return { smtpUrl, smtpFrom: env.SMTP_FROM ? env.SMTP_FROM : `Quire <no-reply@${host}>` };
}

/**
 * CORS origin lists (D80): comma-separated `scheme://host[:port]` values. `*` (or unset, when
 * anyOnUnset) means any origin, returned as null.
 */
function originsFrom(env: Record<string, string | undefined>, name: string, anyOnUnset: boolean): readonly string[] | null {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return anyOnUnset ? null : Object.freeze([]);
  const parts = raw
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (parts.includes('*')) return null;
  for (const origin of parts) {
    let ok: boolean;
    try {
      const url = new URL(origin);
      ok = /^https?:$/.test(url.protocol) && url.origin === origin.replace(/\/+$/, '');
    } catch {
      ok = false;
    }
    if (!ok) throw new ConfigError(`${name} must be comma-separated origins such as https://site.example (scheme, host and port only), got '${origin}'`);
  }
  return Object.freeze(parts.map((p) => p.replace(/\/+$/, '')));
}

/**
 * FRAME_ANCESTORS: `none` (default: nothing may frame these pages), or comma-separated `self` and
 * origins, returned as CSP source expressions (`'none'`, `'self'`, `https://site.example`).
 */
function frameAncestorsFrom(env: Record<string, string | undefined>): readonly string[] {
  const raw = env.FRAME_ANCESTORS;
  if (raw === undefined || raw.trim() === '' || raw.trim().toLowerCase() === 'none') return Object.freeze(["'none'"]);
  const parts = raw
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const self = parts.some((p) => p.toLowerCase() === 'self');
  const others = parts.filter((p) => p.toLowerCase() !== 'self');
  // `*` would let any site frame the Studio: it is refused, not read as "any".
  const origins = others.length && !others.includes('*') ? (originsFrom({ FRAME_ANCESTORS: others.join(',') }, 'FRAME_ANCESTORS', false) ?? []) : [];
  if ((origins.length === 0 && !self) || others.includes('*'))
    throw new ConfigError(`FRAME_ANCESTORS must be none, or self and origins such as https://site.example, got '${raw}'`);
  return Object.freeze([...(self ? ["'self'"] : []), ...origins]);
}

/** REDIS_URL must be a redis:// or rediss:// URL; it may hold a password, so it is never echoed. */
function redisFrom(env: Record<string, string | undefined>): Pick<Config, 'redisUrl' | 'redisPrefix'> {
  const redisUrl = env.REDIS_URL ? env.REDIS_URL : null;
  if (redisUrl !== null) {
    let ok: boolean;
    try {
      ok = /^rediss?:$/.test(new URL(redisUrl).protocol);
    } catch {
      ok = false;
    }
    if (!ok) throw new ConfigError('REDIS_URL must be a redis:// or rediss:// URL');
  }
  const redisPrefix = env.REDIS_PREFIX ?? 'quire:';
  if (!/^[\w:.-]{0,64}$/.test(redisPrefix)) throw new ConfigError(`REDIS_PREFIX must be up to 64 letters, digits, '_', ':', '.' or '-', got '${redisPrefix}'`);
  return { redisUrl, redisPrefix };
}

/** An absolute http(s) URL without trailing slashes, or a ConfigError naming `name`. */
function httpUrlFrom(name: string, raw: string): string {
  const value = raw.trim().replace(/\/+$/, '');
  let ok: boolean;
  try {
    const url = new URL(value);
    ok = /^https?:$/.test(url.protocol) && !url.search && !url.hash;
  } catch {
    ok = false;
  }
  if (!ok) throw new ConfigError(`${name} must be an absolute http(s) URL without query or fragment, got '${raw}'`);
  return value;
}

/** The OIDC_* variables (src/modules/auth/oidc-config.ts), their errors as ConfigErrors. */
function oidcFrom(env: Record<string, string | undefined>): OidcSettings | null {
  try {
    return oidcSettingsFrom(env);
  } catch (err) {
    if (err instanceof OidcSettingsError) throw new ConfigError(err.message);
    throw err;
  }
}

const LOG_LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/**
 * Builds the frozen Config from an environment map (process.env by default).
 * Throws ConfigError naming the variable when a value is unusable.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env, overrides: Partial<Config> = {}): Readonly<Config> {
  const port = intFrom(env, 'PORT', 3000, 0, 65535);
  const databaseUrl = env.DATABASE_URL ? env.DATABASE_URL : null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError(`DATABASE_URL must start with postgres:// (unset it to use the embedded SQLite database)`);
  }
  const logLevel = (env.LOG_LEVEL ?? 'info').toLowerCase();
  if (!LOG_LEVELS.has(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${[...LOG_LEVELS].join(', ')}`);
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    new URL(publicUrl);
  } catch {
    throw new ConfigError(`PUBLIC_URL must be an absolute URL, got '${publicUrl}'`);
  }
  const config: Config = {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    databaseUrl,
    publicUrl,
    mediaPublicUrl: env.MEDIA_PUBLIC_URL ? httpUrlFrom('MEDIA_PUBLIC_URL', env.MEDIA_PUBLIC_URL) : null,
    logLevel,
    schedulerIntervalMs: intFrom(env, 'SCHEDULER_INTERVAL_MS', 2000, 100, 3_600_000),
    versionCoalesceSeconds: intFrom(env, 'VERSION_COALESCE_SECONDS', 300, 0, 86_400),
    auditRetentionDays: intFrom(env, 'AUDIT_RETENTION_DAYS', 365, 0, 36_500),
    demo: env.QUIRE_DEMO !== '0',
    ...storageFrom(env),
    mediaMaxBytes: intFrom(env, 'MEDIA_MAX_BYTES', DEFAULT_MEDIA_MAX_BYTES, 1024, 1024 * 1024 * 1024),
    rateLimitManagement: intFrom(env, 'RATE_LIMIT_MANAGEMENT', 1200, 0, 10_000_000),
    rateLimitDelivery: intFrom(env, 'RATE_LIMIT_DELIVERY', 0, 0, 10_000_000),
    httpHeadersTimeoutMs: intFrom(env, 'HTTP_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000),
    httpRequestTimeoutMs: intFrom(env, 'HTTP_REQUEST_TIMEOUT_MS', 60_000, 100, 3_600_000),
    httpKeepAliveTimeoutMs: intFrom(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 72_000, 100, 3_600_000),
    httpHandlerTimeoutMs: intFrom(env, 'HTTP_HANDLER_TIMEOUT_MS', 30_000, 100, 3_600_000),
    dbStatementTimeoutMs: intFrom(env, 'DB_STATEMENT_TIMEOUT_MS', 15_000, 100, 3_600_000),
    sqliteCacheBytes: intFrom(env, 'SQLITE_CACHE_BYTES', DEFAULT_SQLITE_CACHE_BYTES, 64 * 1024, Number.MAX_SAFE_INTEGER),
    sqliteReaderThreads: intFrom(env, 'SQLITE_READER_THREADS', 2, 1, 16),
    mediaTransformSizes: sizesFrom(env, DEFAULT_TRANSFORM_SIZES),
    mediaMaxVariantsPerAsset: intFrom(env, 'MEDIA_MAX_VARIANTS_PER_ASSET', 50, 1, 100_000),
    mediaDerivedCacheBytes: intFrom(env, 'MEDIA_DERIVED_CACHE_BYTES', 1024 * 1024 * 1024, 1024 * 1024, Number.MAX_SAFE_INTEGER),
    mediaActiveDisposition: dispositionFrom(env),
    sessionIdleHours: intFrom(env, 'SESSION_IDLE_HOURS', 24, 1, 8760),
    sessionMaxAgeHours: intFrom(env, 'SESSION_MAX_AGE_HOURS', 336, 1, 8760),
    passwordHashLog2n: PASSWORD_HASH_LOG2N,
    ...smtpFrom(env, publicUrl),
    corsDeliveryOrigins: originsFrom(env, 'CORS_DELIVERY_ORIGINS', true),
    corsManagementOrigins: originsFrom(env, 'CORS_MANAGEMENT_ORIGINS', false) ?? ['*'],
    deliveryMaxAge: env.DELIVERY_MAX_AGE === undefined || env.DELIVERY_MAX_AGE === '' ? null : intFrom(env, 'DELIVERY_MAX_AGE', 0, 0, 31_536_000),
    deliveryCacheBytes: intFrom(env, 'DELIVERY_CACHE_BYTES', DEFAULT_DELIVERY_CACHE_BYTES, 0, Number.MAX_SAFE_INTEGER),
    webhookAllowPrivate: boolFrom(env, 'WEBHOOK_ALLOW_PRIVATE', false),
    webhookTimeoutMs: intFrom(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
    webhookPollMs: intFrom(env, 'WEBHOOK_POLL_MS', 1000, 50, 60_000),
    frameAncestors: frameAncestorsFrom(env),
    studioPreviewOrigins: env.STUDIO_PREVIEW_ORIGINS?.trim() ? originsFrom(env, 'STUDIO_PREVIEW_ORIGINS', false) : null,
    graphqlMaxDepth: intFrom(env, 'GRAPHQL_MAX_DEPTH', 12, 1, 1000),
    graphqlMaxCost: intFrom(env, 'GRAPHQL_MAX_COST', 10_000, 1, 1_000_000_000),
    liveHeartbeatMs: intFrom(env, 'LIVE_HEARTBEAT_MS', 15_000, 1_000, 300_000),
    liveHistorySeconds: intFrom(env, 'LIVE_HISTORY_SECONDS', 600, 300, 604_800),
    livePollMs: intFrom(env, 'LIVE_POLL_MS', 5_000, 100, 600_000),
    liveMaxConnectionsPerKey: intFrom(env, 'LIVE_MAX_CONNECTIONS_PER_KEY', 1_000, 1, 1_000_000),
    studioMaxStreamsPerPerson: intFrom(env, 'STUDIO_MAX_STREAMS_PER_PERSON', 20, 1, 10_000),
    ...redisFrom(env),
    oidc: oidcFrom(env),
    ...overrides,
  };
  const cost = config.passwordHashLog2n;
  if (!Number.isInteger(cost) || cost < PASSWORD_HASH_MIN_LOG2N || cost > PASSWORD_HASH_MAX_LOG2N) {
    throw new ConfigError(`passwordHashLog2n must be an integer from ${PASSWORD_HASH_MIN_LOG2N} to ${PASSWORD_HASH_MAX_LOG2N}, got ${cost}`);
  }
  // Node.js refuses a headers timeout above the request timeout.
  if (config.httpHeadersTimeoutMs > config.httpRequestTimeoutMs) {
    throw new ConfigError('HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS');
  }
  return Object.freeze(config);
}
