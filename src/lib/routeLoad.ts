// How a screen's route loads: entering, its data is in the cache before the screen; a new search
// or filter on the screen loads behind what is shown; a failed load can be tried again.
import { useRouter } from '@tanstack/react-router';

/**
 * The loader's wait on a screen whose search, filters or choices drive its query: entering it (or
 * preloading it) the load is awaited, so the first render has the data (offline, the persisted
 * copy); staying on it ('stay': a new search or filter) it is not, and the screen keeps the data on
 * screen until the new one is there (keepPreviousData). A failed load is the screen's to show: its
 * query is in error when it renders, and the screen says so beside its controls. (A suspense query
 * there would suspend inside the router's navigation transition and hold the old controls on screen.)
 */
export async function loadOnEnter(cause: 'preload' | 'enter' | 'stay', load: Promise<unknown>): Promise<void> {
  const shown = load.catch(() => undefined);
  if (cause !== 'stay') await shown;
}

/** An errorComponent's retry: clears the route's error and runs its loader again, which loads the data again. */
export function useRetryLoad(reset: () => void): () => void {
  const router = useRouter();
  return () => {
    reset();
    void router.invalidate();
  };
}
