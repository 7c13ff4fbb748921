import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keepReplay } from '../../../../src/offline/keepReplay.js';
import { getSavedReplay } from '../../../../src/offline/replayStore.js';
import { refreshIncompleteReplays } from '../../../../src/offline/setup.js';
import { SOURCE_HEADER } from '../../../../src/offline/network.js';
import { freshDevice } from './reset.js';

// Back online, saved replays of sessions still recording are fetched again. The page can hear
// 'online' before the service worker's own requests go through; the worker then answers from the
// device, and that old copy must not count as the refresh.

const init = {
  userAgent: 'Mozilla/5.0',
  remoteIpAddress: '203.0.113.9',
  language: 'en-GB',
  timezone: 'UTC',
  webdriver: false,
  cookiesEnabled: true,
  hasFocus: true,
  fullScreenEnabled: false,
};
const events = [
  { type: 4, data: { href: 'https://shop.example.com/', width: 800, height: 600 }, timestamp: 1_700_000_000_000 },
  { type: 3, data: { source: 1, positions: [] }, timestamp: 1_700_000_000_100 },
  { type: 3, data: { source: 1, positions: [] }, timestamp: 1_700_000_000_200 },
];
const body = (count: number, complete: boolean) => JSON.stringify({ init, events: events.slice(0, count), complete });
const answer = (text: string, source: 'device' | 'network') =>
  new Response(text, { status: 200, headers: { 'content-type': 'application/json', [SOURCE_HEADER]: source } });

beforeEach(freshDevice);
afterEach(async () => {
  vi.unstubAllGlobals();
  await freshDevice();
});

describe('refreshing still-recording replays on reconnect', () => {
  it('tries again when the first answer is the device copy, and keeps the new one', async () => {
    await keepReplay('camp-1', 'sess-1', new TextEncoder().encode(body(1, false)));
    const answers = [answer(body(1, false), 'device'), answer(body(3, true), 'network')];
    // The copy's notes are fetched with it (saveForOffline): answered apart, not counted as a try.
    const isNotes = (url: unknown) => String(url).includes('/api/v1/notes/');
    const fetchMock = vi.fn(async (url: unknown) => (isNotes(url) ? Response.json({ notes: [] }) : answers.shift()!));
    vi.stubGlobal('fetch', fetchMock);
    await refreshIncompleteReplays(1);
    expect(fetchMock.mock.calls.filter(([url]) => !isNotes(url))).toHaveLength(2);
    expect(await getSavedReplay('camp-1', 'sess-1')).toMatchObject({ eventCount: 3, complete: true });
  });

  it('gives up after a few tries, keeping the saved copy', async () => {
    await keepReplay('camp-1', 'sess-1', new TextEncoder().encode(body(1, false)));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const fetchMock = vi.fn(async () => Promise.reject(new TypeError('Failed to fetch')));
    vi.stubGlobal('fetch', fetchMock);
    await refreshIncompleteReplays(1);
    expect(fetchMock).toHaveBeenCalledTimes(4);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(await getSavedReplay('camp-1', 'sess-1')).toMatchObject({ eventCount: 1, complete: false });
    warn.mockRestore();
  });
});
