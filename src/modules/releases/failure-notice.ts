/**
 * Telling a release's creator that its scheduled publication failed (docs/workflow.md
 * "Notifications": kind `release_failed`), in the transaction that records the failure, so a
 * failure that is not recorded (another instance marked it first) tells no one twice.
 */
import type { Db } from '../../db/types.js';
import type { ErrorDetail } from '../../errors.js';
import { notify, type NotifyContext } from '../notifications/record.js';
import type { ReleaseRecord } from './model.js';

/**
 * Notifies `release.created_by` (when known) that the scheduler could not publish it, naming the
 * first reason and how many there were. The actor is the system (null).
 */
export async function notifyReleaseFailed(trx: Db, ctx: NotifyContext, at: string, release: ReleaseRecord, reasons: readonly ErrorDetail[]): Promise<void> {
  if (release.created_by === null) return;
  const first = reasons[0]?.message ?? 'the publication failed';
  const more = reasons.length > 1 ? ` (and ${reasons.length - 1} more problem${reasons.length === 2 ? '' : 's'})` : '';
  await notify(trx, ctx, at, {
    workspaceId: release.workspace_id,
    kind: 'release_failed',
    recipients: [Number(release.created_by)],
    actorUserId: null,
    release: { id: release.id, name: release.title },
    message: `could not publish release "${release.title}" at its scheduled time: ${first}${more}`,
  });
}
