/**
 * Indexes of field flags built without blocking reads (issue 13 "schema changes at scale";
 * docs/scaling.md "Index builds").
 *
 * Marking a field filterable or sortable needs its two expression indexes (working copy and
 * published version), and a unique field its partial unique index; each spans the whole `entries`
 * table. Below BACKGROUND_INDEX_ROWS entry rows, or where no background build is possible (an
 * in-memory SQLite database, the CLI), they are built in the request's transaction as before and
 * the flag is on in its answer. On a bigger table the request records a build instead
 * (`field_index_builds`) and answers with the flag still off and `index_build` saying what is
 * being built; the builder then:
 *
 * - on PostgreSQL runs `CREATE INDEX CONCURRENTLY` on a connection of its own, outside any
 *   transaction: reads and writes of entries go on meanwhile. A failed build leaves an invalid
 *   index, which it drops (`DROP INDEX CONCURRENTLY`) before reporting the failure. Instances
 *   build one at a time (an advisory lock); an instance that stops mid-build leaves the row
 *   `building`, and the next pass of any instance (at start, then every POLL_MS) drops the invalid
 *   index and builds again;
 * - on SQLite runs `CREATE INDEX` on a worker thread with its own connection (Db.runLongWrite):
 *   reads go on (WAL), writes of this process wait for it at the write gate without blocking the
 *   thread. SQLite has no concurrent build: writes wait for the build's length;
 * - after each index, records the progress (`indexes_built` of `indexes_total`); once all are
 *   there, turns the waiting flags on in one transaction (the field's `updated_at` moves, so
 *   delivery's model caches reload on their next request), deletes the row and records a
 *   `content_type.updated` event;
 * - on failure (a unique index over duplicate values, a value that does not cast, a full disk)
 *   marks the row `failed` with the database's message and leaves the flags as they were.
 *
 * A PATCH turning a waiting flag off cancels it; an index built for nothing is then dropped.
 */
import type { Context } from '../../context.js';
import { createDataIndexSql, createUniqueIndexSql, dataFieldKind, dataIndexName, dropIndexSql, uniqueIndexName, type DataColumn } from '../../db/dialect.js';
import { canRunLongDdl, openDdlSession, type DdlSession } from '../../db/ddl-session.js';
import { withTransaction } from '../../db/transaction.js';
import type { Db } from '../../db/types.js';
import { iso } from '../../lib/time.js';
import { recordContentTypeEvent } from '../events/record.js';
import {
  deleteBuild,
  entryRowCount,
  failBuild,
  fieldTypesNeedingDataIndex,
  findBuild,
  indexState,
  listBuildingFields,
  lockBuild,
  saveBuild,
  setBuildProgress,
  type BuildRow,
} from './index-build-repository.js';
import type { Field, FieldIndexBuild } from './model.js';
import { findContentTypeById, findContentTypeOfField, updateFieldRow } from './repository.js';

/** Entry rows from which a field's indexes are built in the background rather than in the request. */
export const BACKGROUND_INDEX_ROWS = 20_000;

/** How often every instance looks for builds left `building` by an instance that stopped. */
const POLL_MS = 60_000;

/** PostgreSQL advisory lock (with the schema's hash) held by the one instance building. */
const BUILD_LOCK = 7216402;

/** The flags of a field that need an index. */
export interface IndexedFlags {
  filterable: boolean;
  sortable: boolean;
  is_unique: boolean;
}

/** One index a build needs. */
interface IndexSpec {
  name: string;
  kind: 'data' | 'unique';
  /** DDL (CONCURRENTLY on PostgreSQL). */
  create: string;
}

