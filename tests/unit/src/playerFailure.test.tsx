import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';

// A player whose code cannot load (offline, never kept) says so in its place: issue 24, point 5.
const loadPlayer = vi.hoisted(() => vi.fn());
vi.mock('../../../src/components/player/loadPlayer.js', async (original) => ({
  ...(await original<typeof import('../../../src/components/player/loadPlayer.js')>()),
  loadPlayer,
}));

import { RecordingPlayer } from '../../../src/components/ReplayPlayer.js';
import { PLAYER_CODE_OFFLINE, PLAYER_INIT_FAILED, playerFailureMessage } from '../../../src/components/player/loadPlayer.js';

const events = [
  { type: 4, data: { href: 'https://shop.example.com/', width: 800, height: 600 }, timestamp: 1 },
  { type: 2, data: { node: { type: 0, childNodes: [], id: 1 }, initialOffset: { top: 0, left: 0 } }, timestamp: 2 },
];

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('a player that cannot start', () => {
  it('says why: the code was not kept offline, or the spec’s initialisation error', () => {
    const notFetched = new TypeError('Failed to fetch dynamically imported module: /assets/rrweb-player-x.js');
    expect(playerFailureMessage(notFetched, false)).toBe(PLAYER_CODE_OFFLINE);
    expect(playerFailureMessage(notFetched, true)).toBe(PLAYER_INIT_FAILED);
    expect(playerFailureMessage(new Error('boom'), false)).toBe(PLAYER_INIT_FAILED);
  });

  it('shows the message in place of the player when its caller shows no error of its own', async () => {
    vi.stubGlobal('navigator', { ...navigator, onLine: false });
    loadPlayer.mockRejectedValue(new TypeError('Failed to fetch dynamically imported module'));
    render(<RecordingPlayer events={events as never} width={800} height={600} speedOption={[1, 2]} />);
    expect((await screen.findByRole('alert')).textContent).toBe(PLAYER_CODE_OFFLINE);
  });

  it('leaves the message to a caller that handles the error', async () => {
    loadPlayer.mockRejectedValue(new Error('boom'));
    const onError = vi.fn();
    render(<RecordingPlayer events={events as never} width={800} height={600} speedOption={[1, 2]} onError={onError} />);
    await vi.waitFor(() => expect(onError).toHaveBeenCalled());
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
