import { api } from '../api/client.js';
import { validateToken, RATE_LIMITED } from '../api/auth.js';
import { queryClient } from '../api/queryClient.js';
import { router } from '../router.js';
import { auth } from './index.js';
import { rememberOrigin } from './returnTo.js';
import { isProtectedPath } from './protectedRoutes.js';

/** Sends a signed-out user from a login-required page to /, remembering where they were. */
function leaveProtectedPage(): void {
  const { pathname, href } = router.state.location;
  if (!isProtectedPath(router, pathname)) return;
  rememberOrigin(href);
  void router.navigate({ to: '/', replace: true });
}

/**
 * Connects the auth store, the API client and the router:
 * - a failed refresh and a failed auth check send the user to / from login-required pages
 *   (public pages — the callback, the 404 page — stay where they are);
 * - logging out empties the query cache;
 * - when the tab comes back, the token is validated (at most once a second) and refreshed if stale.
 */
export function wireAuth(): void {
  api.setUnauthorizedHandler(() => {
    auth.clear();
    leaveProtectedPage();
  });
  auth.configure({
    onCheckFailed: () => {
      // A check that failed for lack of network keeps the user signed in (offline layer).
      if (!auth.getState().isAuthenticated) leaveProtectedPage();
    },
  });
  auth.onLogout(() => queryClient.clear());
  document.addEventListener('visibilitychange', async () => {
    // Offline is not signed out: with no network there is nothing to validate.
    if (document.visibilityState !== 'visible' || !auth.getState().isAuthenticated || !navigator.onLine) return;
    const result = await validateToken();
    if (result.valid || result.error === RATE_LIMITED) return;
    if (!(await auth.refreshToken())) {
      auth.clear();
      leaveProtectedPage();
    }
  });
  // The callback page signs the user in itself; everywhere else, check once on start.
  if (!window.location.pathname.startsWith('/auth/google/callback')) void auth.checkAuth();
}
