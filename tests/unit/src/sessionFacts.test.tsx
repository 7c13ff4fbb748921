import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { filterParams, validateSessionFilters } from '../../../src/lib/sessionFilters.js';
import { CountryName, ProblemBadges, SessionSummary } from '../../../src/components/SessionFacts.js';
import { FILTER_TYPING_PAUSE_MS, SessionFilterBar } from '../../../src/components/SessionFilterBar.js';
import { DeleteSessionModal } from '../../../src/components/SessionModals.js';
import { SessionCard } from '../../../src/components/SessionCard.js';
import { SessionRow, SessionTable } from '../../../src/components/SessionTable.js';
import { renderInRouter } from '../../helpers/render-router.js';
import type { Session } from '../../../common/api-types.js';

afterEach(cleanup);

const session = (overrides: Partial<Session> = {}): Session => ({
  sessionId: 'abcdef1234567890',
  remoteIpAddress: '203.0.113.9',
  language: 'de-DE',
  timezone: 'Europe/Berlin',
  hardwareConcurrency: 8,
  webdriver: false,
  cookiesEnabled: true,
  hasFocus: true,
  fullScreenEnabled: false,
  userAgent: 'UA',
  country: 'Germany',
  countryCode: 'DE',
  isBot: false,
  botReason: null,
  browser: 'Chrome 131',
  os: 'Linux',
  device: 'mobile',
  screenWidth: 390,
  screenHeight: 844,
  referrer: null,
  entryUrl: 'https://shop.example/landing',
  startedAt: Date.UTC(2026, 0, 1, 10, 0),
  lastActivityAt: Date.UTC(2026, 0, 1, 10, 2),
  durationMs: 125_000,
  pageCount: 3,
  eventCount: 100,
  byteCount: 1000,
  activeMs: 60_000,
  pages: ['/landing', '/cart', '/pay'],
  clickCount: 9,
  rageClickCount: 1,
  deadClickCount: 2,
  errorCount: 0,
  failedRequestCount: 1,
  exitUrl: '/pay',
  ...overrides,
});

describe('filters in the URL', () => {
  it('keeps valid filters and drops the rest, so a hand-edited link still opens', () => {
    expect(
      validateSessionFilters({
        from: '1000',
        to: 2000,
        minDuration: '-5',
        url: ' /cart ',
        country: 'de',
        device: 'watch',
        browser: 'Firefox',
        hasErrors: 'true',
        hasRageClicks: 'no',
        hasDeadClicks: true,
        sort: 'longest',
        junk: 1,
      }),
    ).toEqual({ from: 1000, to: 2000, url: '/cart', country: 'DE', browser: 'Firefox', hasErrors: true, hasDeadClicks: true, sort: 'longest' });
    expect(validateSessionFilters({ sort: 'newest', country: 'Germany' })).toEqual({});
    expect(validateSessionFilters({ starred: 'true' })).toEqual({ starred: true });
    expect(validateSessionFilters({ starred: 'yes' })).toEqual({});
  });
  it('become the API query parameters', () => {
    expect(filterParams({ hasErrors: true, sort: 'errors', minDuration: 5000 }).toString()).toBe('hasErrors=true&sort=errors&minDuration=5000');
  });
  it('a text filter applies by itself once typing pauses', () => {
    vi.useFakeTimers();
    try {
      const onChange = vi.fn();
      render(<SessionFilterBar filters={{ country: 'DE' }} onChange={onChange} />);
      fireEvent.change(screen.getByLabelText('Browser', { exact: true }), { target: { value: 'Firef' } });
      vi.advanceTimersByTime(FILTER_TYPING_PAUSE_MS - 50);
      fireEvent.change(screen.getByLabelText('Browser', { exact: true }), { target: { value: 'Firefox' } });
      vi.advanceTimersByTime(FILTER_TYPING_PAUSE_MS - 50);
      expect(onChange).not.toHaveBeenCalled();
      vi.advanceTimersByTime(50);
      expect(onChange).toHaveBeenCalledExactlyOnceWith({ country: 'DE', browser: 'Firefox' });
    } finally {
      vi.useRealTimers();
    }
  });
  it('the filter bar reports each change', () => {
    const onChange = vi.fn();
    render(<SessionFilterBar filters={{ sort: 'errors' }} onChange={onChange} />);
    fireEvent.click(screen.getByLabelText('Has rage clicks'));
    expect(onChange).toHaveBeenLastCalledWith({ sort: 'errors', hasRageClicks: true });
    fireEvent.click(screen.getByLabelText('Quick backs'));
    expect(onChange).toHaveBeenLastCalledWith({ sort: 'errors', hasQuickBacks: true });
    fireEvent.click(screen.getByLabelText('Excessive scrolling'));
    expect(onChange).toHaveBeenLastCalledWith({ sort: 'errors', hasExcessiveScrolling: true });
    fireEvent.change(screen.getByLabelText('Device'), { target: { value: 'tablet' } });
    expect(onChange).toHaveBeenLastCalledWith({ sort: 'errors', device: 'tablet' });
    const url = screen.getByLabelText('Visited page');
    fireEvent.change(url, { target: { value: '/checkout' } });
    fireEvent.keyDown(url, { key: 'Enter' });
    expect(onChange).toHaveBeenLastCalledWith({ sort: 'errors', url: '/checkout' });
  });
});

