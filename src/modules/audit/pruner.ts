/**
 * The audit log's retention job (docs/configuration.md AUDIT_RETENTION_DAYS (D122)): a first pass
 * at start, then one an hour, deleting rows older than the retention in batches
 * (operations.ts pruneAuditLog). Several instances may run it at once: each batch deletes the
 * old rows still there, so two passes overlap harmlessly. The timer is unref'd; failures are
 * logged, not thrown.
 */
import type { Context } from '../../context.js';
import { pruneAuditLog } from './operations.js';
import { startPeriodic } from '../../lib/periodic.js';

const EVERY_MS = 3_600_000;

export interface AuditPruner {
  /** Stops the timer and waits for a pass in progress. */
  stop(): Promise<void>;
}

export function startAuditPruner(ctx: Context): AuditPruner {
  return startPeriodic(
    EVERY_MS,
    async () => {
      const n = await pruneAuditLog(ctx);
      if (n) ctx.log.info({ rows: n, days: ctx.config.auditRetentionDays }, 'audit log pruned');
    },
    (err) => ctx.log.error({ err }, 'audit log prune failed'),
  );
}
