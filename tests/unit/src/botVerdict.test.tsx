import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import type { ReplayInit, Session } from '../../../common/api-types.js';
import { SessionCard } from '../../../src/components/SessionCard.js';
import { SessionDetailsModal } from '../../../src/components/SessionModals.js';
import { SessionInfo } from '../../../src/components/SessionInfo.js';
import { renderInRouter } from '../../helpers/render-router.js';

// Bot or human is the server's one verdict (webdriver, crawler user agent or no human input):
// every screen shows it, whatever the webdriver flag says on its own.

afterEach(cleanup);

const crawler = {
  sessionId: 'a1b2c3d4e5f6',
  startedAt: Date.UTC(2026, 10, 20, 9),
  webdriver: false,
  isBot: true,
  botReason: 'Crawler user agent',
  remoteIpAddress: '203.0.113.7',
  country: 'France',
  language: 'en-US',
  timezone: 'Europe/Paris',
  hardwareConcurrency: 8,
  cookiesEnabled: true,
  hasFocus: true,
  fullScreenEnabled: false,
  userAgent: 'Googlebot/2.1',
} as Session;

// The card's star button talks to the server through the query client.
const inRouter = renderInRouter;

describe('bot verdict on every screen', () => {
  it("a session the server calls a bot without webdriver is 'Bot Traffic' on its card, with the reason", async () => {
    inRouter(<SessionCard campaignId="c1" session={crawler} onDetails={() => {}} />);
    const card = await screen.findByTestId('session-card');
    const badge = within(card).getByText('Bot Traffic');
    expect(badge.getAttribute('title')).toBe('Crawler user agent');
    expect(within(card).queryByText('Human User')).toBeNull();
  });

  it("the details modal says 'Bot Traffic' and gives the reason", () => {
    render(<SessionDetailsModal session={crawler} onClose={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Session Details' });
    expect(within(dialog).getByText('Bot Traffic')).toBeTruthy();
    expect(within(dialog).getByText('Crawler user agent')).toBeTruthy();
  });

  it("the replay page's Session Information says 'Bot Traffic' for the same session, with the reason", () => {
    const init: ReplayInit = {
      userAgent: crawler.userAgent,
      remoteIpAddress: crawler.remoteIpAddress,
      language: crawler.language,
      timezone: crawler.timezone,
      webdriver: false,
      isBot: true,
      botReason: 'Crawler user agent',
      cookiesEnabled: true,
      hasFocus: true,
      fullScreenEnabled: false,
    };
    render(<SessionInfo init={init} />);
    const panel = screen.getByRole('region', { name: 'Session Information' });
    // In the strip and in the full details.
    expect(within(panel).getAllByText('Bot Traffic')).toHaveLength(2);
    expect(within(panel).queryByText('Human User')).toBeNull();
    expect(within(panel).getByText('Crawler user agent')).toBeTruthy();
  });
});
