/**
 * Background services started with the server: the demo workspace on an empty embedded database
 * (D60), the scheduled-publishing job (D21), the webhook delivery worker (D82) and the passes of
 * the index builder (Context.indexBuilds, stopped with the context), the audit log's
 * retention prune (D122) and the Studio activity log's prune (D133). Returns a
 * handle that stops them.
 */
import type { Context } from './context.js';
import { startActivityPruner } from './modules/activity/pruner.js';
import { startAuditPruner } from './modules/audit/pruner.js';
import { demoBanner, seedDemo } from './modules/demo/seed.js';
import { startScheduler } from './modules/publishing/scheduler.js';
import { startWebhookWorker } from './modules/webhooks/worker.js';

export interface Services {
  stop(): Promise<void>;
}

export interface ServicesOptions {
  /** Where the demo workspace's keys are printed, once (default: stdout). */
  print?: (text: string) => void;
}

export async function startServices(ctx: Context, options: ServicesOptions = {}): Promise<Services> {
  const demo = await seedDemo(ctx);
  if (demo) (options.print ?? ((text) => void process.stdout.write(text)))(demoBanner(demo, ctx.config.publicUrl));
  const scheduler = startScheduler(ctx);
  const webhooks = startWebhookWorker(ctx);
  const auditPruner = startAuditPruner(ctx);
  const activityPruner = startActivityPruner(ctx);
  // Index builds a stopped instance (or this one, before a restart) left under way.
  ctx.indexBuilds?.start();
  return {
    stop: async () => {
      await scheduler.stop();
      await webhooks.stop();
      await auditPruner.stop();
      await activityPruner.stop();
    },
  };
}
