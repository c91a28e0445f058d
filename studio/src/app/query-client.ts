/**
 * The Studio's one query cache. A 401 on any request means the session ended (signed out
 * elsewhere, password changed, removed from the workspace, idle): the session query is
 * refetched, and the session gate then sends the person to the sign-in screen.
 */
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client';

export const SESSION_KEY = ['session'] as const;

export function createQueryClient(): QueryClient {
  const onError = (error: unknown) => {
    if (error instanceof ApiError && error.status === 401) void client.invalidateQueries({ queryKey: SESSION_KEY });
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => query.queryKey[0] !== SESSION_KEY[0] && onError(error) }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // Refusals are answers, not flakes: only network failures and 5xx are retried, once.
        retry: (count, error) => count < 1 && (!(error instanceof ApiError) || error.status === 0 || error.status >= 500),
      },
    },
  });
  return client;
}
