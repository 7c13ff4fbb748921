import { describe, expect, it } from 'vitest';
import type { AnyRoute } from '@tanstack/react-router';
import { Route as Sessions } from '../../../src/routes/_authed/campaign/$campaignId/index.js';
import { Route as Insights } from '../../../src/routes/_authed/campaign/$campaignId/insights.js';
import { Route as Funnels } from '../../../src/routes/_authed/campaign/$campaignId/funnels.js';
import { Route as Heatmaps } from '../../../src/routes/_authed/campaign/$campaignId/heatmaps.js';
import { Route as Replay } from '../../../src/routes/_authed/campaign/$campaignId/session/$sessionId.js';
import { Route as SignInCallback } from '../../../src/routes/auth/google/callback.js';
import { CALLBACK_MAX_CHARS } from '../../../common/sign-in.js';
import { DEFAULT_DAYS } from '../../../src/api/insights.js';
import { listFilters, type SessionListSearch } from '../../../src/lib/sessionListContext.js';

// Each list screen's URL state as its route declares it: one validateSearch (anything invalid
// dropped to its default, never a crash) and the stripSearchParams middleware that leaves the
// defaults out of the address.

const validate = (route: AnyRoute, search: Record<string, unknown>) => (route.options.validateSearch as (s: Record<string, unknown>) => unknown)(search);
/** The search a link or navigate to `route` puts in the address. */
const inAddress = (route: AnyRoute, search: Record<string, unknown>) =>
  (route.options.search!.middlewares as ((ctx: { search: unknown; next: (s: unknown) => unknown }) => unknown)[]).reduceRight<(s: unknown) => unknown>(
    (next, middleware) => (s) => middleware({ search: s, next }),
    (s) => s,
  )(search);

describe('the sessions list URL', () => {
  it('keeps the search, type, filters and sort, and drops anything invalid to its default', () => {
    expect(validate(Sessions, { q: ' fr-FR ', type: 'bot', sort: 'longest', hasErrors: 'true' })).toEqual({
      q: 'fr-FR',
      type: 'bot',
      sort: 'longest',
      hasErrors: true,
    });
    expect(validate(Sessions, { q: { a: 1 }, type: 'robot', sort: 'sideways', funnel: 'spring', step: 2, junk: 1 })).toEqual({
      q: '',
      type: 'all',
      sort: 'newest',
    });
    // The router reads an all-digit value as a number.
    expect(validate(Sessions, { q: 42 })).toEqual({ q: '42', type: 'all', sort: 'newest' });
  });

  it('hands the screen no invalid value: the router merges its raw search under what validateSearch returns', () => {
    const raw = { sort: 'sideways', funnel: 'spring', type: 'robot', q: {}, country: 'Germany', from: -1, junk: 1 };
    const seen = { ...raw, ...(validate(Sessions, raw) as SessionListSearch) } as SessionListSearch;
    expect({ q: seen.q, type: seen.type, sort: seen.sort, filters: listFilters(seen) }).toEqual({ q: '', type: 'all', sort: 'newest', filters: {} });
  });

  it('leaves the defaults out of the address', () => {
    expect(inAddress(Sessions, { q: '', type: 'all', sort: 'errors' })).toEqual({ sort: 'errors' });
    expect(inAddress(Sessions, { q: 'ja', type: 'human', sort: 'newest' })).toEqual({ q: 'ja', type: 'human' });
    // A link naming the default sort (a sort select set back to "newest") leaves it out too.
    expect(inAddress(Sessions, { q: '', type: 'all', sort: 'newest', hasErrors: true })).toEqual({ hasErrors: true });
  });
});

describe.each([
  ['insights', Insights],
  ['funnels', Funnels],
])('the %s URL', (_name, route) => {
  it('keeps an offered range, drops anything else to the default, and leaves the default out of the address', () => {
    expect([validate(route, { days: '7' }), validate(route, { days: 5, junk: 1 }), validate(route, {})]).toEqual([
      { days: 7 },
      { days: DEFAULT_DAYS },
      { days: DEFAULT_DAYS },
    ]);
    expect([inAddress(route, { days: DEFAULT_DAYS }), inAddress(route, { days: 90 })]).toEqual([{}, { days: 90 }]);
  });
});

describe('the heatmaps URL', () => {
  it('keeps page, device class, layer, range and filters, and drops anything invalid to its default', () => {
    expect(validate(Heatmaps, { path: '/cart', device: 'mobile', layer: 'rage', days: 7, type: 'bot', country: 'de' })).toEqual({
      path: '/cart',
      device: 'mobile',
      layer: 'rage',
      days: 7,
      type: 'bot',
      country: 'DE',
    });
    expect(validate(Heatmaps, { path: 'cart', device: 'watch', layer: 'sparkle', days: 'x', type: 'robot', sort: 'longest' })).toEqual({
      layer: 'all',
      days: DEFAULT_DAYS,
    });
  });

  it('hands the screen no invalid value under the validated one', () => {
    const raw = { path: 'cart', device: 'watch', layer: 'sparkle', days: 'x', type: 'robot', country: 'Germany', hasErrors: 'no' };
    expect({ ...raw, ...(validate(Heatmaps, raw) as object) }).toEqual({ layer: 'all', days: DEFAULT_DAYS });
  });

  it('leaves the defaults out of the address', () => {
    expect(inAddress(Heatmaps, { layer: 'all', days: DEFAULT_DAYS, path: '/' })).toEqual({ path: '/' });
    expect(inAddress(Heatmaps, { layer: 'dead', days: 1 })).toEqual({ layer: 'dead', days: 1 });
  });
});

describe('the replay page URL', () => {
  it('keeps the moment and the list it was opened from, and hands the screen no invalid value', () => {
    expect(validate(Replay, { t: '90.5', q: ' fr ', sort: 'longest', hasErrors: 'true', junk: 1 })).toEqual({
      t: 90,
      q: 'fr',
      sort: 'longest',
      hasErrors: true,
    });
    const raw = { t: 'soon', q: {}, type: 'robot', sort: 'sideways', from: -1 };
    expect({ ...raw, ...(validate(Replay, raw) as object) }).toEqual({});
  });
});

describe('the sign-in callback URL', () => {
  it("keeps the provider's code and state as text, and drops one longer than the server takes", () => {
    expect(validate(SignInCallback, { code: 4242, state: 'abc' })).toEqual({ code: '4242', state: 'abc' });
    const raw = { code: 'x'.repeat(CALLBACK_MAX_CHARS.code + 1), state: { a: 1 } };
    expect({ ...raw, ...(validate(SignInCallback, raw) as object) }).toEqual({});
    expect(validate(SignInCallback, { code: 'x'.repeat(CALLBACK_MAX_CHARS.code) })).toEqual({ code: 'x'.repeat(CALLBACK_MAX_CHARS.code) });
  });
});
