import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { Route as Insights } from '../../../src/routes/_authed/campaign/$campaignId/insights.js';
import { Route as Funnels } from '../../../src/routes/_authed/campaign/$campaignId/funnels.js';
import { Route as Heatmaps } from '../../../src/routes/_authed/campaign/$campaignId/heatmaps.js';
import { Route as Person } from '../../../src/routes/_authed/campaign/$campaignId/person/$userId.js';
import { renderRoute } from '../../helpers/render-router.js';

// Each screen's route on a real router and query client, mounted as the route tree mounts it;
// only the network is scripted. The loader fills the cache (ensureQueryData) before the screen
// reads it, and a failed load shows the spec's error text under the page's title and controls,
// never a blank page (insights, funnels, person: the route's errorComponent; heatmaps: the
// screen's own error beside its controls). The dashboard and the sessions list: screens.test.tsx
// and notFound.test.tsx.

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

const openFunnels = (answer: (url: string) => Response) => renderRoute(Funnels, '/campaign/$campaignId/funnels', '/campaign/c1/funnels?days=7', answer);

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

describe('the heatmaps route', () => {
  it('shows "Error: {status} {statusText}" under the controls when the load fails, never a blank page', async () => {
    renderRoute(Heatmaps, '/campaign/$campaignId/heatmaps', '/campaign/c1/heatmaps?layer=rage&days=7', (url) =>
      /\/heatmaps\/c1\?/.test(url) ? new Response('{}', { status: 502, statusText: 'Bad Gateway' }) : Response.json({ pages: [] }),
    );
    expect(await screen.findByText('Error: 502 Bad Gateway')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Heatmaps' })).toBeTruthy();
    expect((screen.getByLabelText('Layer') as HTMLSelectElement).value).toBe('rage');
    expect((screen.getByLabelText('Range') as HTMLSelectElement).value).toBe('7');
  });
});

describe('the person route', () => {
  it("shows the server's error under the title when the load fails, never a blank page", async () => {
    renderRoute(Person, '/campaign/$campaignId/person/$userId', '/campaign/c1/person/u-42', () =>
      Response.json({ error: 'Campaign not found' }, { status: 404, statusText: 'Not Found' }),
    );
    const box = (await screen.findByText('Campaign not found')).closest('[role="alert"]') as HTMLElement;
    expect(within(box).getByText('Error')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Person' })).toBeTruthy();
    expect(screen.getByTestId('person-id').textContent).toBe('u-42');
    expect(screen.queryByRole('button', { name: 'Erase this person' })).toBeNull();
  });
});
