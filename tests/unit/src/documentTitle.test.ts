import { describe, expect, it } from 'vitest';
import { documentTitle, HOME_TITLE } from '../../../src/lib/documentTitle.js';
import { createRouter } from '@tanstack/react-router';
import { routeTree } from '../../../src/routeTree.gen.js';

describe('document titles', () => {
  it('names each screen, then the product', () => {
    expect(documentTitle('/')).toBe(HOME_TITLE);
    expect(HOME_TITLE).toBe('Tapedeck — session recording and replay');
    expect(documentTitle('/_authed/dashboard')).toBe('Campaign Dashboard — Tapedeck');
    expect(documentTitle('/_authed/createCampaign')).toBe('Create Campaign — Tapedeck');
    expect(documentTitle('/_authed/campaign/$campaignId/')).toBe('Campaign Sessions — Tapedeck');
    expect(documentTitle('/_authed/campaign/$campaignId/session/$sessionId')).toBe('Session Replay — Tapedeck');
    expect(documentTitle('/saved')).toBe('Saved replays — Tapedeck');
  });

  it("says 'Page not found' when no screen matched or a match ended not found", () => {
    expect(documentTitle('__root__')).toBe('Page not found — Tapedeck');
    expect(documentTitle(undefined)).toBe('Page not found — Tapedeck');
    expect(documentTitle('/', true)).toBe('Page not found — Tapedeck');
  });

  it('has a title for every route of the app', () => {
    const router = createRouter({ routeTree, context: {} as never });
    // The screens: routes with no children of their own.
    const ids = Object.values(router.routesById as unknown as Record<string, { id: string; children?: unknown }>)
      .filter((route) => !route.children || Object.keys(route.children).length === 0)
      .map((route) => route.id);
    expect(ids.length).toBeGreaterThan(8);
    expect(ids.filter((id) => documentTitle(id) === 'Page not found — Tapedeck')).toEqual([]);
  });
});
