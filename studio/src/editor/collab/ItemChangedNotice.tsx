/**
 * A non-blocking notice that someone else changed the open entry or page (an `item` frame of the
 * Studio's event stream naming another person): "Ada changed this entry" with Reload (the
 * server's copy replaces the form) and Dismiss. The editor's own saves (frames by the signed-in
 * person) never show it; a 412 on the next save is handled as before (ConflictAlert).
 */
import { Alert, Button, Group, Text } from '@mantine/core';

export interface ItemChange {
  /** who changed it: their name, or null when unknown (a key, the scheduler) */
  by: string | null;
  /** the event's type, e.g. entry.updated, page.stage_changed */
  type: string;
}

const verb = (type: string) =>
  /stage_changed$/.test(type)
    ? 'moved this {what} to another stage'
    : /unpublished$/.test(type)
      ? 'unpublished this {what}'
      : /published$/.test(type)
        ? 'published this {what}'
        : /deleted$/.test(type)
          ? 'deleted this {what}'
          : 'changed this {what}';

export function ItemChangedNotice({ change, what, onReload, onDismiss }: { change: ItemChange; what: string; onReload: () => void; onDismiss: () => void }) {
  const text = `${change.by ?? 'Someone'} ${verb(change.type).replace('{what}', what)}`;
  return (
    <Alert color="blue" variant="light" role="status" data-testid="item-changed-notice" p="xs">
      <Group justify="space-between" gap="xs">
        <Text size="sm">{text}.</Text>
        <Group gap="xs">
          <Button size="compact-sm" onClick={onReload}>
            Reload
          </Button>
          <Button size="compact-sm" variant="default" onClick={onDismiss}>
            Dismiss
          </Button>
        </Group>
      </Group>
    </Alert>
  );
}
