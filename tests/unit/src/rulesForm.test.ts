import { describe, expect, it } from 'vitest';
import {
  BLOCK_SELECTOR_INVALID,
  CONSENT_BUFFER_INVALID,
  MIN_DURATION_INVALID,
  SAMPLE_RATE_INVALID,
  URL_PATTERNS_INVALID,
  newRulesForm,
  rulesForm,
  rulesPayload,
  validateRulesForm,
} from '../../../src/lib/rulesForm.js';
import type { Campaign } from '../../../common/api-types.js';

const fresh = newRulesForm();

describe('the campaign form’s recording rules', () => {
  it('turns what the owner typed into the API’s fields', () => {
    const form = {
      ...fresh,
      sampleRate: '25',
      minDurationSeconds: '8',
      urlInclude: ' /shop/*\n\n/cart ',
      urlExclude: '/shop/account',
      blockSelector: ' .price ',
      privacy: 'strict' as const,
      consent: 'required' as const,
      consentBufferSeconds: '10',
    };
    expect(validateRulesForm(form)).toEqual({});
    expect(rulesPayload(form)).toMatchObject({
      sample_rate: 25,
      min_duration_ms: 8000,
      url_include: ['/shop/*', '/cart'],
      url_exclude: ['/shop/account'],
      block_selector: '.price',
      privacy: 'strict',
      consent: 'required',
      consent_buffer_seconds: 10,
    });
  });

  it.each([
    [{ sampleRate: '0' }, { sampleRate: SAMPLE_RATE_INVALID }],
    [{ sampleRate: '101' }, { sampleRate: SAMPLE_RATE_INVALID }],
    [{ sampleRate: '50.5' }, { sampleRate: SAMPLE_RATE_INVALID }],
    [{ minDurationSeconds: '601' }, { minDurationSeconds: MIN_DURATION_INVALID }],
    [{ urlInclude: 'shop/*' }, { urlInclude: 'A page pattern starts with / (or *): shop/*' }],
    [{ urlExclude: '/a b' }, { urlExclude: 'A page pattern is a path: no query, fragment or spaces: /a b' }],
    [{ urlExclude: `/${'*a'.repeat(11)}` }, { urlExclude: `A page pattern has at most 10 stars (*): /${'*a'.repeat(11)}` }],
    [{ urlInclude: Array.from({ length: 21 }, (_, i) => `/p${i}`).join('\n') }, { urlInclude: URL_PATTERNS_INVALID }],
    [{ blockSelector: '.price[' }, { blockSelector: BLOCK_SELECTOR_INVALID }],
    [{ blockSelector: '.a { color: red }' }, { blockSelector: BLOCK_SELECTOR_INVALID }],
    [{ consentBufferSeconds: '61' }, { consentBufferSeconds: CONSENT_BUFFER_INVALID }],
  ])('shows each wrong value under its field (%#)', (change, errors) => {
    expect(validateRulesForm({ ...fresh, ...change })).toEqual(errors);
  });

  it('opens a stored campaign with its rules, and one cached by an older build with the defaults', () => {
    const stored = {
      min_duration_ms: 2500,
      url_exclude: ['/a', '/b/*'],
      privacy: 'relaxed',
      consent: 'required',
      consent_buffer_seconds: 5,
    } as Partial<Campaign>;
    expect(rulesForm(stored as Campaign)).toMatchObject({
      minDurationSeconds: '3',
      urlExclude: '/a\n/b/*',
      privacy: 'relaxed',
      consent: 'required',
      consentBufferSeconds: '5',
    });
    expect(rulesForm({} as Campaign)).toEqual(fresh);
  });
});
