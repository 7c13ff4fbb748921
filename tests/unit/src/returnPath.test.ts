import { describe, expect, it } from 'vitest';
import { DEFAULT_RETURN_PATH, safeReturnPath } from '../../../common/return-path.js';
import { createMemoryHistory, createRouter } from '@tanstack/react-router';
import { routeTree } from '../../../src/routeTree.gen.js';
import { isProtectedPath } from '../../../src/auth/protectedRoutes.js';
import { validateLandingSearch } from '../../../src/auth/returnTo.js';
import { replayApiPath, replayIdsFromApiPath, replayIdsFromPagePath, replayPageLink } from '../../../src/lib/replayUrls.js';

describe('the landing page carries where a signed-out user was going', () => {
  it('keeps a path of this app in ?returnTo and drops anything else', () => {
    expect(validateLandingSearch({ returnTo: '/campaign/c1?tab=2' })).toEqual({ returnTo: '/campaign/c1?tab=2' });
    for (const returnTo of ['//evil.example', 'https://evil.example/', '/\\evil.example', 42, undefined]) {
      expect(validateLandingSearch({ returnTo }), String(returnTo)).toEqual({});
    }
  });
});

describe('safe return path after sign-in', () => {
  it('keeps paths of this app, with their search and hash', () => {
    expect(safeReturnPath('/campaign/c1/session/s1')).toBe('/campaign/c1/session/s1');
    expect(safeReturnPath('/dashboard?x=1#top')).toBe('/dashboard?x=1#top');
    expect(DEFAULT_RETURN_PATH).toBe('/dashboard');
  });

  it('refuses anything a browser would read as another origin', () => {
    for (const value of [
      '/\\evil.example',
      '\\\\evil.example',
      '//evil.example',
      'https://evil.example/',
      '/\t/evil.example',
      '/a\nb',
      'dashboard',
      '',
      null,
      undefined,
    ]) {
      expect(safeReturnPath(value), String(value)).toBeNull();
    }
  });

  it('cuts very long paths', () => {
    expect(safeReturnPath(`/${'a'.repeat(5000)}`)).toHaveLength(1000);
  });
});

describe('replay URLs', () => {
  it('builds the API path and reads the ids back, encoded', () => {
    const path = replayApiPath('camp 1', 'sess/2');
    expect(path).toBe('/api/v1/replay/retrieve/camp%201/sess%2F2');
    expect(replayIdsFromApiPath(path)).toEqual({ campaignId: 'camp 1', sessionId: 'sess/2' });
  });

  it('does not take the demo or other paths for a session replay', () => {
    expect(replayIdsFromApiPath('/api/v1/replay/retrieve/demo')).toBeNull();
    expect(replayIdsFromApiPath('/api/v1/replay/retrieve/a/b/c')).toBeNull();
    expect(replayIdsFromApiPath('/api/v1/campaign/getAll')).toBeNull();
  });

  it('knows a replay page from its path (the app then loads its code early)', () => {
    expect(replayIdsFromPagePath('/campaign/c%201/session/s1')).toEqual({ campaignId: 'c 1', sessionId: 's1' });
    expect(replayIdsFromPagePath('/campaign/c1/session/s1/')).toEqual({ campaignId: 'c1', sessionId: 's1' });
    for (const other of ['/campaign/c1', '/campaign/c1/edit', '/campaign/c1/session/s1/x', '/shared/t', '/campaign/%E0/session/s1']) {
      expect(replayIdsFromPagePath(other), other).toBeNull();
    }
  });

  it('links to the replay page, with the sessions list it is opened from', () => {
    expect(replayPageLink('c1', 's1')).toEqual({ to: '/campaign/$campaignId/session/$sessionId', params: { campaignId: 'c1', sessionId: 's1' }, search: {} });
    expect(replayPageLink('c1', 's1', { sort: 'longest', q: 'kettle' }).search).toEqual({ sort: 'longest', q: 'kettle' });
  });
});

describe('login-required pages, from the route tree', () => {
  // Only matching is exercised: no route loads, so the router needs no context.
  const router = createRouter({ routeTree, context: {} as never, history: createMemoryHistory({ initialEntries: ['/'] }) });

  it('are the screens under the _authed layout', () => {
    for (const path of ['/dashboard', '/createCampaign', '/campaign/c1', '/campaign/c1/', '/campaign/c1/session/s1'])
      expect(isProtectedPath(router, path), path).toBe(true);
  });

  it('leave out the public pages and unknown paths', () => {
    for (const path of ['/', '/saved', '/auth/google/callback', '/nowhere', '/campaign']) expect(isProtectedPath(router, path), path).toBe(false);
  });
});
