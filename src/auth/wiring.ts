import { api } from '../api/client.js';
import { validateToken, RATE_LIMITED } from '../api/auth.js';
import { queryClient } from '../api/queryClient.js';
import { router } from '../router.js';
import { ME_QUERY_KEY, signedOut } from './session.js';
import { isProtectedPath } from './protectedRoutes.js';
import { isNetworkError } from '../offline/network.js';

/** Sends a signed-out user from a login-required page to /, carrying where they were in the URL. */
function leaveProtectedPage(): void {
  const { pathname, href } = router.state.location;
  if (!isProtectedPath(router, pathname)) return;
  void router.navigate({ to: '/', search: { returnTo: href }, replace: true });
}

const isMeQuery = (key: readonly unknown[]) => key.length === ME_QUERY_KEY.length && key.every((part, i) => part === ME_QUERY_KEY[i]);

/**
 * Connects the signed-in query, the API client and the router:
 * - a failed refresh, or the server answering that nobody is signed in, sends the user to / from
 *   login-required pages (public pages — the callback, the 404 page — stay where they are);
 * - when the tab comes back, the token is validated (at most once a second) and refreshed if stale.
 */
export function wireAuth(): void {
  api.setUnauthorizedHandler(() => {
    signedOut();
    leaveProtectedPage();
  });
  queryClient.getQueryCache().subscribe((event) => {
    // A re-check that found nobody (set by hand — sign-in, logout — is handled where it happens).
    if (event.type !== 'updated' || event.action.type !== 'success' || event.action.manual) return;
    if (isMeQuery(event.query.queryKey) && event.query.state.data === null) leaveProtectedPage();
  });
  document.addEventListener('visibilitychange', async () => {
    // Offline is not signed out: with no network there is nothing to validate.
    const signedIn = Boolean(queryClient.getQueryData(ME_QUERY_KEY));
    if (document.visibilityState !== 'visible' || !signedIn || !navigator.onLine) return;
    const result = await validateToken();
    if (result.valid || result.error === RATE_LIMITED) return;
    try {
      await api.refresh();
    } catch (error) {
      if (isNetworkError(error)) return; // no network for the refresh is not a refusal
      signedOut();
      leaveProtectedPage();
      return;
    }
    void queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
  });
}
