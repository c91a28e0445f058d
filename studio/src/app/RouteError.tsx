/** What a route shows when rendering it threw (a bug or a failed chunk load): the message and a reload button. */
import { useRouteError } from 'react-router';
import { Button, Container } from '@mantine/core';
import { ErrorAlert } from '../components/ErrorAlert';

export function RouteError() {
  const error = useRouteError();
  return (
    <Container size="sm" py="xl" component="main">
      <ErrorAlert error={error} title="This screen failed to load" />
      <Button mt="md" onClick={() => window.location.reload()}>
        Reload
      </Button>
    </Container>
  );
}
