/**
 * A background job of one process: `task` runs once right away (catching up after downtime), then
 * every `everyMs`, never twice at once (a tick while a pass runs is skipped). The timer is
 * unref'd, so it never keeps the process alive; a failure is handed to `onError`, never thrown.
 * Used by the scheduler and the audit and activity prunes.
 */

/** A started job. */
export interface PeriodicJob {
  /** Stops the timer and waits for a pass in progress. */
  stop(): Promise<void>;
}

/** Starts `task` (see the module comment). */
export function startPeriodic(everyMs: number, task: () => Promise<void>, onError: (err: unknown) => void): PeriodicJob {
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = (): void => {
    if (running || stopped) return;
    running = task()
      .catch(onError)
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, everyMs);
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
