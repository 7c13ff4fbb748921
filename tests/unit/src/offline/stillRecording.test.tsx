import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { keepReplay } from '../../../../src/offline/keepReplay.js';
import { SaveForOfflineButton } from '../../../../src/offline/SaveForOfflineButton.js';
import { freshDevice } from './reset.js';
import { replayAnswer } from './recording-fixtures.js';

// A saved copy of a session the server had not called complete says "still recording" only while
// its batches were arriving (common/recording-now.ts), not minutes after the visit ended.

const CAMPAIGN = '7d0b6c1e-5a3e-4a54-9a53-2f6f1f0c9b11';

/** The server's answer for a session not complete, its last batch `ago` ms before now. */
const answer = (ago: number) => replayAnswer({ durationMs: 60_000, lastActivityAt: Date.now() - ago }, { complete: false, live: true });

beforeEach(freshDevice);
afterEach(async () => {
  cleanup();
  await freshDevice();
});

describe('a saved copy of a session not yet complete', () => {
  it('no longer says still recording once its visit stopped sending batches', async () => {
    await keepReplay(CAMPAIGN, 'ended-seven-minutes-ago', answer(7 * 60_000));
    render(<SaveForOfflineButton campaignId={CAMPAIGN} sessionId="ended-seven-minutes-ago" />);
    const state = await screen.findByText('Available offline');
    expect(state.parentElement?.textContent).toBe('Available offline(refreshes when online)');
  });

  it('says still recording while its batches arrive', async () => {
    await keepReplay(CAMPAIGN, 'recording-now', answer(5_000));
    render(<SaveForOfflineButton campaignId={CAMPAIGN} sessionId="recording-now" />);
    await screen.findByText('(still recording; refreshes when online)');
  });
});
