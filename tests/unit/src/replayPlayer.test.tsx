import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ARROW_STEP_MS, fitRecording, formatPlayerTime, recordingSize, seekForKey } from '../../../src/components/player/playerMath.js';
import { PlayerControls, type PlayerControlsProps } from '../../../src/components/player/PlayerControls.js';
import { summariseUserAgent } from '../../../common/user-agent.js';
import { useWhenBackOnline } from '../../../src/offline/useOnline.js';
import { isReplayNotSavedOffline, replayPageMessage } from '../../../src/offline/offlineReplay.js';
import { HttpError } from '../../../src/api/client.js';
import { OFFLINE_REPLAY_MESSAGE } from '../../../src/offline/network.js';

afterEach(cleanup);

describe('the player arithmetic', () => {
  it('scales a recording to the largest size that fits, keeping its proportions', () => {
    // A phone recording on a desktop screen: the height decides.
    expect(fitRecording({ width: 390, height: 844 }, { width: 1180, height: 500 })).toEqual({ width: 231, height: 500 });
    // A desktop recording on a phone: the width decides.
    expect(fitRecording({ width: 1366, height: 768 }, { width: 374, height: 500 })).toEqual({ width: 374, height: 210 });
    // A small recording is enlarged unless a maximum scale says otherwise.
    expect(fitRecording({ width: 800, height: 600 }, { width: 1600, height: 1200 })).toEqual({ width: 1600, height: 1200 });
    expect(fitRecording({ width: 800, height: 600 }, { width: 1600, height: 1200 }, 1)).toEqual({ width: 800, height: 600 });
    // No room at all still gives a 1×1 player, never zero or NaN.
    expect(fitRecording({ width: 800, height: 600 }, { width: 0, height: 0 })).toEqual({ width: 1, height: 1 });
  });

  it("reads the recording's size from its meta event, else the fallback", () => {
    const fallback = { width: 1024, height: 768 };
    expect(recordingSize([{ type: 4, data: { href: 'x', width: 390, height: 844 }, timestamp: 1 }], fallback)).toEqual({ width: 390, height: 844 });
    expect(recordingSize([{ type: 2, data: {}, timestamp: 1 }], fallback)).toEqual(fallback);
    expect(recordingSize([{ type: 4, data: { width: 0, height: 'tall' }, timestamp: 1 }], fallback)).toEqual(fallback);
  });

  it('formats times and moves the scrubber by key', () => {
    expect(formatPlayerTime(0)).toBe('00:00');
    expect(formatPlayerTime(83_900)).toBe('01:23');
    expect(formatPlayerTime(3_723_000)).toBe('1:02:03');
    // 5 s a press however long the recording (a tenth of a short one made ← ← on a short phone visit 5 s).
    expect(ARROW_STEP_MS).toBe(5000);
    expect(seekForKey('ArrowLeft', 20_000, 30_000)).toBe(15_000);
    expect(seekForKey('ArrowLeft', 15_000, 30_000)).toBe(10_000);
    expect(seekForKey('ArrowRight', 1000, 8000)).toBe(6000);
    expect(seekForKey('ArrowRight', 10_000, 60_000)).toBe(15_000);
    expect(seekForKey('ArrowLeft', 2000, 60_000)).toBe(0);
    expect(seekForKey('ArrowUp', 58_000, 60_000)).toBe(60_000);
    expect(seekForKey('PageUp', 0, 60_000)).toBe(6000);
    expect(seekForKey('Home', 30_000, 60_000)).toBe(0);
    expect(seekForKey('End', 0, 60_000)).toBe(60_000);
    expect(seekForKey('a', 0, 60_000)).toBeNull();
  });
});

