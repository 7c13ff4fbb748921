// How a list screen's route loads: entering, its data is in the cache before the screen; a new
// search or filter on the screen loads behind what is shown; a failed load can be tried again.
import { useRouter } from '@tanstack/react-router';

/**
 * The loader's wait: entering the screen (or preloading it) the load is awaited (offline, the
 * persisted copy answers at once); staying on it ('stay': a new search or filter), it runs behind
 * the data on screen, which the screen keeps (useDeferredValue) until the new data is there.
 */
export async function loadOnEnter(cause: 'preload' | 'enter' | 'stay', load: Promise<unknown>): Promise<void> {
  if (cause === 'stay') void load.catch(() => undefined);
  else await load;
}

/** An errorComponent's retry: clears the route's error and runs its loader again, which loads the data again. */
export function useRetryLoad(reset: () => void): () => void {
  const router = useRouter();
  return () => {
    reset();
    void router.invalidate();
  };
}