/** The indexes `flags` need for `field` of content type `contentTypeId`. */
function indexSpecs(db: Db, contentTypeId: string, field: Pick<Field, 'id' | 'name' | 'field_type'>, flags: IndexedFlags): IndexSpec[] {
  const specs: IndexSpec[] = [];
  if (flags.filterable || flags.sortable) {
    for (const column of ['data', 'published_data'] as DataColumn[]) {
      specs.push({
        name: dataIndexName(field.name, field.field_type, column),
        kind: 'data',
        create: createDataIndexSql(db.dialect, field.name, field.field_type, column, true),
      });
    }
  }
  if (flags.is_unique) {
    specs.push({
      name: uniqueIndexName(field.id),
      kind: 'unique',
      create: createUniqueIndexSql(db.dialect, contentTypeId, field.id, field.name, field.field_type, true),
    });
  }
  return specs;
}

/** True when this context builds in the background and the table is big enough for it to matter. */
async function buildsInBackground(ctx: Context, db: Db): Promise<boolean> {
  return ctx.indexBuilds !== null && ctx.indexBuilds.possible && (await entryRowCount(db)) >= BACKGROUND_INDEX_ROWS;
}

/** How a request's flags split: those on at once (their indexes built in the request, or there already) and those waiting for a build. */
export interface FlagPlan {
  now: IndexedFlags;
  later: IndexedFlags;
}

const NONE: IndexedFlags = { filterable: false, sortable: false, is_unique: false };
/** True when any of the flags is set. */
export const anyFlag = (f: IndexedFlags): boolean => f.filterable || f.sortable || f.is_unique;

/**
 * Splits the flags `wanted` for `field` (in transaction `db`): `hasDataIndex` says its data
 * indexes are already there (the field already has a data flag on). A flag needing an index that
 * is missing waits when the build goes to the background; everything else is on at once.
 */
export async function planFlags(
  ctx: Context,
  db: Db,
  contentTypeId: string,
  field: Pick<Field, 'id' | 'name' | 'field_type'>,
  wanted: IndexedFlags,
  hasDataIndex: boolean,
): Promise<FlagPlan> {
  const wantsData = wanted.filterable || wanted.sortable;
  if (!(wantsData && !hasDataIndex) && !wanted.is_unique) return { now: wanted, later: NONE };
  if (!(await buildsInBackground(ctx, db))) return { now: wanted, later: NONE };
  let dataReady = hasDataIndex;
  if (wantsData && !dataReady) {
    const specs = indexSpecs(db, contentTypeId, field, { ...NONE, filterable: true });
    dataReady = (await Promise.all(specs.map((s) => indexState(db, s.name)))).every((s) => s === 'valid');
  }
  const dataLater = wantsData && !dataReady;
  return {
    now: { filterable: wanted.filterable && !dataLater, sortable: wanted.sortable && !dataLater, is_unique: false },
    later: { filterable: wanted.filterable && dataLater, sortable: wanted.sortable && dataLater, is_unique: wanted.is_unique },
  };
}

/**
 * Records (or replaces, or with nothing waiting deletes) the build of `field` for the flags
 * `later`, in transaction `db`; returns the field's `index_build` as it now reads. The build starts
 * once the transaction has committed (IndexBuilder.kick).
 */
export async function recordBuild(
  db: Db,
  contentTypeId: string,
  field: Pick<Field, 'id' | 'name' | 'field_type'>,
  later: IndexedFlags,
  now: string,
): Promise<FieldIndexBuild | null> {
  if (!anyFlag(later)) {
    await deleteBuild(db, field.id);
    return null;
  }
  const existing = await findBuild(db, field.id);
  const keep = existing?.state === 'building';
  const row: BuildRow = {
    field_id: field.id,
    filterable: later.filterable ? 1 : 0,
    sortable: later.sortable ? 1 : 0,
    is_unique: later.is_unique ? 1 : 0,
    state: 'building',
    indexes_built: 0,
    indexes_total: indexSpecs(db, contentTypeId, field, later).length,
    error: null,
    started_at: keep ? existing.started_at : now,
    updated_at: now,
  };
  await saveBuild(db, row);
  return toIndexBuild(row);
}

