/** Shows an API refusal: its message, its field errors and the trace id to quote to an operator. */
import { Alert, Code, List, Text } from '@mantine/core';
import { ApiError } from '../api/client';

export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

export function ErrorAlert({ error, title = 'Something went wrong' }: { error: unknown; title?: string }) {
  if (!error) return null;
  const apiError = error instanceof ApiError ? error : null;
  return (
    <Alert color="red" title={title} role="alert">
      <Text size="sm">{errorMessage(error)}</Text>
      {apiError?.errors?.length ? (
        <List size="sm" mt="xs">
          {apiError.errors.map((e) => (
            <List.Item key={`${e.path}:${e.message}`}>
              <Code>{e.path}</Code> {e.message}
            </List.Item>
          ))}
        </List>
      ) : null}
      {apiError?.traceId ? (
        <Text size="xs" c="dimmed" mt="xs">
          Trace id: <Code>{apiError.traceId}</Code>
        </Text>
      ) : null}
    </Alert>
  );
}
