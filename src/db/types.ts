/**
 * Table types for Kysely. Flags are stored as integers 0/1 and timestamps as ISO text in both
 * dialects; JSON columns are text in SQLite and jsonb in PostgreSQL (see src/db/dialect.ts).
 * Repositories map rows to domain records; nothing outside src/modules/<x>/repository.ts and
 * src/db/ sees these shapes.
 */
import type { Generated, Kysely } from 'kysely';
import type { Pattern } from '../lib/pattern.js';

/** A JSON column as written (JSON text) and read (text or parsed value, per dialect). */
export type JsonColumn = unknown;

export interface WorkspacesTable {
  id: string;
  name: string;
  slug: string;
  default_locale: string;
  locales: JsonColumn;
  /** Bumped by triggers on every write that can change what the workspace serves (migration 004). */
  /** Bumped by triggers on every change production readers can see (migration 005). */
  revision: Generated<number>;
  /** Bumped by triggers on every change, working copies included (preview readers). */
  draft_revision: Generated<number>;
  /** Studio preview link with {type}, {slug}, {id}, {locale}, {token} (migration 008). */
  preview_url_template: string | null;
  created_at: string;
  updated_at: string;
}

export interface UsersTable {
  id: Generated<number>;
  email: string;
  name: string | null;
  created_at: string;
  /** scrypt hash with salt and parameters (migration 008); null until a password is set. */
  password_hash: string | null;
  last_sign_in_at: string | null;
}

