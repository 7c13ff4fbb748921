import type { Session } from '../../../../common/api-types.js';
import type { RecordingFile } from '../../../../src/offline/recordingFile.js';
import { VISITOR_BROWSER } from '../../../helpers/visitor.js';

// Recording files as the server's export writes them (README "Recording files"), for the tests of
// opening and keeping one.

export const fileSession = (sessionId: string, more: Partial<Session> = {}): Session => ({
  sessionId,
  remoteIpAddress: '203.0.113.9',
  ipMode: 'full',
  ...VISITOR_BROWSER,
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130',
  country: 'United Kingdom',
  isBot: false,
  botReason: null,
  browser: 'Chrome',
  os: 'Linux',
  device: 'desktop',
  screenWidth: 1280,
  screenHeight: 800,
  referrer: null,
  entryUrl: 'https://shop.example/',
  startedAt: 1_000,
  lastActivityAt: 61_000,
  durationMs: 60_000,
  pageCount: 1,
  eventCount: 2,
  byteCount: 100,
  countryCode: 'GB',
  activeMs: 1_000,
  pages: ['/'],
  clickCount: 0,
  rageClickCount: 0,
  deadClickCount: 0,
  errorCount: 2,
  failedRequestCount: 1,
  exitUrl: '/',
  ...more,
});

export const recordingFile = (campaignId: string, sessionId: string, text = 'Recorded page'): RecordingFile => ({
  format: 'tapedeck-recording',
  version: 1,
  campaignId,
  session: fileSession(sessionId),
  events: [
    { type: 4, data: { href: 'https://shop.example/', width: 800, height: 600 }, timestamp: 1_000 },
    { type: 2, data: { node: { type: 0, id: 1, childNodes: [{ type: 3, id: 2, textContent: text }] }, initialOffset: { left: 0, top: 0 } }, timestamp: 1_010 },
  ],
});

/** A page tree `depth` elements deep, as rrweb serialises one (each level a node and its childNodes list). */
export function deepTree(depth: number): unknown {
  let node: unknown = { type: 3, id: depth + 1, textContent: 'bottom' };
  for (let level = depth; level >= 1; level--) node = { type: 2, id: level, tagName: 'div', attributes: {}, childNodes: [node] };
  return node;
}

/** The server's replay answer for a session (a page load and an empty snapshot), as the service worker keeps it. */
export const replayAnswer = (init: Record<string, unknown> = {}, answer: Record<string, unknown> = { complete: true }): Uint8Array =>
  new TextEncoder().encode(
    JSON.stringify({
      init: { userAgent: 'Mozilla/5.0', remoteIpAddress: null, ...VISITOR_BROWSER, isBot: false, botReason: null, ...init },
      ...answer,
      events: [
        { type: 4, data: { href: 'https://shop.example/', width: 800, height: 600 }, timestamp: 1 },
        { type: 2, data: { node: { type: 0, id: 1, childNodes: [] } }, timestamp: 2 },
      ],
    }),
  );
