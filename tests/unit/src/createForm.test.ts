import { describe, expect, it } from 'vitest';
import {
  campaignForm,
  newCampaignForm,
  parseLimit,
  toCreatePayload,
  toUpdatePayload,
  validateCampaignForm,
  type CampaignForm,
} from '../../../src/lib/createForm.js';
import { toLocalInputValue } from '../../../src/lib/format.js';
import type { Campaign } from '../../../common/api-types.js';
import { newRulesForm } from '../../../src/lib/rulesForm.js';
import { DEFAULT_RULES } from '../../integration/recording-rules-support.js';
import { DEFAULT_MASKED_PARAMS, MASKED_PARAMS_INVALID } from '../../../common/recording-rules.js';

/** A new form's recording rules (the create body's words for them: DEFAULT_RULES). */
const RULES = newRulesForm();

const valid: CampaignForm = {
  name: 'Spring sale',
  domains: 'example.com, localhost:3000',
  limit: '5',
  startDate: '2026-11-21T10:00',
  endDate: '2026-12-21T10:00',
  captureConsole: true,
  retentionDays: '90',
  ipMode: 'truncated',
  ...RULES,
};

const LIMIT_MESSAGE = 'Session limit must be a whole number from 1 to 20, or 0 for no limit';

describe('campaign form', () => {
  it('accepts a valid form and builds the create payload', () => {
    expect(validateCampaignForm(valid)).toEqual({});
    const payload = toCreatePayload({
      ...valid,
      name: '  Spring sale ',
      domains: ' example.com ,, localhost:3000 ,',
      retentionDays: '0',
      ipMode: 'none',
      captureConsole: false,
    });
    expect(payload).toEqual({
      name: 'Spring sale',
      domains: 'example.com, localhost:3000',
      limit: 5,
      start_date_time: new Date('2026-11-21T10:00').getTime(),
      end_date_time: new Date('2026-12-21T10:00').getTime(),
      captureConsole: false,
      retention_days: 0,
      ip_mode: 'none',
      ...DEFAULT_RULES,
    });
  });

  it('opens a new campaign with 5 sessions, 90 days and truncated addresses', () => {
    const form = newCampaignForm(new Date('2026-11-21T10:00'));
    expect(form).toEqual({
      name: '',
      domains: '',
      limit: '5',
      startDate: '2026-11-21T10:00',
      endDate: '',
      captureConsole: true,
      retentionDays: '90',
      ipMode: 'truncated',
      ...RULES,
    });
    expect(RULES).toMatchObject({ keepQuery: false, maskedParams: DEFAULT_MASKED_PARAMS.join(', '), sampleRate: '100', privacy: 'balanced', consent: 'none' });
  });

  it('keeps query strings with the masked parameters listed, and refuses names a query string cannot hold', () => {
    expect(toCreatePayload({ ...valid, keepQuery: true, maskedParams: ' token, , Code ' })).toMatchObject({
      keep_query: true,
      masked_params: ['token', 'Code'],
    });
    for (const text of ['to ken', 'a=b', 'x#', 'a&b', 'x'.repeat(101), Array.from({ length: 51 }, (_, i) => `p${i}`).join(',')]) {
      expect(validateCampaignForm({ ...valid, maskedParams: text }), text).toEqual({ maskedParams: MASKED_PARAMS_INVALID });
    }
    expect(validateCampaignForm({ ...valid, maskedParams: '' })).toEqual({});
  });

  it('reports every field with its own message', () => {
    expect(validateCampaignForm({ ...valid, name: '   ', domains: '', limit: '', startDate: '', endDate: '' })).toEqual({
      name: 'Campaign name is required',
      domains: 'At least one domain is required',
      limit: LIMIT_MESSAGE,
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

  it('takes a session limit of 1 to 20 or 0 (no limit), and refuses anything else instead of turning it into 0', () => {
    expect(parseLimit('7')).toBe(7);
    expect(parseLimit(' 20 ')).toBe(20);
    expect(parseLimit('0')).toBe(0);
    for (const text of ['abc', '', '21', '99', '-1', '2.5', '1e1', '5abc']) {
      expect(parseLimit(text), text).toBeNull();
      expect(validateCampaignForm({ ...valid, limit: text }), text).toEqual({ limit: LIMIT_MESSAGE });
    }
    expect(validateCampaignForm({ ...valid, limit: '0' })).toEqual({});
    expect(validateCampaignForm({ ...valid, limit: '20' })).toEqual({});
  });
});

describe('edit form', () => {
  const campaign: Campaign = {
    id: 'c1',
    name: 'Spring sale',
    domains: 'example.com',
    limit: 0,
    start_date_time: new Date('2026-11-21T10:00').getTime(),
    end_date_time: new Date('2026-12-21T10:00:42').getTime(),
    captureConsole: false,
    retention_days: 30,
    ip_mode: 'full',
    keep_query: true,
    masked_params: ['token', 'ref'],
    sample_rate: 25,
    url_include: ['/shop/*', '/cart'],
  };

  it('opens with the stored campaign, older cached campaigns as kept forever with full addresses', () => {
    expect(campaignForm(campaign)).toEqual({
      name: 'Spring sale',
      domains: 'example.com',
      limit: '0',
      startDate: '2026-11-21T10:00',
      endDate: toLocalInputValue(new Date(campaign.end_date_time)),
      captureConsole: false,
      retentionDays: '30',
      ipMode: 'full',
      ...RULES,
      keepQuery: true,
      maskedParams: 'token, ref',
      sampleRate: '25',
      urlInclude: '/shop/*\n/cart',
    });
    const { retention_days: _r, ip_mode: _i, captureConsole: _c, keep_query: _k, masked_params: _m, sample_rate: _s, url_include: _u, ...cached } = campaign;
    expect(campaignForm(cached)).toMatchObject({ retentionDays: '0', ipMode: 'full', captureConsole: true, ...RULES });
  });

  it('sends only the fields changed, leaving untouched dates as stored to the second', () => {
    const opened = campaignForm(campaign);
    expect(toUpdatePayload(opened, opened)).toEqual({});
    expect(toUpdatePayload({ ...opened, domains: ' b.example.com , ', limit: '3', ipMode: 'truncated' }, opened)).toEqual({
      domains: 'b.example.com',
      limit: 3,
      ip_mode: 'truncated',
    });
    expect(toUpdatePayload({ ...opened, startDate: '2026-11-22T09:30', retentionDays: '7', captureConsole: true, name: 'New' }, opened)).toEqual({
      start_date_time: new Date('2026-11-22T09:30').getTime(),
      retention_days: 7,
      captureConsole: true,
      name: 'New',
    });
  });
});
