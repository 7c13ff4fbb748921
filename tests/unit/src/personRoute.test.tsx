import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { Route as Person } from '../../../src/routes/_authed/campaign/$campaignId/person/$userId.js';
import { renderRoute } from '../../helpers/render-router.js';

// The person route on a real router and query client; only the network is scripted. Its loader
// fills the cache (ensureQueryData), the page reads it (useSuspenseQuery), and a failed load shows
// the server's error under the page's title and the person's id.

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
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