/** The API shape of a build row. */
export function toIndexBuild(row: BuildRow): FieldIndexBuild {
  return {
    state: row.state === 'failed' ? 'failed' : 'building',
    filterable: Boolean(row.filterable),
    sortable: Boolean(row.sortable),
    is_unique: Boolean(row.is_unique),
    indexes_built: row.indexes_built,
    indexes_total: row.indexes_total,
    error: row.error,
    started_at: row.started_at,
    updated_at: row.updated_at,
  };
}

/** The flags a waiting build (state `building`) turns on; none for a failed one. */
export function waitingFlags(build: FieldIndexBuild | null): IndexedFlags {
  if (!build || build.state !== 'building') return NONE;
  return { filterable: build.filterable, sortable: build.sortable, is_unique: build.is_unique };
}

/** Where the builder runs its statements: a dedicated PostgreSQL session, or SQLite's worker thread. */
/** Where a build runs its statements (src/db/ddl-session.ts). */
type BuildSession = DdlSession;

/**
 * The background builder of one context (Context.indexBuilds): kick() after a request recorded a
 * build, start() with the server (a pass now, then every POLL_MS), stop() with the context.
 */
export class IndexBuilder {
  #running: Promise<void> | null = null;
  #again = false;
  #stopped = false;
  #timer: NodeJS.Timeout | null = null;
  #session: BuildSession | null = null;

  constructor(private readonly ctx: Pick<Context, 'db' | 'log' | 'clock'>) {}

  /** False where builds cannot leave the request (in-memory SQLite): they then run inline. */
  get possible(): boolean {
    return canRunLongDdl(this.ctx.db);
  }

  /** Runs the waiting builds now (or right after the pass under way). */
  kick(): void {
    if (this.#stopped || !this.possible) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = (async () => {
      do {
        this.#again = false;
        await this.#pass();
      } while (this.#again && !this.#stopped);
    })()
      .catch((err: unknown) => this.ctx.log.error({ err }, 'index build pass failed'))
      .finally(() => {
        this.#running = null;
      });
  }

  /** Resolves once no pass is under way (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  /** A pass now, then one every POLL_MS (builds another instance left behind). */
  start(): void {
    if (this.#timer || !this.possible) return;
    this.#timer = setInterval(() => this.kick(), POLL_MS);
    this.#timer.unref();
    this.kick();
  }

  /**
   * Stops passes. A SQLite build under way is waited for (seconds); a PostgreSQL one is left to
   * the server, its row `building`, and the next pass of any instance finishes it.
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#session?.cancel();
    await this.idle();
  }

  async #pass(): Promise<void> {
    const db = this.ctx.db;
    const fieldIds = await listBuildingFields(db);
    if (fieldIds.length === 0) return;
    const session = await this.#open();
    if (!session) return;
    this.#session = session;
    try {
      for (const fieldId of fieldIds) {
        if (this.#stopped) return;
        await this.#build(session, fieldId);
      }
    } finally {
      this.#session = null;
      await session.end();
    }
  }

  /** A session to build in, or null when another instance holds the build lock (it builds these too). */
  async #open(): Promise<BuildSession | null> {
    return openDdlSession(this.ctx.db, BUILD_LOCK);
  }

