import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fetchReplay } from '../../../../src/api/replay.js';
import { createApiClient } from '../../../../src/api/client.js';
import { getSavedReplay } from '../../../../src/offline/replayStore.js';
import { freshDevice, loadReplay } from './reset.js';

// A device's first visit: the service worker is still installing, so it cannot keep the replay
// the page fetches — the page keeps it itself. Once a worker controls the page, it is the worker's job.

const answer = {
  init: {
    userAgent: 'Mozilla/5.0',
    remoteIpAddress: '203.0.113.9',
    language: 'en-GB',
    timezone: 'UTC',
    webdriver: false,
    cookiesEnabled: true,
    hasFocus: true,
    fullScreenEnabled: false,
  },
  events: [
    { type: 4, data: { href: 'https://shop.example.com/', width: 800, height: 600 }, timestamp: 1_700_000_000_000 },
    { type: 3, data: { source: 1, positions: [] }, timestamp: 1_700_000_000_100 },
  ],
  complete: true,
  live: false,
};
const client = createApiClient({ fetch: async () => new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } }) });

function controlledBy(controller: object | null) {
  Object.defineProperty(navigator, 'serviceWorker', { value: { controller }, configurable: true });
}

beforeEach(freshDevice);
afterEach(async () => {
  Reflect.deleteProperty(navigator, 'serviceWorker');
  await freshDevice();
});

describe('the first replay watched on a device', () => {
  it('is kept by the page while no service worker controls it', async () => {
    controlledBy(null);
    await fetchReplay('camp-1', 'sess-1', client);
    await vi.waitFor(async () => expect(await getSavedReplay('camp-1', 'sess-1')).toMatchObject({ eventCount: 2, complete: true }));
    const saved = await loadReplay('camp-1', 'sess-1');
    expect(JSON.parse(new TextDecoder().decode(saved!.body))).toEqual(answer);
  });

  it('is kept by the page when the worker takes control while the request is under way', async () => {
    controlledBy(null);
    const claimedMeanwhile = createApiClient({
      fetch: async () => {
        controlledBy({});
        return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } });
      },
    });
    await fetchReplay('camp-1', 'sess-3', claimedMeanwhile);
    await vi.waitFor(async () => expect(await getSavedReplay('camp-1', 'sess-3')).toMatchObject({ eventCount: 2 }));
  });

  it('is left to the worker once one controls the page', async () => {
    controlledBy({});
    await fetchReplay('camp-1', 'sess-2', client);
    // A replay fetched after it while no worker controls the page is kept: once it is, a keep
    // of the first one, started before it, would be too.
    controlledBy(null);
    await fetchReplay('camp-1', 'sess-4', client);
    await vi.waitFor(async () => expect(await getSavedReplay('camp-1', 'sess-4')).toMatchObject({ eventCount: 2 }));
    expect(await getSavedReplay('camp-1', 'sess-2')).toBeUndefined();
  });
});
