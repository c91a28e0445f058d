/**
 * Recording Studio activity (docs/workflow.md "Who else is here" (D133)): what an open Studio
 * should hear about that is not a change event of its own: workflow moves, approvals and
 * assignees (`item`), comments (`comment`), notifications (`notification`, one person's) and
 * presence (`presence`). A row is inserted inside the writing transaction, so a rolled-back write
 * is never heard of, and announced at commit through the same wake-up as the change events (this
 * process's watchers; PostgreSQL NOTIFY; Redis from the hubs), which the Studio's event stream
 * reads after the last id it saw.
 *
 * Commit order: as for change events (src/modules/events/record.ts), the workspace row is locked
 * before an id is taken, so per workspace ids are assigned in commit order and a reader that saw
 * id N never later finds a row below N.
 */
import { lockRowsForCommitOrder } from '../../db/lock.js';
import type { Db } from '../../db/types.js';
import { iso } from '../../lib/time.js';
import { announce } from '../events/record.js';

/** The kinds of activity (module comment). */
export type ActivityType = 'item' | 'comment' | 'notification' | 'presence';

/** One activity row to record. */
export interface ActivityInput {
  workspaceId: string;
  type: ActivityType;
  /** The entry or page it is about, if any. */
  item?: { kind: 'entry' | 'page'; id: string; contentType?: string | null } | null;
  /** Only this person's streams hear it (a notification); absent: everyone who may read the item. */
  userId?: number | null;
  /** What the stream's frame carries (a JSON object, at most a few KB). */
  data: Record<string, unknown>;
}

/**
 * Records `input` at `at` inside the write's transaction `trx` (call inside withTransaction) and
 * announces it at commit. Returns the row's id.
 */
export async function recordActivity(trx: Db, at: Date | string, input: ActivityInput): Promise<number> {
  await lockRowsForCommitOrder(trx, 'workspaces', { id: input.workspaceId });
  const row = await trx.kysely
    .insertInto('activity')
    .values({
      workspace_id: input.workspaceId,
      type: input.type,
      item_kind: input.item?.kind ?? null,
      item_id: input.item?.id ?? null,
      content_type: input.item?.contentType ?? null,
      user_id: input.userId ?? null,
      data: JSON.stringify(input.data),
      created_at: typeof at === 'string' ? at : iso(at),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await announce(trx, [input.workspaceId]);
  return Number(row.id);
}
