import { QueryClient } from '@tanstack/react-query';
import { HttpError, UnauthorizedError } from './client.js';

/** The app's one QueryClient (the offline layer persists it). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30 * 1000,
      // The client already refreshed and retried once on 401; other failures get one more try.
      retry: (failureCount, error) => failureCount < 1 && !(error instanceof UnauthorizedError) && !(error instanceof HttpError && error.status < 500),
      refetchOnWindowFocus: false,
    },
  },
});
