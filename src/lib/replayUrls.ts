// Where a replay lives, built in one place: the API call that answers it (also recognised by the
// service worker) and the app page that shows it.

import type { SessionListContext } from './sessionListContext.js';

const API_PREFIX = '/api/v1/replay/retrieve/';

/** GET path of one session's replay data. */
export function replayApiPath(campaignId: string, sessionId: string): string {
  return `${API_PREFIX}${encodeURIComponent(campaignId)}/${encodeURIComponent(sessionId)}`;
}

/** The ids in a replay API path, or null for any other path (the demo included). */
export function replayIdsFromApiPath(pathname: string): { campaignId: string; sessionId: string } | null {
  if (!pathname.startsWith(API_PREFIX)) return null;
  const parts = pathname.slice(API_PREFIX.length).split('/');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return null;
  try {
    return { campaignId: decodeURIComponent(parts[0]), sessionId: decodeURIComponent(parts[1]) };
  } catch {
    return null;
  }
}

/** The ids in a replay page's path (/campaign/{campaignId}/session/{sessionId}), or null. */
export function replayIdsFromPagePath(pathname: string): { campaignId: string; sessionId: string } | null {
  const match = /^\/campaign\/([^/]+)\/session\/([^/]+)\/?$/.exec(pathname);
  if (!match) return null;
  try {
    return { campaignId: decodeURIComponent(match[1]!), sessionId: decodeURIComponent(match[2]!) };
  } catch {
    return null;
  }
}

/**
 * Router link options of a session's replay page (/campaign/{campaignId}/session/{sessionId}),
 * with the sessions list it is opened from (Previous/Next session follow it).
 */
export function replayPageLink(campaignId: string, sessionId: string, list: SessionListContext = {}) {
  return { to: '/campaign/$campaignId/session/$sessionId', params: { campaignId, sessionId }, search: list } as const;
}
