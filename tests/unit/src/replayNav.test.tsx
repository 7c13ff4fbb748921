import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { INACTIVITY_GAP_MS, MAX_SKIP_SPEED, skipSpeed } from '../../../src/components/replay/replaySettings.js';
import { playerProps } from '../../../src/components/player/rrwebPlayer.js';
import { listContext, listFilters, listQuery, neighbours, validateListContext } from '../../../src/lib/sessionListContext.js';
import { SessionNav, useAutoplayNext } from '../../../src/components/replay/SessionNav.js';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('skip inactive', () => {
  it("is made with the spec's defaults: on, a 10 s gap, at most 360×", () => {
    const props = playerProps([], { width: 800, height: 600 }, [1, 2], 1);
    expect(props).toMatchObject({ skipInactive: true, inactivePeriodThreshold: 10_000, maxSpeed: 360 });
    expect(INACTIVITY_GAP_MS).toBe(10_000);
    expect(MAX_SKIP_SPEED).toBe(360);
  });

  it('runs a gap in about a second (rrweb chose gap ÷ 5 s), at most 360×, never slower than playing', () => {
    // A minute idle: rrweb's 12× (5 s) becomes 60× (1 s).
    expect(skipSpeed(12)).toBe(60);
    // 15 s idle: rrweb's 3× becomes 15×.
    expect(skipSpeed(3)).toBe(15);
    // Six minutes or more: the spec's maximum.
    expect(skipSpeed(72)).toBe(360);
    expect(skipSpeed(360)).toBe(360);
    // Playing at 8×, an 80 s gap (the least rrweb skips at that speed) still runs faster.
    expect(skipSpeed(16, 8)).toBe(80);
    expect(skipSpeed(2, 16)).toBe(16);
  });
});

describe('the sessions list a replay came from', () => {
  it('keeps the valid filters, sort, search and type, and drops the rest', () => {
    expect(validateListContext({ sort: 'longest', hasErrors: 'true', q: '  kettle ', type: 'bot', t: 5, other: 'x' })).toEqual({
      sort: 'longest',
      hasErrors: true,
      q: 'kettle',
      type: 'bot',
    });
    expect(validateListContext({ type: 'all', q: '', sort: 'newest' })).toEqual({});
    expect(validateListContext({ q: 'x'.repeat(500) }).q).toHaveLength(100);
  });

  it('is built from the sessions page and asks for the same list', () => {
    const list = listContext({ device: 'mobile' }, 'checkout', 'human');
    expect(list).toEqual({ device: 'mobile', q: 'checkout', type: 'human' });
    expect(listFilters(list)).toEqual({ device: 'mobile' });
    expect(listQuery(list)).toEqual({ search: 'checkout', type: 'human', filters: { device: 'mobile' } });
    expect(listQuery({})).toEqual({ search: '', type: 'all', filters: {} });
  });

  it('gives the sessions before and after, or the nearest that can open', () => {
    const order = ['a', 'b', 'c', 'd', 'e'];
    expect(neighbours(order, 'c')).toEqual({ listed: true, previous: 'b', next: 'd' });
    expect(neighbours(order, 'a')).toEqual({ listed: true, previous: undefined, next: 'b' });
    expect(neighbours(order, 'e')).toEqual({ listed: true, previous: 'd', next: undefined });
    expect(neighbours(order, 'z')).toEqual({ listed: false });
    // Offline: only saved ones open.
    expect(neighbours(order, 'c', new Set(['a', 'e']))).toEqual({ listed: true, previous: 'a', next: 'e' });
    expect(neighbours(order, 'c', new Set(['c']))).toEqual({ listed: true, previous: undefined, next: undefined });
  });
});

describe('SessionNav', () => {
  function Nav({ previous, next, onOpen }: { previous?: string; next?: string; onOpen: (id: string) => void }) {
    const [autoplay, setAutoplay] = useAutoplayNext();
    return <SessionNav place="title" neighbours={{ listed: true, previous, next }} onOpen={onOpen} autoplayNext={autoplay} onAutoplayNext={setAutoplay} />;
  }

  it('names its buttons, disables a missing neighbour and opens the other', () => {
    const opened: string[] = [];
    render(<Nav next="s2" onOpen={(id) => opened.push(id)} />);
    expect(screen.getByRole('navigation', { name: 'Sessions in this list' })).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Previous session' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Next session' }));
    expect(opened).toEqual(['s2']);
  });

  it('keeps Autoplay next on this device (off until switched on)', () => {
    const { unmount } = render(<Nav onOpen={() => undefined} />);
    const toggle = screen.getByRole('switch', { name: 'Autoplay next' }) as HTMLInputElement;
    expect(toggle.checked).toBe(false);
    act(() => void fireEvent.click(toggle));
    expect(toggle.checked).toBe(true);
    unmount();
    render(<Nav onOpen={() => undefined} />);
    expect((screen.getByRole('switch', { name: 'Autoplay next' }) as HTMLInputElement).checked).toBe(true);
  });
});
