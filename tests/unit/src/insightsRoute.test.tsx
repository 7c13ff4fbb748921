import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { Route as Insights } from '../../../src/routes/_authed/campaign/$campaignId/insights.js';
import { renderRoute } from '../../helpers/render-router.js';

// The insights route on a real router and query client, mounted as the route tree mounts it;
// only the network is scripted. Its loader fills the cache (ensureQueryData), the screen reads it
// (useSuspenseQuery), and a failed load shows the spec's error text under the page's tabs.

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the insights route', () => {
  it('shows "Error: {status} {statusText}" under the tabs when the load fails, never a blank page', async () => {
    renderRoute(Insights, '/campaign/$campaignId/insights', '/campaign/c1/insights?days=7', (url) =>
      url.includes('/insights/') ? new Response('{}', { status: 503, statusText: 'Service Unavailable' }) : Response.json([]),
    );
    expect(await screen.findByText('Error: 503 Service Unavailable')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Campaign Insights' })).toBeTruthy();
    expect((document.getElementById('insights-range') as HTMLSelectElement).value).toBe('7');
  });
});
