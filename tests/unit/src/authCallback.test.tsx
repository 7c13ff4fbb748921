import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, waitFor } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter } from '@tanstack/react-router';
import { AuthCallback } from '../../../src/screens/AuthCallback.js';
import { ME_QUERY_KEY } from '../../../src/auth/session.js';
import { renderRouter } from '../../helpers/render-router.js';

// The sign-in callback page trades its code once per app: the exchange is kept by the app's own
// QueryClient (made at its root), not by the module, so StrictMode's second mount reuses it and
// another app in the same page (a test, say) makes its own.

const USER = { id: 'u-1', name: 'Ada', email: 'ada@example.com' };

function renderApp(queryClient: QueryClient) {
  const rootRoute = createRootRoute();
  const callback = createRoute({ getParentRoute: () => rootRoute, path: '/auth/google/callback', component: () => <AuthCallback code="one-code" state="s" /> });
  const dashboard = createRoute({ getParentRoute: () => rootRoute, path: '/dashboard', component: () => <p>dashboard page</p> });
  const history = createMemoryHistory({ initialEntries: ['/auth/google/callback'] });
  const router = createRouter({ routeTree: rootRoute.addChildren([callback, dashboard]), history });
  renderRouter(router, queryClient, { strict: true });
  return router;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the sign-in callback page', () => {
  it('trades its code once per app, even mounted twice, and signs the user in on that app', async () => {
    const posted: string[] = [];
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      // The code's trades; after sign-in the page also reads the campaign list (offline/lostWorkspaces.ts).
      if (String(input).endsWith('/auth/google/callback')) posted.push(String(init?.body));
      return Response.json({ user: USER, returnTo: '/dashboard' });
    });
    const apps = [new QueryClient(), new QueryClient()];
    const routers = apps.map(renderApp);
    for (const router of routers) await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(posted).toEqual([JSON.stringify({ code: 'one-code', state: 's' }), JSON.stringify({ code: 'one-code', state: 's' })]);
    for (const app of apps) expect(app.getQueryData(ME_QUERY_KEY)).toEqual(USER);
  });
});
