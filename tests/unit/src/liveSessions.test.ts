import { describe, expect, it } from 'vitest';
import type { Session } from '../../../common/api-types.js';
import type { SessionsQuery } from '../../../src/api/sessions.js';
import { mergeLiveChange, parseLiveMessage, type SessionPages } from '../../../src/lib/liveSessions.js';

const session = (sessionId: string, overrides: Partial<Session> = {}): Session => ({
  sessionId,
  remoteIpAddress: '203.0.113.9',
  language: 'de-DE',
  timezone: 'Europe/Berlin',
  hardwareConcurrency: 8,
  webdriver: false,
  cookiesEnabled: true,
  hasFocus: true,
  fullScreenEnabled: false,
  userAgent: 'UA',
  country: 'Germany',
  countryCode: 'DE',
  isBot: false,
  botReason: null,
  browser: 'Chrome 131',
  os: 'Linux',
  device: 'desktop',
  screenWidth: 1280,
  screenHeight: 720,
  referrer: null,
  entryUrl: 'https://shop.example/',
  startedAt: 1000,
  lastActivityAt: 2000,
  durationMs: 1000,
  pageCount: 1,
  eventCount: 10,
  byteCount: 100,
  activeMs: 500,
  pages: ['/'],
  clickCount: 0,
  rageClickCount: 0,
  deadClickCount: 0,
  errorCount: 0,
  failedRequestCount: 0,
  exitUrl: '/',
  ...overrides,
});

const pages = (...lists: Session[][]): SessionPages => ({
  pages: lists.map((sessions, i) => ({ sessions, nextCursor: i < lists.length - 1 ? `c${i}` : null, counts: { total: 9, human: 9, bot: 0 } })),
  pageParams: lists.map((_, i) => (i === 0 ? null : `c${i - 1}`)),
});

const ids = (data: SessionPages | undefined) => data?.pages.map((page) => page.sessions.map((s) => s.sessionId));
const all: SessionsQuery = { search: '', type: 'all', filters: {} };

describe('merging the live stream into a cached list', () => {
  it('puts a new session at the top of an unfiltered newest-first list, and asks for the counters', () => {
    const data = pages([session('b'), session('a')], [session('z')]);
    const merged = mergeLiveChange(data, all, { kind: 'session', session: session('c') });
    expect(ids(merged.data)).toEqual([['c', 'b', 'a'], ['z']]);
    expect(merged.refetch).toBe(true);
  });

  it('replaces a known session in place, on whichever page it is, without a refetch', () => {
    const data = pages([session('b'), session('a')], [session('z')]);
    const merged = mergeLiveChange(data, all, { kind: 'session', session: session('z', { durationMs: 5000 }) });
    expect(ids(merged.data)).toEqual([['b', 'a'], ['z']]);
    expect(merged.data?.pages[1].sessions[0].durationMs).toBe(5000);
    expect(merged.data?.pages[0]).toBe(data.pages[0]);
    expect(merged.refetch).toBe(false);
  });

  it('keeps the star a listed session had when a live update (which carries none) replaces it', () => {
    const data = pages([session('b', { starred: true }), session('a')]);
    const merged = mergeLiveChange(data, all, { kind: 'session', session: session('b', { durationMs: 7000 }) });
    expect(merged.data?.pages[0].sessions[0]).toMatchObject({ sessionId: 'b', durationMs: 7000, starred: true });
  });

  it('never shows a session twice', () => {
    const data = pages([session('b'), session('a')]);
    const once = mergeLiveChange(data, all, { kind: 'session', session: session('c') }).data;
    const twice = mergeLiveChange(once, all, { kind: 'session', session: session('c', { eventCount: 20 }) }).data;
    expect(ids(twice)).toEqual([['c', 'b', 'a']]);
    expect(twice?.pages[0].sessions[0].eventCount).toBe(20);
  });

  it('removes a deleted session and asks for the counters', () => {
    const merged = mergeLiveChange(pages([session('b'), session('a')]), all, { kind: 'deleted', id: 'b' });
    expect(ids(merged.data)).toEqual([['a']]);
    expect(merged.refetch).toBe(true);
  });

  it('leaves a new session to the server where a search, filter or sort decides its place', () => {
    const data = pages([session('b')]);
    for (const query of [
      { ...all, search: 'de-DE' },
      { ...all, filters: { country: 'DE' } },
      { ...all, filters: { sort: 'longest' as const } },
    ]) {
      const merged = mergeLiveChange(data, query, { kind: 'session', session: session('c') });
      expect(merged.data).toBe(data);
      expect(merged.refetch).toBe(true);
    }
  });

  it('follows the type filter: a bot is not added to the humans, a session judged a bot leaves it', () => {
    const humans: SessionsQuery = { ...all, type: 'human' };
    const data = pages([session('b'), session('a')]);
    expect(ids(mergeLiveChange(data, humans, { kind: 'session', session: session('c', { isBot: true }) }).data)).toEqual([['b', 'a']]);
    expect(ids(mergeLiveChange(data, humans, { kind: 'session', session: session('c') }).data)).toEqual([['c', 'b', 'a']]);
    const judged = mergeLiveChange(data, humans, { kind: 'session', session: session('a', { isBot: true, botReason: 'No human input' }) });
    expect(ids(judged.data)).toEqual([['b']]);
    expect(judged.refetch).toBe(true);
  });

  it('keeps a list not loaded yet as it is', () => {
    expect(mergeLiveChange(undefined, all, { kind: 'session', session: session('c') })).toEqual({ data: undefined, refetch: false });
  });

  it('reads only the messages of the contract', () => {
    expect(parseLiveMessage('session', JSON.stringify(session('x')))).toEqual({ kind: 'session', session: session('x') });
    expect(parseLiveMessage('deleted', '{"id":"x"}')).toEqual({ kind: 'deleted', id: 'x' });
    expect(parseLiveMessage('session', 'not json')).toBeNull();
    expect(parseLiveMessage('deleted', '{"sessionId":"x"}')).toBeNull();
    expect(parseLiveMessage('other', '{"id":"x"}')).toBeNull();
  });
});
