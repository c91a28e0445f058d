/**
 * What a workflow change tells others (docs/workflow.md "Workflows and stages", "Approvals";
 * the notification rules of docs/workflow.md "Notifications"): a Studio activity row of type
 * `item` for every change (open editors and lists of the item refresh), and notifications:
 *
 * - assigned: the newly assigned;
 * - approval_requested: when an item enters a stage that requires approvals, its assignees, or
 *   when it has none, the workspace's owners and admins;
 * - changes_requested: the working copy's last editor and the assignees;
 * - stage_changed: the assignees and the last editor.
 *
 * notify never tells the person who acted.
 */
import type { Db } from '../../db/types.js';
import { recordActivity } from '../activity/record.js';
import type { Actor } from '../auth/permissions.js';
import { notify, type NotificationInput, type NotifyContext } from '../notifications/record.js';
import type { ItemKind } from '../publishing/states.js';
import { managerIds } from './repository.js';
import type { Stage } from './rules.js';

/** A workflow change of one item. */
export type ItemChange =
  | {
      kind: 'stage_changed';
      from: Stage;
      to: Stage;
      assignees: number[];
      lastEditor: number | null;
      /** The comment the move came with, if any. */
      commentId: string | null;
    }
  | { kind: 'approved' }
  | { kind: 'changes_requested'; assignees: number[]; lastEditor: number | null; comment: string; commentId: string | null }
  | { kind: 'assigned'; added: number[] };

/** The item as the side effects name it. */
export interface ChangedItem {
  kind: ItemKind;
  id: string;
  slug: string;
  workspaceId: string;
  contentTypeSlug: string | null;
  title: string | null;
}

/** How a notification names an item: its title, else its slug, in quotes. */
function named(item: ChangedItem): string {
  return `"${item.title ?? item.slug}"`;
}

/** Records the activity and notifications of `change` inside the change's transaction. */
export async function tellAboutItem(db: Db, ctx: NotifyContext, at: Date, actor: Actor, item: ChangedItem, change: ItemChange): Promise<void> {
  await recordActivity(db, at, {
    workspaceId: item.workspaceId,
    type: 'item',
    item: { kind: item.kind, id: item.id, contentType: item.contentTypeSlug },
    data: {
      item: { kind: item.kind, id: item.id, content_type: item.contentTypeSlug, slug: item.slug },
      type: `${item.kind}.workflow_changed`,
      change: change.kind,
      by: actor.userId,
      ...(change.kind === 'stage_changed' ? { stage: { id: change.to.id, name: change.to.name } } : {}),
    },
  });
  const base = {
    workspaceId: item.workspaceId,
    actorUserId: actor.userId,
    item: { kind: item.kind, id: item.id, contentType: item.contentTypeSlug, slug: item.slug, title: item.title },
  } satisfies Partial<NotificationInput>;
  const people = (...lists: (readonly (number | null)[])[]) => [...new Set(lists.flat().filter((u): u is number => u !== null))];
  switch (change.kind) {
    case 'assigned':
      await notify(db, ctx, at, { ...base, kind: 'assigned', recipients: change.added, message: `assigned you to ${named(item)}` });
      return;
    case 'changes_requested':
      await notify(db, ctx, at, {
        ...base,
        kind: 'changes_requested',
        recipients: people([change.lastEditor], change.assignees),
        commentId: change.commentId,
        message: `requested changes to ${named(item)}: ${clip(change.comment)}`,
      });
      return;
    case 'stage_changed': {
      const stage = { id: change.to.id, name: change.to.name };
      await notify(db, ctx, at, {
        ...base,
        kind: 'stage_changed',
        stage,
        commentId: change.commentId,
        recipients: people([change.lastEditor], change.assignees),
        message: `moved ${named(item)} from ${change.from.name} to ${change.to.name}`,
      });
      if (change.to.required_approvals > 0) {
        const recipients = change.assignees.length ? change.assignees : await managerIds(db, item.workspaceId);
        await notify(db, ctx, at, {
          ...base,
          kind: 'approval_requested',
          stage,
          recipients,
          message: `asks for your approval of ${named(item)} in ${change.to.name}`,
        });
      }
      return;
    }
    case 'approved':
      return;
  }
}

/** A comment as a notification's sentence quotes it: its first 140 characters. */
function clip(text: string): string {
  const t = text.trim().replace(/\s+/g, ' ');
  return t.length > 140 ? `${t.slice(0, 139)}…` : t;
}
