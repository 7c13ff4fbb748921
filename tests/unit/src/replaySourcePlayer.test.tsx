import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ReplayPlayer } from '../../../src/components/ReplayPlayer.js';
import { createReplaySource, finishedSource } from '../../../src/replay/replaySource.js';
import type { ReplayEvent } from '../../../common/api-types.js';

// The player is made once per replay source: appends reach it as added events, and no other prop
// (size, speeds, label, callbacks) makes it again. rrweb-player is replaced by a recording fake.

const fake = vi.hoisted(() => {
  const made: FakePlayer[] = [];
  class FakePlayer {
    events: { timestamp: number }[];
    added: unknown[] = [];
    destroyed = false;
    goto = vi.fn();
    constructor({ props }: { props: { events: { timestamp: number }[] } }) {
      this.events = props.events;
      made.push(this);
    }
    $destroy() {
      this.destroyed = true;
    }
    $set() {}
    triggerResize() {}
    setSpeed() {}
    toggle() {}
    toggleSkipInactive() {}
    getMetaData() {
      return { totalTime: (this.events.at(-1)?.timestamp ?? 0) - (this.events[0]?.timestamp ?? 0) };
    }
    addEventListener() {}
    getReplayer() {
      return {};
    }
    addEvent(event: unknown) {
      this.added.push(event);
    }
  }
  return { made, FakePlayer };
});
vi.mock('../../../src/components/player/loadPlayer.js', () => ({ loadPlayer: async () => [{ default: fake.FakePlayer }, {}] }));

afterEach(() => {
  cleanup();
  fake.made.length = 0;
});

const start = 1_700_000_000_000;
const page: ReplayEvent[] = [
  { type: 4, data: { href: 'https://shop.example/', width: 800, height: 600 }, timestamp: start },
  { type: 2, data: { node: { type: 0, childNodes: [] } }, timestamp: start + 10 },
  { type: 3, data: { source: 1, positions: [] }, timestamp: start + 60_000 },
];
const later: ReplayEvent[] = [{ type: 3, data: { source: 1, positions: [] }, timestamp: start + 70_000 }];

describe('the player of a replay source', () => {
  it('is made once per source: appends are added to it, other props never make it again', async () => {
    const source = createReplaySource(null, page);
    const { rerender } = render(<ReplayPlayer source={source} width={800} height={600} speedOption={[1, 2]} label="One" onError={() => {}} />);
    await vi.waitFor(() => expect(fake.made).toHaveLength(1));
    const first = fake.made[0];
    expect(first.events).toEqual(page);

    act(() => source.append(later));
    expect(first.added).toEqual(later);
    rerender(
      <ReplayPlayer
        source={source}
        width={1024}
        height={768}
        speedOption={[0.5, 1, 2]}
        label="Two"
        onError={() => {}}
        underControls={() => null}
        fitToViewport
      />,
    );
    await screen.findByRole('button', { name: 'Play' });
    expect(fake.made).toHaveLength(1);
    expect(first.destroyed).toBe(false);

    rerender(<ReplayPlayer source={finishedSource(page)} width={800} height={600} speedOption={[1, 2]} />);
    await vi.waitFor(() => expect(fake.made).toHaveLength(2));
    expect(first.destroyed).toBe(true);
  });

  it('never seeks rrweb before just after the first full snapshot, while the scrubber reads the moment asked for', async () => {
    render(<ReplayPlayer source={finishedSource(page)} width={800} height={600} speedOption={[1, 2]} />);
    const slider = await screen.findByRole('slider', { name: 'Playback position' });
    await vi.waitFor(() => expect((slider as HTMLInputElement).disabled).toBe(false));
    const player = fake.made[0];
    fireEvent.change(slider, { target: { value: '30000' } });
    expect(player.goto).toHaveBeenLastCalledWith(30_000, undefined);
    fireEvent.keyDown(slider, { key: 'Home' });
    // The first full snapshot is 10 ms in: the start is drawn as 11 ms.
    expect(player.goto).toHaveBeenLastCalledWith(11, undefined);
    expect((slider as HTMLInputElement).value).toBe('0');
  });
});
