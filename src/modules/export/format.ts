/**
 * The workspace export format (issue 12 item 5; docs/cli.md "Export and restore"): what
 * `quire export` writes and `quire import quire` reads.
 *
 * An export is a directory (or a tar of one, same paths) holding:
 * - `manifest.json`: {format: 'quire-export', version: 5, quire_version, workspace {id, slug,
 *   name}, options {with_users}, counts {table: rows}, files {path: {bytes, sha256}}}. No time of
 *   export and nothing per installation, so exporting the same content twice gives the same bytes.
 * - one `<table>.ndjson` per table below: a JSON object per line, keys sorted, rows in primary-key
 *   order (text compared byte by byte), JSON columns as JSON values (keys sorted) and numbers as
 *   numbers whatever the database, so SQLite and PostgreSQL export the same content identically.
 * - `media/<media id>`: the stored file of each media record that has one.
 *
 * Versions: 5 (this one) adds comments on entries and pages (migration 033): `comments.ndjson`.
 * Mentions are not a file: a restore reads them again from each comment's text against the
 * restored members (docs/workflow.md "Comments"), and tells no one. Version 4 adds the workspace's releases (migration 023): `releases.ndjson`,
 * `release_items.ndjson`, and `release_id` on version rows (the release a `publish` version came
 * from). Versions 1 to 3 hold none of them and are still read: their workspace gets no releases,
 * and a version 1 to 3 manifest listing a release file is refused (TableSpec.since). Version 3
 * adds `title` and `description` to `media.ndjson` rows (migration 018). Version 2 holds no
 * media URL of the exporting installation: `media.ndjson` rows carry `remote_url` (a remote
 * original's URL; null for a stored file, whose URL the restoring server computes from its own
 * configuration). Version 1 rows carried the stored absolute `url`. Both are still read
 * (restore.ts mediaRowOf): their media get no title and no description. Older
 * Quire versions, which know none of these, refuse a newer export by its version instead of
 * failing on (or dropping) the new files and columns.
 *
 * TABLES lists the tables in restore order (parents before children). Each spec says how rows of
 * one workspace are found, their order, and which columns need care.
 */
import type { Database } from '../../db/types.js';
import { RELEASE_ITEM_ACTIONS, RELEASE_ITEM_KINDS, RELEASE_STATUSES } from '../releases/model.js';

export const EXPORT_FORMAT = 'quire-export';
export const EXPORT_VERSION = 5;
/** The oldest format version restore reads. */
export const OLDEST_EXPORT_VERSION = 1;
export const MANIFEST_FILE = 'manifest.json';
export const MEDIA_DIR = 'media';

export type TableName = keyof Database;

/** How one table is exported and restored. */
export interface TableSpec {
  table: TableName;
  /** `<file>.ndjson` in the export. */
  file: string;
  /**
   * Unique columns: the order of the file and the keyset of the batched reads. Translation
   * records go by their serial id, i.e. in the order they were made, and are restored in it:
   * lists that the server reads without an order of their own then come back the same.
   */
  key: readonly string[];
  /**
   * SQL condition selecting the workspace's rows, with `?` for the workspace id (once). Direct
   * tables use `workspace_id = ?`; child tables reach it through their parent.
   */
  scope: string;
  /** Columns stored as JSON (text in SQLite, jsonb in PostgreSQL). */
  json?: readonly string[];
  /** Columns PostgreSQL returns as text (bigint) that are numbers. */
  bigint?: readonly string[];
  /** Columns never exported (secrets, per-installation counters). */
  omit?: readonly string[];
  /** Columns holding a user id (remapped by email when members are restored, see restore.ts). */
  users?: readonly string[];
  /**
   * The `users` columns are foreign keys to users (migration 023): an id no restored member maps
   * is restored as null (no user of this installation made it), where other tables keep the number.
   */
  usersReferenced?: boolean;
  /** A serial id column kept when free in the target database (translation records). */
  serial?: boolean;
  /** Another table's serial id this table copies (published translations copy the working one's). */
  serialOf?: TableName;
  /** Only with `--with-users`. */
  withUsers?: boolean;
  /** Columns holding a uuid, never null: restore refuses a row where one holds anything else. */
  ids?: readonly string[];
  /** Columns holding a uuid or null. */
  optionalIds?: readonly string[];
  /** Columns holding an integer (`required`: never null) that are not keys: restore refuses anything else. */
  integers?: { required?: readonly string[]; optional?: readonly string[] };
  /** Columns holding one of a few words (a status, a kind): restore refuses any other value. */
  words?: Readonly<Record<string, readonly string[]>>;
  /**
   * References restore checks (issue 23): each must name a record of its `table` restored into
   * the target workspace, so no row of an export lands under another workspace's record. A null
   * reference (an optional id) names nothing and passes; `when` limits a check to the rows whose
   * column holds that word (an item names an entry or a page by its `kind`).
   */
  parents?: readonly { column: string; table: ParentTable; when?: { column: string; is: string } }[];
  /**
   * The format version that brought this table (absent: version 1). Older exports hold no file
   * of it: restore writes no rows of it, and refuses such an export listing one.
   */
  since?: number;
}

