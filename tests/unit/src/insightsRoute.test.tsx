import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { createMemoryHistory, createRootRouteWithContext, createRouter } from '@tanstack/react-router';
import type { RouterContext } from '../../../src/routes/__root.js';
import { Route as Insights } from '../../../src/routes/_authed/campaign/$campaignId/insights.js';
import { renderRouter } from '../../helpers/render-router.js';

// The insights route on a real router and query client, mounted as the route tree mounts it;
// only the network is scripted. Its loader fills the cache (ensureQueryData), the screen reads it
// (useSuspenseQuery), and a failed load shows the spec's error text under the page's tabs.

function openInsights(answer: (url: string) => Response) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => answer(String(input)));
  const root = createRootRouteWithContext<RouterContext>()();
  const insights = Insights.update({ id: '/campaign/$campaignId/insights', path: '/campaign/$campaignId/insights', getParentRoute: () => root } as never);
  const history = createMemoryHistory({ initialEntries: ['/campaign/c1/insights?days=7'] });
  const router = createRouter({ routeTree: root.addChildren([insights]), history, context: { queryClient } });
  renderRouter(router, queryClient);
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the insights route', () => {
  it('shows "Error: {status} {statusText}" under the tabs when the load fails, never a blank page', async () => {
    openInsights((url) => (url.includes('/insights/') ? new Response('{}', { status: 503, statusText: 'Service Unavailable' }) : Response.json([])));
    expect(await screen.findByText('Error: 503 Service Unavailable')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Campaign Insights' })).toBeTruthy();
    expect((document.getElementById('insights-range') as HTMLSelectElement).value).toBe('7');
  });

});
