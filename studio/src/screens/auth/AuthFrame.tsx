/** The centred card the sign-in and setup screens share. */
import type { ReactNode } from 'react';
import { Center, Paper, Stack, Text, Title } from '@mantine/core';

export function AuthFrame({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <Center component="main" mih="100vh" p="md" bg="gray.0">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={420}>
        <Stack>
          <Text fw={700} c="indigo.8">
            Quire Studio
          </Text>
          <Title order={1} size="h2">
            {title}
          </Title>
          {subtitle ? <Text size="sm">{subtitle}</Text> : null}
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
