/**
 * The scheduled-publishing job (DECISIONS.md D21): every `config.schedulerIntervalMs` the stored
 * status of due scheduled entries and pages catches up with what reads already show (status
 * `published`, `published_at` = `publish_at`, `publish_at` cleared; see effectiveStatus in
 * states.ts). Safe with several instances on one database: each item is published exactly once
 * (see scheduler-repository.ts). A run never overlaps the previous one in the same process.
 */
import type { Context } from '../../context.js';
import { iso } from '../../lib/time.js';
import { publishDueEntries, publishDuePages } from './scheduler-repository.js';

export interface SchedulerRun {
  entries: number;
  pages: number;
}

/** One pass of the job at the context clock's now; returns how many items this pass published. */
export async function runSchedulerOnce(ctx: Context): Promise<SchedulerRun> {
  const now = iso(ctx.clock());
  const entries = await publishDueEntries(ctx.db, now);
  const pages = await publishDuePages(ctx.db, now);
  return { entries, pages };
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
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = (): void => {
    if (running || stopped) return;
    running = runSchedulerOnce(ctx)
      .then((r) => {
        if (r.entries || r.pages) ctx.log.info({ entries: r.entries, pages: r.pages }, 'scheduled items published');
      })
      .catch((err: unknown) => {
        ctx.log.error({ err }, 'scheduled publishing failed');
      })
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, ctx.config.schedulerIntervalMs);
  timer.unref();
  setImmediate(tick).unref();
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      if (running) await running;
    },
  };
}
