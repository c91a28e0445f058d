/**
 * The title row of a screen: an h1, an optional description and actions on the right (wrapping on
 * phones). `titleAside` sits beside the h1 without becoming part of its name (a comment button).
 */
import type { ReactNode } from 'react';
import { Group, Stack, Text, Title } from '@mantine/core';

export function PageHeader({
  title,
  titleAside,
  description,
  actions,
}: {
  title: ReactNode;
  titleAside?: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  const heading = (
    <Title order={1} size="h2">
      {title}
    </Title>
  );
  return (
    <Group justify="space-between" align="flex-start" mb="lg" gap="sm">
      <Stack gap={4} style={{ minWidth: 0 }}>
        {titleAside ? (
          <Group gap={4} wrap="nowrap" align="center">
            {heading}
            {titleAside}
          </Group>
        ) : (
          heading
        )}
        {description ? (
          <Text c="dimmed" size="sm">
            {description}
          </Text>
        ) : null}
      </Stack>
      {actions ? <Group gap="xs">{actions}</Group> : null}
    </Group>
  );
}
