import { describe, expect, it } from 'vitest';
import { parseLimit, toCreatePayload, validateCampaignForm, type CampaignForm } from '../../../src/lib/createForm.js';

const valid: CampaignForm = {
  name: 'Spring sale',
  domains: 'example.com, localhost:3000',
  limit: '5',
  startDate: '2026-11-21T10:00',
  endDate: '2026-12-21T10:00',
};

describe('create-campaign form', () => {
  it('accepts a valid form and builds the payload', () => {
    expect(validateCampaignForm(valid)).toEqual({});
    const payload = toCreatePayload({ ...valid, name: '  Spring sale ', domains: ' example.com ,, localhost:3000 ,' });
    expect(payload).toEqual({
      name: 'Spring sale',
      domains: 'example.com, localhost:3000',
      limit: 5,
      start_date_time: new Date('2026-11-21T10:00').getTime(),
      end_date_time: new Date('2026-12-21T10:00').getTime(),
    });
  });

  it('reports every field with its own message', () => {
    expect(validateCampaignForm({ name: '   ', domains: '', limit: '', startDate: '', endDate: '' })).toEqual({
      name: 'Campaign name is required',
      domains: 'At least one domain is required',
      startDate: 'Start date is required',
      endDate: 'End date is required',
    });
    expect(validateCampaignForm({ ...valid, domains: ' , ,' }).domains).toBe('At least one domain is required');
  });

  it('rejects invalid domains and accepts localhost, IPv4, IPv6 and host names', () => {
    expect(validateCampaignForm({ ...valid, domains: 'example.com, not a domain' }).domains).toMatch(/^Please enter valid domains \(e\.g\., .+, .+\)$/);
    expect(validateCampaignForm({ ...valid, domains: 'example.c0m' }).domains).toBeDefined();
    expect(validateCampaignForm({ ...valid, domains: 'localhost, localhost:8080, 10.0.0.1:80, ::1, [::1]:3000, shop.example.co.uk' })).toEqual({});
  });

  it('needs the end after the start', () => {
    expect(validateCampaignForm({ ...valid, endDate: valid.startDate }).endDate).toBe('End date must be after start date');
    expect(validateCampaignForm({ ...valid, endDate: '2026-11-20T10:00' }).endDate).toBe('End date must be after start date');
  });

  it('turns non-numeric limits into 0 and leaves min/max to the input', () => {
    expect(parseLimit('abc')).toBe(0);
    expect(parseLimit('')).toBe(0);
    expect(parseLimit('7')).toBe(7);
    expect(validateCampaignForm({ ...valid, limit: '99' })).toEqual({});
  });
});
