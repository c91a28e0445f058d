/**
 * A non-blocking notice that someone else changed the open entry or page (an `item` frame of the
 * Studio's event stream): "Ada changed this entry" with Reload (the server's copy replaces the
 * form) and Dismiss; "Ada moved this entry to “Review”" (the workflow panel is already read again)
 * with Dismiss. The editor's own saves (frames by the signed-in
 * person) never show it; a 412 on the next save is handled as before (ConflictAlert).
 */
import { Alert, Button, Group, Text } from '@mantine/core';

export interface ItemChange {
  /** who changed it: their name, or null when unknown (a key, the scheduler) */
  by: string | null;
  /** the frame's type, e.g. entry.updated, page.published, entry.workflow_changed */
  type: string;
  /** the stage a workflow move went to */
  stage: string | null;
  /** a workflow change, already shown (the panel was read again): nothing to reload */
  soft: boolean;
}

const verb = (type: string, stage: string | null) =>
  stage
    ? `moved this {what} to “${stage}”`
    : /workflow_changed$|stage_changed$/.test(type)
      ? "changed this {what}'s review"
      : /unpublished$/.test(type)
        ? 'unpublished this {what}'
        : /published$/.test(type)
          ? 'published this {what}'
          : /deleted$/.test(type)
            ? 'deleted this {what}'
            : 'changed this {what}';

export function ItemChangedNotice({ change, what, onReload, onDismiss }: { change: ItemChange; what: string; onReload?: () => void; onDismiss: () => void }) {
  const text = `${change.by ?? 'Someone'} ${verb(change.type, change.stage).replaceAll('{what}', what)}`;
  return (
    <Alert color="blue" variant="light" role="status" data-testid="item-changed-notice" p="xs">
      <Group justify="space-between" gap="xs">
        <Text size="sm">{text}.</Text>
        <Group gap="xs">
          {onReload ? (
            <Button size="compact-sm" onClick={onReload}>
              Reload
            </Button>
          ) : null}
          <Button size="compact-sm" variant="default" onClick={onDismiss}>
            Dismiss
          </Button>
        </Group>
      </Group>
    </Alert>
  );
}
