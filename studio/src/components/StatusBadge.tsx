/**
 * The state of an entry or page (D20: draft, scheduled, published, archived) as a coloured badge,
 * with an optional "changed" badge for a published item whose working copy has unpublished edits
 * (D71). Text, not colour alone, carries the meaning.
 */
import { Badge, Group } from '@mantine/core';

export type ItemStatus = 'draft' | 'scheduled' | 'published' | 'archived';

const COLORS: Record<ItemStatus, string> = { draft: 'gray', scheduled: 'blue', published: 'green', archived: 'dark' };

export function StatusBadge({ status, pendingChanges = false }: { status: string; pendingChanges?: boolean }) {
  const color = COLORS[status as ItemStatus] ?? 'gray';
  return (
    <Group gap={4} wrap="nowrap">
      <Badge color={color} variant="light">
        {status}
      </Badge>
      {pendingChanges ? (
        <Badge color="orange" variant="outline" title="The working copy has changes that are not published yet">
          changed
        </Badge>
      ) : null}
    </Group>
  );
}
