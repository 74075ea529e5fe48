import { QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './client';
import { sessionKeys } from './session';

const GATE_KEYS: readonly unknown[] = [
  sessionKeys.authCheck[0],
  sessionKeys.adminCheck[0],
  sessionKeys.serverTime[0],
];

/**
 * The app's query client. A 401 from any load means the session ended under the page: the session
 * gates check again at once (and say "Session expired") instead of waiting for their next poll; a
 * 503 means the opening hours ended, so the time gate checks again.
 */
export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (!(error instanceof ApiError) || GATE_KEYS.includes(query.queryKey[0])) return;
        if (error.status === 401) {
          void client.invalidateQueries({ queryKey: sessionKeys.authCheck });
          void client.invalidateQueries({ queryKey: sessionKeys.adminCheck });
        } else if (error.status === 503) {
          void client.invalidateQueries({ queryKey: sessionKeys.serverTime });
        }
      },
    }),
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        // One retry for network trouble and server errors; a 4xx answer will not change.
        retry: (failures, error) =>
          failures < 1 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      },
    },
  });
  return client;
}