/** The tables other rows hang under, each with a `workspace_id`. */
export type ParentTable = 'content_types' | 'entries' | 'pages' | 'releases';

const ofType = (column: string) => ({ column, table: 'content_types' as const });
const ofEntry = [{ column: 'entry_id', table: 'entries' as const }];
const ofPage = [{ column: 'page_id', table: 'pages' as const }];

/** A version names the release it came from, if any (a `publish` version, D112); an item the release holding it. */
const ofRelease = { column: 'release_id', table: 'releases' as const };

const inEntries = 'entry_id IN (SELECT id FROM entries WHERE workspace_id = ?)';
const inPages = 'page_id IN (SELECT id FROM pages WHERE workspace_id = ?)';

/** The workspace row itself (one line); its revisions are per installation. */
export const WORKSPACE_SPEC: TableSpec = {
  table: 'workspaces',
  file: 'workspace',
  key: ['id'],
  scope: 'id = ?',
  json: ['locales'],
  omit: ['revision', 'draft_revision'],
  ids: ['id'],
};

/** Every exported table after the workspace, in restore order. */
export const TABLES: readonly TableSpec[] = [
  { table: 'content_types', file: 'content_types', key: ['id'], scope: 'workspace_id = ?', ids: ['id'] },
  {
    table: 'fields',
    file: 'fields',
    key: ['id'],
    scope: 'content_type_id IN (SELECT id FROM content_types WHERE workspace_id = ?)',
    ids: ['id', 'content_type_id'],
    parents: [ofType('content_type_id')],
  },
  { table: 'media', file: 'media', key: ['id'], scope: 'workspace_id = ?', bigint: ['size'], users: ['uploaded_by'], ids: ['id'] },
  // Before the versions, which name them; `items_revision` counts writes in this installation.
  {
    table: 'releases',
    file: 'releases',
    key: ['id'],
    scope: 'workspace_id = ?',
    json: ['failure'],
    omit: ['items_revision'],
    users: ['created_by', 'updated_by'],
    usersReferenced: true,
    ids: ['id'],
    words: { status: RELEASE_STATUSES },
    since: 4,
  },
  {
    table: 'entries',
    file: 'entries',
    key: ['id'],
    scope: 'workspace_id = ?',
    json: ['data', 'published_data'],
    users: ['created_by', 'updated_by', 'published_by'],
    ids: ['id', 'content_type_id'],
    parents: [ofType('content_type_id')],
  },
  { table: 'entry_translations', file: 'entry_translations', key: ['id'], scope: inEntries, json: ['data'], serial: true, ids: ['entry_id'], parents: ofEntry },
  {
    table: 'published_entry_translations',
    file: 'published_entry_translations',
    key: ['id', 'entry_id', 'locale'],
    scope: inEntries,
    json: ['data'],
    serialOf: 'entry_translations',
    ids: ['entry_id'],
    parents: ofEntry,
  },
  {
    table: 'entry_versions',
    file: 'entry_versions',
    key: ['entry_id', 'version'],
    scope: inEntries,
    json: ['snapshot'],
    users: ['created_by'],
    ids: ['entry_id'],
    optionalIds: ['release_id'],
    parents: [...ofEntry, ofRelease],
  },
  {
    table: 'pages',
    file: 'pages',
    key: ['id'],
    scope: 'workspace_id = ?',
    json: ['seo', 'published_seo'],
    users: ['created_by', 'updated_by', 'published_by'],
    ids: ['id'],
  },
  {
    table: 'page_seo_translations',
    file: 'page_seo_translations',
    key: ['id'],
    scope: inPages,
    json: ['seo'],
    serial: true,
    ids: ['page_id'],
    parents: ofPage,
  },
  {
    table: 'published_page_seo_translations',
    file: 'published_page_seo_translations',
    key: ['id', 'page_id', 'locale'],
    scope: inPages,
    json: ['seo'],
    serialOf: 'page_seo_translations',
    ids: ['page_id'],
    parents: ofPage,
  },
  {
    table: 'blocks',
    file: 'blocks',
    key: ['page_id', 'id'],
    scope: inPages,
    json: ['data'],
    ids: ['id', 'page_id', 'block_type_id'],
    optionalIds: ['parent_id'],
    parents: [...ofPage, ofType('block_type_id')],
  },
  {
    table: 'block_translations',
    file: 'block_translations',
    key: ['id'],
    scope: inPages,
    json: ['data'],
    serial: true,
    ids: ['page_id', 'block_id'],
    parents: ofPage,
  },
  {
    table: 'published_blocks',
    file: 'published_blocks',
    key: ['page_id', 'id'],
    scope: inPages,
    json: ['data'],
    ids: ['id', 'page_id', 'block_type_id'],
    optionalIds: ['parent_id'],
    parents: [...ofPage, ofType('block_type_id')],
  },
  {
    table: 'published_block_translations',
    file: 'published_block_translations',
    key: ['id', 'page_id', 'block_id', 'locale'],
    scope: inPages,
    json: ['data'],
    serialOf: 'block_translations',
    ids: ['page_id', 'block_id'],
    parents: ofPage,
  },
  {
    table: 'page_versions',
    file: 'page_versions',
    key: ['page_id', 'version'],
    scope: inPages,
    json: ['snapshot'],
    users: ['created_by'],
    ids: ['page_id'],
    optionalIds: ['release_id'],
    parents: [...ofPage, ofRelease],
  },
  // After the entries and pages its items name.
  {
    table: 'release_items',
    file: 'release_items',
    key: ['release_id', 'kind', 'item_id'],
    scope: 'release_id IN (SELECT id FROM releases WHERE workspace_id = ?)',
    json: ['snapshot'],
    users: ['created_by', 'updated_by'],
    usersReferenced: true,
    ids: ['release_id', 'item_id'],
    integers: { required: ['base_version'], optional: ['prior_published_version', 'result_version'] },
    words: { kind: RELEASE_ITEM_KINDS, action: RELEASE_ITEM_ACTIONS },
    parents: [
      ofRelease,
      { column: 'item_id', table: 'entries', when: { column: 'kind', is: 'entry' } },
      { column: 'item_id', table: 'pages', when: { column: 'kind', is: 'page' } },
    ],
    since: 4,
  },
  // After the entries and pages they are about. A reply's parent is set once all comments exist.
  {
    table: 'comments',
    file: 'comments',
    key: ['id'],
    scope: 'workspace_id = ?',
    users: ['author_id', 'resolved_by'],
    usersReferenced: true,
    ids: ['id'],
    optionalIds: ['entry_id', 'page_id', 'parent_id'],
    words: { item_kind: ['entry', 'page'] },
    parents: [
      { column: 'entry_id', table: 'entries' },
      { column: 'page_id', table: 'pages' },
    ],
    since: 5,
  },
  {
    table: 'webhooks',
    file: 'webhooks',
    key: ['id'],
    scope: 'workspace_id = ?',
    omit: ['secret_encrypted', 'previous_secret_encrypted', 'previous_secret_expires_at'],
    ids: ['id'],
  },
];

