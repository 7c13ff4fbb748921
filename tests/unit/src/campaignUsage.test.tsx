import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Campaign } from '../../../common/api-types.js';
import { CampaignUsage, CampaignUsageFacts } from '../../../src/components/CampaignUsage.js';
import {
  ENDED_NOTICE,
  LIMIT_REACHED_NOTICE,
  NO_DATA_HINT,
  NOT_STARTED_NOTICE,
  formatSessionUsage,
  lastDataText,
  recordingNotice,
} from '../../../src/lib/campaignUsage.js';

const day = 86_400_000;
const now = 1_800_000_000_000;
const campaign = (over: Partial<Campaign> = {}): Campaign => ({
  id: 'c1',
  name: 'Shop',
  domains: 'shop.example.com',
  limit: 5,
  start_date_time: now - day,
  end_date_time: now + day,
  session_count: 2,
  last_data_at: now - 3 * 60_000,
  ...over,
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('a campaign’s use, in words', () => {
  it('says "N of L sessions", or "N sessions" when the limit is 0', () => {
    expect(formatSessionUsage(campaign())).toBe('2 of 5 sessions');
    expect(formatSessionUsage(campaign({ limit: 0, session_count: 7 }))).toBe('7 sessions');
    expect(formatSessionUsage(campaign({ limit: 0, session_count: 1 }))).toBe('1 session');
    expect(formatSessionUsage(campaign({ session_count: undefined }))).toBe('0 of 5 sessions');
  });

  it('says why new visitors are not recorded: limit reached, ended, not started', () => {
    expect(recordingNotice(campaign(), now)).toBeNull();
    expect(recordingNotice(campaign({ session_count: 5 }), now)).toBe(LIMIT_REACHED_NOTICE);
    expect(recordingNotice(campaign({ limit: 0, session_count: 500 }), now)).toBeNull();
    expect(recordingNotice(campaign({ end_date_time: now - 1 }), now)).toBe(ENDED_NOTICE);
    expect(recordingNotice(campaign({ start_date_time: now + 1 }), now)).toBe(NOT_STARTED_NOTICE);
    expect(LIMIT_REACHED_NOTICE).toContain('new visitors are not recorded');
  });

  it('tells when data last arrived, and hints when it never has', () => {
    expect(lastDataText(now - 3 * 60_000, now)).toBe('Last data received 3 minutes ago');
    expect(lastDataText(null, now)).toBe('No data received yet — check that the tag is on your site and the domain matches');
    expect(lastDataText(undefined, now)).toBe(NO_DATA_HINT);
  });
});

function renderUsage(answer: Campaign[]) {
  vi.stubGlobal('fetch', async () => Response.json({ data: answer }));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <CampaignUsage campaignId="c1" sessionsChangedAt={0} />
    </QueryClientProvider>,
  );
}

describe('the sessions page’s usage block', () => {
  it('shows the use, the last data and the limit-reached notice', async () => {
    vi.useFakeTimers({ now, toFake: ['Date'] });
    renderUsage([campaign({ session_count: 5, last_data_at: now - 3 * 60_000 })]);
    expect((await screen.findByTestId('campaign-usage')).textContent).toBe('5 of 5 sessions');
    expect(screen.getByRole('status').textContent).toBe(LIMIT_REACHED_NOTICE);
    expect(screen.getByTestId('campaign-last-data').textContent).toBe('Last data received 3 minutes ago');
    vi.useRealTimers();
  });

  it('shows the ended notice and the no-data hint', async () => {
    renderUsage([campaign({ end_date_time: Date.now() - day, start_date_time: Date.now() - 2 * day, last_data_at: null })]);
    expect((await screen.findByRole('status')).textContent).toBe(ENDED_NOTICE);
    expect(screen.getByTestId('campaign-last-data').textContent).toBe(NO_DATA_HINT);
  });

  it('shows no notice while the campaign records', async () => {
    renderUsage([campaign({ start_date_time: Date.now() - day, end_date_time: Date.now() + day })]);
    expect((await screen.findByTestId('campaign-usage')).textContent).toBe('2 of 5 sessions');
    expect(screen.queryByRole('status')).toBeNull();
  });
});

describe('the dashboard row’s usage facts', () => {
  it('shows "N sessions" for a campaign without limit and its last data', () => {
    render(
      <dl>
        <CampaignUsageFacts campaign={campaign({ limit: 0, session_count: 12, last_data_at: null })} />
      </dl>,
    );
    expect(screen.getByTestId('campaign-usage').textContent).toBe('12 sessions');
    expect(screen.getByTestId('campaign-last-data').textContent).toBe(NO_DATA_HINT);
    expect(screen.queryByTestId('campaign-storage')).toBeNull();
  });

  it('shows the storage used against the quota, and says when it is full', () => {
    const gb = 1024 ** 3;
    render(
      <dl>
        <CampaignUsageFacts campaign={campaign({ storage: { usedBytes: 1.5 * 1024 ** 2, quotaBytes: 10 * gb, full: false } })} />
        <CampaignUsageFacts campaign={{ ...campaign({ id: 'c2' }), storage: { usedBytes: 2 * gb, quotaBytes: 2 * gb, full: true } }} />
      </dl>,
    );
    expect(screen.getAllByTestId('campaign-storage').map((dd) => dd.textContent)).toEqual([
      '1.5 MB of 10 GB stored',
      '2.0 GB of 2.0 GB stored — full: new visitors are not recorded',
    ]);
  });
});
