/**
 * The Studio activity log's prune (docs/workflow.md "Who else is here" (D133)): the event stream
 * reads new rows within moments of their commit and never replays old ones (a stream that
 * reconnects starts over with a fresh `hello` and the Studio refetches), so rows older than
 * ACTIVITY_KEEP_MS are of no use. One DELETE a minute, through the index on created_at; several
 * instances may run it at once harmlessly. The timer is unref'd; failures are logged, not thrown.
 */
import type { Context } from '../../context.js';
import { iso } from '../../lib/time.js';
import { deleteActivityBefore } from './repository.js';
import { startPeriodic } from '../../lib/periodic.js';

/** How long activity rows are kept. */
export const ACTIVITY_KEEP_MS = 10 * 60_000;
const EVERY_MS = 60_000;

export interface ActivityPruner {
  /** Stops the timer and waits for a pass in progress. */
  stop(): Promise<void>;
}

/** Deletes the activity rows older than ACTIVITY_KEEP_MS; returns how many. */
export function pruneActivity(ctx: Pick<Context, 'db' | 'clock'>): Promise<number> {
  return deleteActivityBefore(ctx.db, iso(new Date(ctx.clock().getTime() - ACTIVITY_KEEP_MS)));
}

/** Starts the prune: a pass at start, then one a minute. */
export function startActivityPruner(ctx: Context): ActivityPruner {
  return startPeriodic(
    EVERY_MS,
    async () => {
      await pruneActivity(ctx);
    },
    (err) => ctx.log.error({ err }, 'activity log prune failed'),
  );
}
