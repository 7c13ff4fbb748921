import { describe, expect, it } from 'vitest';
import { campaignStatus, countCampaigns, filterCampaigns } from '../../../src/lib/campaignStatus.js';
import { formatDuration, formatSessionLimit, shortId } from '../../../src/lib/format.js';
import type { Campaign } from '../../../common/api-types.js';

const now = Date.UTC(2026, 10, 21, 12);
const day = 24 * 3600 * 1000;
const campaign = (id: string, name: string, domains: string, start: number, end: number): Campaign => ({
  id,
  name,
  domains,
  limit: 0,
  start_date_time: start,
  end_date_time: end,
});
const active = campaign('a', 'Spring Sale', 'shop.example.com', now - day, now + day);
const pending = campaign('p', 'Launch', 'launch.example.org, localhost:3000', now + day, now + 2 * day);
const expired = campaign('e', 'Old Promo', 'old.test', now - 2 * day, now - day);

describe('campaign status', () => {
  it('is Pending before the start, Expired after the end, else Active', () => {
    expect(campaignStatus(active, now)).toBe('Active');
    expect(campaignStatus(pending, now)).toBe('Pending');
    expect(campaignStatus(expired, now)).toBe('Expired');
    expect(campaignStatus(active, active.start_date_time)).toBe('Active');
    expect(campaignStatus(active, active.end_date_time)).toBe('Active');
  });

  it('counts the four dashboard counters', () => {
    expect(countCampaigns([active, pending, expired, active], now)).toEqual({ total: 4, active: 2, pending: 1, expired: 1 });
  });
});

describe('dashboard filters', () => {
  const all = [active, pending, expired];
  it('searches name and domains, case-insensitive', () => {
    expect(filterCampaigns(all, 'SPRING', 'all', now)).toEqual([active]);
    expect(filterCampaigns(all, 'LOCALHOST', 'all', now)).toEqual([pending]);
    expect(filterCampaigns(all, '  example ', 'all', now)).toEqual([active, pending]);
    expect(filterCampaigns(all, 'nothing', 'all', now)).toEqual([]);
  });
  it('filters by status, combined with search', () => {
    expect(filterCampaigns(all, '', 'Expired', now)).toEqual([expired]);
    expect(filterCampaigns(all, 'example', 'Pending', now)).toEqual([pending]);
    expect(filterCampaigns(all, '', 'all', now)).toEqual(all);
  });
});

describe('formatting', () => {
  it('shows short US dates, limits and short ids', () => {
    expect(formatDuration(new Date(2026, 0, 5).getTime(), new Date(2026, 1, 9).getTime())).toBe('Jan 5, 2026 - Feb 9, 2026');
    expect(formatSessionLimit(0)).toBe('No limit');
    expect(formatSessionLimit(5)).toBe('5 sessions');
    expect(shortId('0123456789abcdef')).toBe('01234567');
  });
});
