/**
 * The scheduled-publishing job (docs/api.md "States and scheduling" (D21), "Working copies,
 * publishing changes and history" (D71)): every `config.schedulerIntervalMs` the
 * stored status of due scheduled entries and pages catches up with what reads already show
 * (status `published`, `published_at` = `publish_at`, `publish_at` cleared; see effectiveStatus
 * in states.ts), and each records a `publish` version of its working copy, which its published
 * copy already mirrors. Safe with several instances on one database: each item is published exactly once
 * (see scheduler-repository.ts). A run never overlaps the previous one in the same process. Each
 * tick then publishes the scheduled releases whose time has come (src/modules/releases/publication.ts).
 */
import type { Context } from '../../context.js';
import { withTransaction } from '../../db/transaction.js';
import { iso } from '../../lib/time.js';
import { publishDueReleases } from '../releases/publication.js';
import { publishDueItems } from './core.js';
import { ENTRY_TABLES, PAGE_TABLES } from './repository.js';
import { startPeriodic } from '../../lib/periodic.js';

export interface SchedulerRun {
  entries: number;
  pages: number;
}

/** One pass of the job at the context clock's now; returns how many items this pass published. */
export async function runSchedulerOnce(ctx: Context): Promise<SchedulerRun> {
  const now = iso(ctx.clock());
  // One transaction per table: the status flip, its `publish` versions (D72) and its
  // `*.published` events (D82) land together, once.
  const entries = await withTransaction(ctx.db, (db) => publishDueItems(db, ENTRY_TABLES, now));
  const pages = await withTransaction(ctx.db, (db) => publishDueItems(db, PAGE_TABLES, now));
  return { entries: entries.length, pages: pages.length };
}

export interface Scheduler {
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * Starts the job: a first pass right away (catching up after downtime), then one per interval.
 * The timer is unref'd so it never keeps the process alive; failures are logged, not thrown.
 */
export function startScheduler(ctx: Context): Scheduler {
  return startPeriodic(
    ctx.config.schedulerIntervalMs,
    async () => {
      const r = await runSchedulerOnce(ctx);
      if (r.entries || r.pages) ctx.log.info({ entries: r.entries, pages: r.pages }, 'scheduled items published');
      // Scheduled releases (D112) ride on the same timer; each is claimed once across instances.
      const releases = await publishDueReleases(ctx);
      if (releases.published || releases.failed) ctx.log.info(releases, 'scheduled releases done');
    },
    (err) => ctx.log.error({ err }, 'scheduled publishing failed'),
  );
}
