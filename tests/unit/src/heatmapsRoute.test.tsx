import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { Route as Heatmaps } from '../../../src/routes/_authed/campaign/$campaignId/heatmaps.js';
import { renderRoute } from '../../helpers/render-router.js';

// The heatmaps route on a real router and query client; only the network is scripted. Its loader
// fills the cache (ensureQueryData), the screen reads it (useSuspenseQuery), and a failed load
// shows the spec's error text under the screen's controls, which keep the URL's choice.

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
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