  async #build(session: BuildSession, fieldId: string): Promise<void> {
    const db = this.ctx.db;
    const now = () => iso(this.ctx.clock());
    const row = await findBuild(db, fieldId);
    if (!row || row.state !== 'building') return;
    const ct = await findContentTypeOfField(db, fieldId);
    const field = ct?.fields.find((f) => f.id === fieldId);
    if (!ct || !field) return;
    const specs = indexSpecs(db, ct.id, field, { filterable: row.filterable === 1, sortable: row.sortable === 1, is_unique: row.is_unique === 1 });
    let built = 0;
    for (const spec of specs) {
      const state = await indexState(db, spec.name);
      if (state !== 'valid') {
        try {
          if (state === 'invalid') await session.run(dropIndexSql(db.dialect, spec.name, true));
          await session.run(spec.create);
          if ((await indexState(db, spec.name)) !== 'valid') throw new Error(`index ${spec.name} was not built`);
        } catch (err) {
          if (this.#stopped) return;
          const message = failureMessage(err);
          // An interrupted or failed CONCURRENTLY build leaves an invalid index behind.
          if ((await indexState(db, spec.name).catch(() => null)) === 'invalid') await session.run(dropIndexSql(db.dialect, spec.name, true)).catch(() => {});
          await failBuild(db, fieldId, message, now());
          this.ctx.log.warn({ field: fieldId, index: spec.name, err: message }, 'index build failed; the field keeps its flags');
          await this.#dropUnneeded(session, ct.id, field, specs.slice(0, built));
          return;
        }
      }
      built += 1;
      await setBuildProgress(db, fieldId, built, specs.length, now());
    }
    const flipped = await this.#flip(fieldId, specs);
    if (!flipped) await this.#dropUnneeded(session, ct.id, field, specs);
  }

  /**
   * Turns the waiting flags on once their indexes are there, in one transaction with the row's
   * deletion. False when the build was cancelled or changed meanwhile (nothing turned on).
   */
  async #flip(fieldId: string, specs: IndexSpec[]): Promise<boolean> {
    const at = iso(this.ctx.clock());
    const result = await withTransaction(this.ctx.db, async (tx) => {
      const row = await lockBuild(tx, fieldId);
      if (!row || row.state !== 'building') return false;
      const ct = await findContentTypeOfField(tx, fieldId);
      const field = ct?.fields.find((f) => f.id === fieldId);
      if (!ct || !field) return false;
      const wanted = { filterable: row.filterable === 1, sortable: row.sortable === 1, is_unique: row.is_unique === 1 };
      const needed = indexSpecs(tx, ct.id, field, wanted);
      // A PATCH may have asked for more while this build ran: the next pass builds the rest.
      if (needed.some((n) => !specs.some((s) => s.name === n.name))) return 'again' as const;
      for (const n of needed) if ((await indexState(tx, n.name)) !== 'valid') return 'again' as const;
      await updateFieldRow(
        tx,
        fieldId,
        {
          ...(wanted.filterable ? { filterable: true } : {}),
          ...(wanted.sortable ? { sortable: true } : {}),
          ...(wanted.is_unique ? { is_unique: true } : {}),
        },
        at,
      );
      await deleteBuild(tx, fieldId);
      await recordContentTypeEvent(tx, at, ct, 'updated');
      return true;
    });
    if (result === 'again') {
      this.#again = true;
      return true;
    }
    return result;
  }

  /** Drops indexes of `specs` that nothing needs any more (the build was cancelled or failed). */
  async #dropUnneeded(session: BuildSession, contentTypeId: string, field: Pick<Field, 'id' | 'name' | 'field_type'>, specs: IndexSpec[]): Promise<void> {
    const db = this.ctx.db;
    for (const spec of specs) {
      let needed: boolean;
      if (spec.kind === 'data') {
        const kind = dataFieldKind(field.field_type);
        const needs = await fieldTypesNeedingDataIndex(db, field.name);
        needed = [...needs.on, ...needs.waiting].some((t) => dataFieldKind(t) === kind);
      } else {
        const ct = await findContentTypeById(db, contentTypeId);
        const current = ct?.fields.find((f) => f.id === field.id);
        needed = Boolean(current && (current.is_unique || waitingFlags(current.index_build).is_unique));
      }
      if (!needed) await session.run(dropIndexSql(db.dialect, spec.name, true));
    }
  }
}

/** The database's reason for a failed build, with PostgreSQL's detail (e.g. the duplicated key). */
function failureMessage(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const detail = (err as { detail?: unknown }).detail;
  return typeof detail === 'string' && detail ? `${err.message}: ${detail}` : err.message;
}