describe('PlayerControls', () => {
  const props = (overrides: Partial<PlayerControlsProps> = {}): PlayerControlsProps => ({
    ready: true,
    playing: false,
    currentTime: 10_000,
    totalTime: 60_000,
    speed: 1,
    speedOption: [0.5, 1, 2, 4, 8],
    skipInactive: true,
    fullscreen: false,
    onTogglePlay: vi.fn(),
    onSeek: vi.fn(),
    onSpeed: vi.fn(),
    onSkipInactive: vi.fn(),
    onToggleFullscreen: vi.fn(),
    ...overrides,
  });

  it('names every control and reports what it does', () => {
    const p = props();
    render(<PlayerControls {...p} />);
    fireEvent.click(screen.getByRole('button', { name: 'Play' }));
    expect(p.onTogglePlay).toHaveBeenCalledOnce();
    const slider = screen.getByRole('slider', { name: 'Playback position' });
    expect(slider.getAttribute('aria-valuetext')).toBe('00:10 of 01:00');
    fireEvent.keyDown(slider, { key: 'ArrowRight' });
    expect(p.onSeek).toHaveBeenLastCalledWith(15_000);
    fireEvent.keyDown(slider, { key: 'End' });
    expect(p.onSeek).toHaveBeenLastCalledWith(60_000);
    expect(screen.getByRole('button', { name: '1x' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: '0.5x' }));
    expect(p.onSpeed).toHaveBeenCalledWith(0.5);
    // The switch's visible label toggles it.
    fireEvent.click(screen.getByText('Skip inactive'));
    expect(p.onSkipInactive).toHaveBeenCalledWith(false);
    fireEvent.click(screen.getByRole('button', { name: 'Fullscreen' }));
    expect(p.onToggleFullscreen).toHaveBeenCalledOnce();
  });

  it('says Pause while playing and Exit fullscreen in fullscreen; disabled until loaded', () => {
    const { rerender } = render(<PlayerControls {...props({ playing: true, fullscreen: true })} />);
    screen.getByRole('button', { name: 'Pause' });
    screen.getByRole('button', { name: 'Exit fullscreen' });
    rerender(<PlayerControls {...props({ ready: false })} />);
    expect((screen.getByRole('button', { name: 'Play' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('switch', { name: 'Skip inactive' }) as HTMLInputElement).disabled).toBe(true);
  });

  it("shows a live session's length beside 'Jump to live', not instead of it", () => {
    const onJumpToLive = vi.fn();
    render(<PlayerControls {...props({ onJumpToLive })} />);
    const length = screen.getByText('01:00');
    const jump = screen.getByRole('button', { name: 'Jump to live' });
    expect(length.compareDocumentPosition(jump) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    fireEvent.click(jump);
    expect(onJumpToLive).toHaveBeenCalledOnce();
  });
});

describe('the session strip', () => {
  it('summarises a user agent as browser, OS and device', () => {
    expect(
      summariseUserAgent(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      ),
    ).toEqual({
      browser: 'Safari 17',
      os: 'iOS 17.0',
      device: 'Phone',
    });
    expect(summariseUserAgent('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36')).toMatchObject({
      browser: 'Chrome 140',
      os: 'Linux',
      device: 'Desktop',
    });
    expect(summariseUserAgent(null)).toEqual({ browser: 'Unknown browser', os: 'Unknown OS', device: 'Unknown device' });
  });
});

describe('offline messages', () => {
  it("turns the worker's 503 for an unsaved replay into words, and leaves other errors alone", () => {
    const notSaved = new HttpError(503, 'Offline', { error: OFFLINE_REPLAY_MESSAGE });
    expect(isReplayNotSavedOffline(notSaved)).toBe(true);
    expect(replayPageMessage(notSaved, () => 'other')).toBe(OFFLINE_REPLAY_MESSAGE);
    const busy = new HttpError(503, 'Service Unavailable', { error: 'Too many replays are being prepared' });
    expect(isReplayNotSavedOffline(busy)).toBe(false);
    expect(replayPageMessage(busy, () => 'other')).toBe('other');
  });

  it('clears a notice when the network comes back, not while still online', () => {
    const online = vi.spyOn(navigator, 'onLine', 'get');
    online.mockReturnValue(true);
    const cleared = vi.fn();
    const Notice = ({ pending }: { pending: boolean }) => {
      useWhenBackOnline(pending, cleared);
      return null;
    };
    const { rerender } = render(<Notice pending={false} />);
    rerender(<Notice pending />);
    expect(cleared).not.toHaveBeenCalled();
    online.mockReturnValue(false);
    act(() => void window.dispatchEvent(new Event('offline')));
    expect(cleared).not.toHaveBeenCalled();
    online.mockReturnValue(true);
    act(() => void window.dispatchEvent(new Event('online')));
    expect(cleared).toHaveBeenCalledOnce();
    online.mockRestore();
  });
});
