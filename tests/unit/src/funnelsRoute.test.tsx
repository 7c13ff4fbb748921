import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { Route as Funnels } from '../../../src/routes/_authed/campaign/$campaignId/funnels.js';
import { renderRoute } from '../../helpers/render-router.js';

// The funnels route on a real router and query client; only the network is scripted. Its loader
// fills the cache (ensureQueryData), the screen reads it (useSuspenseQuery), and a failed load
// shows the spec's error text under the page's tabs.

const openFunnels = (answer: (url: string) => Response) => renderRoute(Funnels, '/campaign/$campaignId/funnels', '/campaign/c1/funnels?days=7', answer);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the funnels route', () => {
  it('shows "Failed to fetch funnels" under the tabs when the load fails, never a blank page', async () => {
    openFunnels((url) => (url.includes('/funnels/') ? new Response('{}', { status: 503, statusText: 'Service Unavailable' }) : Response.json([])));
    expect(await screen.findByText('Failed to fetch funnels')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Funnels' })).toBeTruthy();
    expect((document.getElementById('funnels-range') as HTMLSelectElement).value).toBe('7');
  });

  it('shows the loaded list, and the form for a new funnel', async () => {
    openFunnels((url) => (url.includes('/funnels/') ? Response.json({ funnels: [] }) : Response.json([])));
    expect(await screen.findByText(/^No funnels yet/)).toBeTruthy();
    expect(screen.getByRole('form', { name: 'New funnel' })).toBeTruthy();
    expect(screen.queryByText('Failed to fetch funnels')).toBeNull();
  });
});
