/**
 * A release's status as a badge (open, scheduled, published, failed, plus "reverted" once a
 * published release was reverted) and the one line that says when it goes or went live.
 */
import { Badge, Group } from '@mantine/core';
import type { Release } from '../../api/types';
import { formatDateTime } from '../../components/format';

const COLORS: Record<Release['status'], string> = { open: 'gray', scheduled: 'blue', published: 'green', failed: 'red' };

export function ReleaseStatusBadge({ release }: { release: Pick<Release, 'status' | 'reverted_at'> }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Badge color={COLORS[release.status]} variant="light">
        {release.status}
      </Badge>
      {release.reverted_at ? (
        <Badge color="orange" variant="outline">
          reverted
        </Badge>
      ) : null}
    </Group>
  );
}

/** "Publishes …", "Published …" or "Reverted …"; empty for an open release. */
export function releaseWhen(r: Pick<Release, 'status' | 'publish_at' | 'published_at' | 'reverted_at'>): string {
  if (r.reverted_at) return `Reverted ${formatDateTime(r.reverted_at)}`;
  if (r.status === 'published' && r.published_at) return `Published ${formatDateTime(r.published_at)}`;
  if (r.status === 'scheduled' && r.publish_at) return `Publishes ${formatDateTime(r.publish_at)}`;
  return '';
}
