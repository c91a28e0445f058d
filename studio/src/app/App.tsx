/**
 * The Studio's providers around its router: Mantine (theme, notifications) and the TanStack
 * Query cache. The router and cache are made once per page load.
 */
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { useState } from 'react';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router/dom';
import { createQueryClient } from './query-client';
import { createStudioRouter } from './router';
import { cssVariablesResolver, theme } from './theme';

export function App() {
  const [client] = useState(createQueryClient);
  const [router] = useState(createStudioRouter);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <Notifications position="top-right" />
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
