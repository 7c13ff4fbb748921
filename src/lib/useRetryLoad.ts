import { useRouter } from '@tanstack/react-router';

/** An errorComponent's retry: clears the route's error and runs its loader again, which loads the data again. */
export function useRetryLoad(reset: () => void): () => void {
  const router = useRouter();
  return () => {
    reset();
    void router.invalidate();
  };
}
