import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { createMemoryHistory, createRootRouteWithContext, createRoute, createRouter } from '@tanstack/react-router';
import type { RouterContext } from '../../../src/routes/__root.js';
import { Route as Sessions } from '../../../src/routes/_authed/campaign/$campaignId/index.js';
import { NotFound } from '../../../src/screens/NotFound.js';
import { renderRouter } from '../../helpers/render-router.js';

// Pages for addresses that lead nowhere, on a real router and query client; only the network is scripted.

function renderAt(entries: string[], answer: (url: string) => Response) {
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => answer(String(input)));
  const rootRoute = createRootRouteWithContext<RouterContext>()({ notFoundComponent: NotFound });
  const home = createRoute({ getParentRoute: () => rootRoute, path: '/', component: () => <p>home page</p> });
  const dashboard = createRoute({ getParentRoute: () => rootRoute, path: '/dashboard', component: () => <p>dashboard page</p> });
  // The sessions page's real route (its loader, screen and errorComponent), mounted as the route tree mounts it.
  const sessions = Sessions.update({ id: '/campaign/$campaignId', path: '/campaign/$campaignId', getParentRoute: () => rootRoute } as never);
  const history = createMemoryHistory({ initialEntries: entries, initialIndex: entries.length - 1 });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createRouter({ routeTree: rootRoute.addChildren([home, dashboard, sessions]), history, context: { queryClient } });
  renderRouter(router, queryClient);
  return router;
}

const emptyList = { sessions: [], nextCursor: null, counts: { total: 0, human: 0, bot: 0 } };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('an unknown campaign', () => {
  it.each([
    [404, 'Campaign not found'],
    [400, 'Invalid campaign id'],
  ])('shows that it was not found, with the way back to the dashboard, not the sessions page (%i)', async (status, error) => {
    const router = renderAt(['/campaign/nope'], (url) =>
      url.includes('/api/v1/streaming/sessions/') ? Response.json({ error }, { status, statusText: 'Not Found' }) : Response.json({ data: [] }),
    );
    expect(await screen.findByRole('heading', { name: 'Campaign not found' })).toBeTruthy();
    expect(screen.queryByText(/Error: 40\d/)).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Campaign Sessions' })).toBeNull();
    fireEvent.click(screen.getByRole('link', { name: 'Back to Dashboard' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('still shows the sessions page with the error for other failures; Refresh loads the list again', async () => {
    let failing = true;
    renderAt(['/campaign/c-1?type=bot'], (url) => {
      if (!url.includes('/api/v1/streaming/sessions/')) return Response.json({ data: [] });
      return failing ? Response.json({ error: 'boom' }, { status: 500, statusText: 'Internal Server Error' }) : Response.json(emptyList);
    });
    expect(await screen.findByText('Error: 500 Internal Server Error')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Campaign Sessions' })).toBeTruthy();
    expect((screen.getByLabelText('Session type') as HTMLSelectElement).value).toBe('bot');
    failing = false;
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText('No sessions found')).toBeTruthy();
    expect(screen.queryByText('Error: 500 Internal Server Error')).toBeNull();
  });
});

describe('the 404 page', () => {
  it('goes home on "Go Back" in a tab with no history before it', async () => {
    const router = renderAt(['/no-such-page'], () => Response.json({}));
    fireEvent.click(await screen.findByRole('button', { name: 'Go Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByText('home page')).toBeTruthy();
  });

  it('goes back where the visitor came from when there is somewhere to go', async () => {
    const router = renderAt(['/dashboard'], () => Response.json({}));
    await screen.findByText('dashboard page');
    await router.navigate({ to: '/no-such-page' as '/' });
    fireEvent.click(await screen.findByRole('button', { name: 'Go Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });
});
