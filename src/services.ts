/**
 * Background services started with the server: the demo workspace on an empty embedded database
 * (D60) and the scheduled-publishing job (D21). Returns a handle that stops them.
 */
import type { Context } from './context.js';
import { startScheduler } from './modules/publishing/scheduler.js';

export interface Services {
  stop(): Promise<void>;
}

export async function startServices(ctx: Context): Promise<Services> {
  const scheduler = startScheduler(ctx);
  return {
    stop: async () => {
      await scheduler.stop();
    },
  };
}