describe('a session you can recognise', () => {
  const shopper = session({ userId: 'cust-001', events: { add_to_cart: 3, checkout: 1 }, lastActivityAt: Date.now() - 5_000 });

  it('titles the card by who, where and what; the browser details are folded into the card', async () => {
    renderInRouter(<SessionCard campaignId="c1" session={shopper} onDetails={() => {}} />);
    const card = await screen.findByTestId('session-card');
    expect(within(card).getByRole('heading', { level: 2 }).textContent).toBe('cust-001 abcdef12');
    expect(within(card).getByText('/landing → /pay · 3 pages')).toBeTruthy();
    expect(within(card).getByText('100 events · 9 clicks · add_to_cart ×3, checkout')).toBeTruthy();
    expect(within(card).getByText('Germany')).toBeTruthy();
    expect(within(card).getByText('2m 5s')).toBeTruthy();
    expect(within(card).getByText('2 dead clicks')).toBeTruthy();
    // Batches are arriving: the card says Live.
    expect(within(card).getByTestId('session-live')).toBeTruthy();
    // Hardware and chips are there, behind "Browser details", closed.
    const details = within(card).getByText('Browser details').closest('details');
    expect(details?.open).toBe(false);
    expect(within(details as HTMLElement).getByText('8 cores')).toBeTruthy();
    expect(within(details as HTMLElement).getByText('Cookies enabled')).toBeTruthy();
  });

  it('calls a visitor not identified Anonymous; a visit that stopped sending is not Live', async () => {
    renderInRouter(
      <SessionTable>
        <SessionRow campaignId="c1" session={session({ userId: null, pages: ['/landing'], exitUrl: '/landing', pageCount: 1 })} onDetails={() => {}} />
      </SessionTable>,
    );
    const row = await screen.findByTestId('session-row');
    expect(within(row).getByTestId('session-who').textContent).toBe('Anonymous abcdef12');
    expect(within(row).getByText('/landing · 1 page')).toBeTruthy();
    expect(within(row).queryByTestId('session-live')).toBeNull();
  });
});

describe('the session card facts', () => {
  it('shows start time, duration, browser/OS/device and country; the device as an SVG icon, not an emoji', () => {
    const { container } = render(<SessionSummary session={session()} now={Date.UTC(2026, 0, 1, 12, 0)} />);
    expect(screen.getByText('2 hours ago')).toBeTruthy();
    expect(screen.getByText('2m 5s')).toBeTruthy();
    expect(screen.getByText('Chrome 131 · Linux', { exact: false })).toBeTruthy();
    expect(screen.getByText('Germany')).toBeTruthy();
    expect(container.querySelector('svg.device-icon')).toBeTruthy();
    expect(container.textContent).not.toMatch(/\p{Extended_Pictographic}/u);
  });
  it('names the country with its code as the tooltip, no flag emoji', () => {
    render(<CountryName session={session()} />);
    expect(screen.getByText('Germany').getAttribute('title')).toBe('DE');
  });
  it('badges only the problems the session has', () => {
    render(<ProblemBadges session={session()} />);
    const badges = within(screen.getByRole('list', { name: 'Problems' }))
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(badges).toEqual(['1 failed request', '1 rage click', '2 dead clicks']);
  });
  it('badges quick backs and excessive scrolling', () => {
    render(<ProblemBadges session={{ quickBackCount: 1, excessiveScrollCount: 2 }} />);
    const badges = within(screen.getByRole('list', { name: 'Problems' }))
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(badges).toEqual(['1 quick back', '2 excessive scrolls']);
  });
  it('asks before deleting a session', () => {
    const onConfirm = vi.fn();
    render(<DeleteSessionModal sessionId="abcdef1234567890" deleting={false} onCancel={() => undefined} onConfirm={onConfirm} />);
    const dialog = screen.getByRole('dialog', { name: 'Delete Session?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete Session' }));
    expect(onConfirm).toHaveBeenCalledOnce();
  });
});