/** The members file (`--with-users`): one line per membership with the user's email and name, no password. */
export const MEMBERS_FILE = 'members';

/**
 * The custom roles file (docs/access.md "Roles and permissions"), written when the workspace has
 * custom roles: one line per role, `{key, name, description, permissions}`. A restore checks each
 * role as the roles API does and gives it a new key; memberships holding it follow.
 */
export const ROLES_FILE = 'roles';

/**
 * The workflows file (docs/workflow.md "Workflows and stages"), written when the workspace has
 * review workflows: one line per workflow with its items' stages and assignees
 * (src/modules/workflows/transfer.ts). Restored after the custom roles its stages name.
 */
export const WORKFLOWS_FILE = 'workflows';

export interface ManifestFile {
  bytes: number;
  sha256: string;
}

/** manifest.json. */
export interface Manifest {
  format: typeof EXPORT_FORMAT;
  version: number;
  quire_version: string;
  workspace: { id: string; slug: string; name: string };
  options: { with_users: boolean };
  /** Rows per table file (without `.ndjson`), and `media_files`. */
  counts: Record<string, number>;
  /** Every other file of the export by its path, `/`-separated. */
  files: Record<string, ManifestFile>;
}

/** The path of a table's file inside the export. */
export function tableFile(spec: Pick<TableSpec, 'file'>): string {
  return `${spec.file}.ndjson`;
}

/** The path of a media record's stored file inside the export. */
export function mediaFile(mediaId: string): string {
  return `${MEDIA_DIR}/${mediaId}`;
}