/** A Studio session, keyed by the SHA-256 of its id (migration 008). */
export interface SessionsTable {
  id_hash: string;
  user_id: number;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

/** A setup or invitation link, keyed by the SHA-256 of its token (migration 008). */
export interface OneTimeTokensTable {
  token_hash: string;
  purpose: string;
  user_id: number;
  workspace_id: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A pending invitation into a workspace, keyed by email; a membership once accepted (migration 021). */
export interface InvitationsTable {
  id: string;
  workspace_id: string;
  email: string;
  name: string | null;
  role: string;
  invited_by: number | null;
  token_hash: string;
  created_at: string;
  expires_at: string;
}

/**
 * A role of the installation (migration 022): the five presets and any custom role. `scopes` is a
 * JSON array of scopes; the three flags are 0/1. Read by src/modules/access/repository.ts.
 */
export interface RolesTable {
  key: string;
  name: string;
  scopes: string;
  manages_workspace: number;
  owns_workspace: number;
  is_preset: number;
  created_at: string;
  /** Migration 030: the workspace of a custom role (D120); null for the presets. */
  workspace_id: Generated<string | null>;
  description: Generated<string>;
  /** JSON array of permissions (D120); null for the presets, whose permissions follow from their scopes. */
  permissions: Generated<string | null>;
}

export interface MembershipsTable {
  workspace_id: string;
  user_id: number;
  role: string;
  created_at: string;
  updated_at: string;
}

export interface ApiKeysTable {
  id: string;
  workspace_id: string;
  key_class: string;
  name: string;
  key_hash: string;
  key_hint: string;
  scopes: JsonColumn;
  environment: string | null;
  content_types: JsonColumn;
  created_by: number;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

export interface ContentTypesTable {
  id: string;
  workspace_id: string;
  name: string;
  slug: string;
  description: string | null;
  icon: string | null;
  display_field: string | null;
  is_block: number;
  orderable: number;
  created_at: string;
  updated_at: string;
}

export interface FieldsTable {
  id: string;
  content_type_id: string;
  name: string;
  label: string;
  field_type: string;
  required: number;
  is_unique: number;
  localizable: number;
  filterable: number;
  sortable: number;
  sort_order: number;
  options: string | null;
  validation: string | null;
  created_at: string;
  updated_at: string;
}

/** A background index build of a field, until its flags turn on (migration 017). */
export interface FieldIndexBuildsTable {
  field_id: string;
  /** 0/1: flags that turn on once the build is ready. */
  filterable: number;
  sortable: number;
  is_unique: number;
  /** `building` or `failed`. */
  state: string;
  indexes_built: number;
  indexes_total: number;
  error: string | null;
  started_at: string;
  updated_at: string;
}

export interface EntriesTable {
  id: string;
  workspace_id: string;
  content_type_id: string;
  slug: string;
  status: string;
  data: JsonColumn;
  /** The published version's data (null without one); production delivery reads it (D70). */
  published_data: JsonColumn | null;
  position: number;
  publish_at: string | null;
  published_at: string | null;
  version: number;
  created_at: string;
  updated_at: string;
  created_by: number | null;
  updated_by: number | null;
  /** Who made the published version (production readers see it as `updated_by`). */
  published_by: number | null;
  published_version: number | null;
  /** The newest history version's number. */
  latest_version: Generated<number>;
  /** 0/1: the working copy differs from the published version (D70). */
  has_pending_changes: Generated<number>;
}

export interface EntryTranslationsTable {
  id: Generated<number>;
  entry_id: string;
  locale: string;
  data: JsonColumn;
  created_at: string;
  updated_at: string;
}

export interface MediaTable {
  id: string;
  workspace_id: string;
  storage_key: string | null;
  /** A remote original's URL (storage_key null); the URL of a stored file is computed on read. */
  remote_url: string | null;
  mime_type: string;
  width: number | null;
  height: number | null;
  alt_text: string | null;
  /** Migration 018: the asset's title and description (null when unset). */
  title: string | null;
  description: string | null;
  focal_x: number | null;
  focal_y: number | null;
  filename: string;
  original_name: string;
  folder: string | null;
  size: number;
  uploaded_by: number | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface IdempotencyKeysTable {
  api_key_id: string;
  idem_key: string;
  fingerprint: string;
  state: string;
  status_code: number | null;
  response: string | null;
  created_at: string;
  expires_at: string;
}

export interface SettingsTable {
  name: string;
  value: string;
}

export interface PagesTable {
  id: string;
  workspace_id: string;
  slug: string;
  status: string;
  position: number;
  seo: JsonColumn;
  /** The published version's SEO (null without one). */
  published_seo: JsonColumn | null;
  publish_at: string | null;
  published_at: string | null;
  version: number;
  created_at: string;
  updated_at: string;
  created_by: number | null;
  updated_by: number | null;
  /** Who made the published version (production readers see it as `updated_by`). */
  published_by: number | null;
  published_version: number | null;
  /** The newest history version's number. */
  latest_version: Generated<number>;
  /** 0/1: the working copy differs from the published version (D70). */
  has_pending_changes: Generated<number>;
}

export interface PageSeoTranslationsTable {
  id: Generated<number>;
  page_id: string;
  locale: string;
  seo: JsonColumn;
  created_at: string;
  updated_at: string;
}

export interface BlocksTable {
  id: string;
  page_id: string;
  block_type_id: string;
  parent_id: string | null;
  position: number;
  data: JsonColumn;
  created_at: string;
  updated_at: string;
}

export interface BlockTranslationsTable {
  id: Generated<number>;
  /** With block_id, the block (block ids are unique within their page: migration 007). */
  page_id: string;
  block_id: string;
  locale: string;
  data: JsonColumn;
  created_at: string;
  updated_at: string;
}

/** Published copies (migration 005): the same shape as the working tables they copy. */
export interface PublishedEntryTranslationsTable {
  entry_id: string;
  locale: string;
  id: number;
  data: JsonColumn;
}

export interface PublishedPageSeoTranslationsTable {
  page_id: string;
  locale: string;
  id: number;
  seo: JsonColumn;
}

export interface PublishedBlocksTable {
  id: string;
  page_id: string;
  block_type_id: string;
  parent_id: string | null;
  position: number;
  data: JsonColumn;
}

export interface PublishedBlockTranslationsTable {
  block_id: string;
  page_id: string;
  locale: string;
  id: number;
  data: JsonColumn;
}

/** One version of an entry or page (D72); `snapshot` is its content after that write. */
export interface VersionColumns {
  version: number;
  action: string;
  status: string;
  snapshot: JsonColumn;
  created_at: string;
  created_by: number | null;
}

export interface EntryVersionsTable extends VersionColumns {
  entry_id: string;
  /** Migration 023: the release a `publish` version came from (D112); null otherwise. */
  release_id: Generated<string | null>;
}

export interface PageVersionsTable extends VersionColumns {
  page_id: string;
  /** Migration 023: the release a `publish` version came from (D112); null otherwise. */
  release_id: Generated<string | null>;
}

/** A release (migration 023; src/modules/releases/, D110–D113). */
export interface ReleasesTable {
  id: string;
  workspace_id: string;
  title: string;
  description: string | null;
  /** open | scheduled | published | failed */
  status: string;
  publish_at: string | null;
  published_at: string | null;
  reverted_at: string | null;
  /** JSON array of {path, message}: why the last scheduled publication failed. */
  failure: JsonColumn | null;
  /** Migration 025: bumped by every write of the release's items (sync tokens of the release perspective). */
  items_revision: Generated<number>;
  created_at: string;
  updated_at: string;
  created_by: number | null;
  updated_by: number | null;
}

/** What a release does to one entry or page (migration 023). */
export interface ReleaseItemsTable {
  release_id: string;
  /** entry | page */
  kind: string;
  item_id: string;
  /** publish | unpublish */
  action: string;
  /** The history version the variant was copied from (for `unpublish`: the newest version when added). */
  base_version: number;
  /** The variant: the item's snapshot as its history stores it; null for `unpublish`. */
  snapshot: JsonColumn | null;
  prior_status: string | null;
  prior_published_at: string | null;
  prior_published_version: number | null;
  /** The version the release's publication recorded (publish items), or the unpublish version. */
  result_version: number | null;
  created_at: string;
  updated_at: string;
  created_by: number | null;
  updated_by: number | null;
}

/** A stored transform result of a media asset (migration 006; src/modules/media/variants.ts). */
export interface MediaVariantsTable {
  media_id: string;
  /** Canonical variant name, e.g. `w640-h640-cover-fp0.5x0.5-q80.webp`. */
  variant: string;
  storage_key: string;
  /** Bytes. */
  size: number;
  created_at: string;
  last_used_at: string;
}

/** A webhook subscription (migration 011, D82); `events`/`content_types` are JSON arrays as text. */
export interface WebhooksTable {
  id: string;
  workspace_id: string;
  url: string;
  description: string | null;
  events: string;
  content_types: string;
  enabled: number;
  /** AES-256-GCM sealed `whsec_…` secret (src/modules/webhooks/secrets.ts). */
  secret_encrypted: string;
  /** The secret a rotation replaced, sealed like the current one, kept for its grace period (migration 027). */
  previous_secret_encrypted: string | null;
  /** When the previous secret stops signing (ISO), null without one. */
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

/** The webhook outbox: one row per (webhook, event) or ping (migration 011). */
export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  workspace_id: string;
  /** The change event (events.id); null for a ping. */
  event_id: number | null;
  event_type: string;
  payload: string;
  status: string;
  attempts: number;
  /** Due time while pending; during an attempt, the end of its lease; null when done. */
  next_attempt_at: string | null;
  give_up_at: string;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
}

/** One delivery attempt (migration 011); `finished_at` null while under way or interrupted. */
export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  number: number;
  started_at: string;
  finished_at: string | null;
  duration_ms: number | null;
  status_code: number | null;
  response_excerpt: string | null;
  error: string | null;
}

/** One change event (migration 010; src/modules/events/record.ts, D82, D83). */
export interface EventsTable {
  /** Grows per event; per workspace also in commit order. PostgreSQL returns it as text (bigint). */
  id: Generated<number>;
  workspace_id: string;
  /** D82 type, e.g. `entry.published`. */
  type: string;
  item_kind: string;
  item_id: string;
  slug: string | null;
  /** Content type slug of an entry (or of a content type event). */
  content_type: string | null;
  status: string | null;
  /** The item's history version after the write (D72), null when it has none. */
  version: number | null;
  created_at: string;
  /** 1 when production readers may see the change, 0 when only preview readers do; null before migration 026 (counted as 1; D83). */
  live: number | null;
}

/** One audit log row (migration 029; src/modules/audit/, D122). Never updated; pruned by age. */
export interface AuditLogTable {
  /** UUID v7. */
  id: string;
  /** '' for installation-wide rows (sign-in, sign-out, password changes). */
  workspace_id: string;
  at: string;
  actor_type: string;
  actor_id: string | null;
  actor_label: string | null;
  /** The person: the user, or a key's creator. */
  actor_user_id: number | null;
  action: string;
  target_kind: string;
  target_id: string | null;
  target_slug: string | null;
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
  /** JSON array of top-level field names, or null. */
  changed_fields: string | null;
}

/** One row of the Studio's activity log (migration 031; src/modules/activity/, D133). Pruned by age. */
export interface ActivityTable {
  /** Grows per row; per workspace also in commit order. PostgreSQL returns it as text (bigint). */
  id: Generated<number>;
  workspace_id: string;
  /** `item`, `comment`, `notification` or `presence`. */
  type: string;
  item_kind: string | null;
  item_id: string | null;
  content_type: string | null;
  /** Set: only this person's streams hear it. */
  user_id: number | null;
  /** JSON object: what the stream frame carries. */
  data: string;
  created_at: string;
}

/** One notification of one person (migration 031; src/modules/notifications/, D132). */
export interface NotificationsTable {
  /** UUID v7. */
  id: string;
  workspace_id: string;
  /** The person told. */
  user_id: number;
  kind: string;
  actor_user_id: number | null;
  item_kind: string | null;
  item_id: string | null;
  release_id: string | null;
  comment_id: string | null;
  /** JSON `{id, name}` of a stage, or null. */
  stage: string | null;
  /** JSON snapshot of what the item or release was called: `{content_type, slug, title}` or `{name}`. */
  subject: string | null;
  message: string;
  created_at: string;
  read_at: string | null;
}

/** A comment on an entry or page (migration 033; src/modules/comments/, docs/workflow.md "Comments"). */
export interface CommentsTable {
  /** UUID v7. */
  id: string;
  workspace_id: string;
  /** entry | page */
  item_kind: string;
  entry_id: string | null;
  page_id: string | null;
  /** The thread's first comment, for a reply. */
  parent_id: string | null;
  /** The field path it is anchored to (`title`, `seo.title`, `blocks.<id>.<field>`, an entry field), or null. */
  field: string | null;
  locale: string | null;
  body: string;
  author_id: number | null;
  /** Set on a thread's first comment when resolved. */
  resolved_at: string | null;
  resolved_by: number | null;
  created_at: string;
  updated_at: string;
  /** When the body last changed after it was written; null: never. */
  edited_at: string | null;
}

/** A member mentioned in a comment (migration 033). */
export interface CommentMentionsTable {
  comment_id: string;
  user_id: number;
}

/** One open Studio event stream and the item it shows (migration 034; src/modules/presence/, D133). */
export interface PresenceTable {
  /** The id the stream's `hello` frame carries. */
  stream_id: string;
  workspace_id: string;
  user_id: number;
  /** `entry` or `page`, with item_id; both null when the stream shows no item. */
  item_kind: string | null;
  item_id: string | null;
  /** When the stream started showing the item (or opened). */
  since: string;
  /** The instance holding the stream (it refreshes expires_at every heartbeat). */
  instance: string;
  expires_at: string;
}

/** A review workflow (migration 032). */
export interface WorkflowsTable {
  id: string;
  workspace_id: string;
  name: string;
  /** JSON array of content type ids. */
  content_type_ids: string;
  /** 1 when the workflow covers the workspace's pages. */
  pages: number;
  /** JSON array of {id, name, required_approvals, roles}. */
  stages: string;
  publish_stage: string;
  created_at: string;
  updated_at: string;
  created_by: number | null;
  updated_by: number | null;
}

/** An entry's or page's stored place in its workflow (migration 032); exactly one of entry_id, page_id. */
export interface WorkflowItemsTable {
  id: string;
  workspace_id: string;
  workflow_id: string;
  /** entry | page */
  item_kind: string;
  entry_id: string | null;
  page_id: string | null;
  stage_id: string;
  stage_changed_at: string | null;
  stage_changed_by: number | null;
}

/** An assignee or an approval of an item's workflow state (migration 032). */
export interface WorkflowPeopleTable {
  workflow_item_id: string;
  user_id: number;
  created_at: string;
}

export interface Database {
  workspaces: WorkspacesTable;
  users: UsersTable;
  sessions: SessionsTable;
  one_time_tokens: OneTimeTokensTable;
  memberships: MembershipsTable;
  invitations: InvitationsTable;
  roles: RolesTable;
  api_keys: ApiKeysTable;
  content_types: ContentTypesTable;
  fields: FieldsTable;
  field_index_builds: FieldIndexBuildsTable;
  entries: EntriesTable;
  entry_translations: EntryTranslationsTable;
  media: MediaTable;
  media_variants: MediaVariantsTable;
  idempotency_keys: IdempotencyKeysTable;
  settings: SettingsTable;
  pages: PagesTable;
  page_seo_translations: PageSeoTranslationsTable;
  blocks: BlocksTable;
  block_translations: BlockTranslationsTable;
  published_entry_translations: PublishedEntryTranslationsTable;
  published_page_seo_translations: PublishedPageSeoTranslationsTable;
  published_blocks: PublishedBlocksTable;
  published_block_translations: PublishedBlockTranslationsTable;
  entry_versions: EntryVersionsTable;
  page_versions: PageVersionsTable;
  events: EventsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  releases: ReleasesTable;
  release_items: ReleaseItemsTable;
  audit_log: AuditLogTable;
  activity: ActivityTable;
  notifications: NotificationsTable;
  workflows: WorkflowsTable;
  workflow_items: WorkflowItemsTable;
  workflow_assignees: WorkflowPeopleTable;
  workflow_approvals: WorkflowPeopleTable;
  comments: CommentsTable;
  comment_mentions: CommentMentionsTable;
  presence: PresenceTable;
}

export type Dialect = 'sqlite' | 'postgres';

/**
 * Memory kept with a database handle: created by createDb and shared by the transaction handles
 * derived from it (withTransaction), so it lives exactly as long as the app's handle. Only for
 * what code holding nothing but a Db needs (validation runs on a transaction's Db); state
 * reachable from a Context belongs in Context.caches.
 */
export interface DbMemo {
  /** Field `validation.pattern` sources compiled (null: not a valid pattern); src/modules/entries/validation.ts. */
  readonly fieldPatterns: Map<string, Pattern | null>;
  /**
   * Called with a workspace id after a transaction that recorded change events of it commits
   * (src/modules/events/record.ts): the live stream's readers of this process wake up at once
   * (src/modules/live/hub.ts) instead of waiting for a notification.
   */
  readonly eventWatchers: Set<(workspaceId: string) => void>;
  /** Queries compiled once per shape, by template key (src/db/query-template.ts). */
  readonly compiledQueries: Map<string, import('kysely').CompiledQuery>;
  /**
   * PostgreSQL: the statement name of each template's SQL text. The pool's clients run those as
   * named prepared statements, parsed once per connection and planned without re-planning each
   * run (src/db/create-db.ts); other SQL runs unnamed, planned on every run.
   */
  readonly statementNames: Map<string, string>;
}

/** The database handle every repository receives. */
export interface Db {
  readonly kysely: Kysely<Database>;
  readonly dialect: Dialect;
  close(): Promise<void>;
  /** Per-handle memory (DbMemo); a transaction's handle shares its parent's. */
  readonly memo: DbMemo;
  /**
   * SQLite only: runs a compiled read synchronously on the connection, for the one query every
   * request makes (the workspace revision). Returns `undefined` when it may not (a transaction
   * is open on the connection and could show uncommitted rows); callers then go through Kysely,
   * which waits for the transaction like any other query.
   */
  readonly readNow?: (sql: string, parameters: readonly unknown[]) => { row: Record<string, unknown> | undefined } | undefined;
  /**
   * SQLite in a file only: the same database read by worker threads (src/db/sqlite-readers.ts),
   * for reads that may take long (delivery lists and counts), so they never hold up the main
   * thread. Absent on PostgreSQL, in-memory SQLite and transaction handles: use `kysely`.
   */
  readonly heavyReads?: Kysely<Database>;
  /**
   * SQLite in a file only: runs one statement that holds the write lock long (an index build) on
   * a worker thread with a connection of its own (src/db/sqlite-long-write.ts). Meanwhile this
   * handle's writes wait for it asynchronously instead of blocking the thread on the lock, and
   * reads carry on. Rejects with the statement's error.
   */
  readonly runLongWrite?: (sql: string) => Promise<void>;
  /**
   * PostgreSQL only: a new connection of its own, outside the pool, with the pool's settings
   * (schema, timeouts) but no statement timeout: for work that holds a connection long (a
   * concurrent index build) or a dedicated session (the revision checker). The caller ends it.
   */
  readonly connectDedicated?: () => Promise<import('pg').Client>;
}

/** The handle for a read that may take long: the worker readers when there are, else `db` itself. */
export function heavyReader(db: Db): Db {
  return db.heavyReads ? { ...db, kysely: db.heavyReads } : db;
}
