import { describe, expect, it } from 'vitest';
import { normalizeSessionsResponse, sessionsErrorMessage } from '../../../src/api/sessions.js';
import { HttpError } from '../../../src/api/client.js';
import { replayErrorMessage } from '../../../src/api/replay.js';

const s = (id: string, webdriver = false) => ({ sessionId: id, webdriver }) as never;

describe('sessions response shapes (spec §3)', () => {
  it('takes the paged answer as it is', () => {
    const body = { sessions: [s('a')], nextCursor: 'n1', counts: { total: 10, human: 7, bot: 3 } };
    expect(normalizeSessionsResponse(body)).toEqual(body);
  });
  it('accepts a bare array, {data} and a single object, counting bots by webdriver', () => {
    expect(normalizeSessionsResponse([s('a'), s('b', true)]).counts).toEqual({ total: 2, human: 1, bot: 1 });
    expect(normalizeSessionsResponse({ data: [s('a')] }).sessions).toHaveLength(1);
    expect(normalizeSessionsResponse(s('solo')).sessions).toEqual([s('solo')]);
    expect(normalizeSessionsResponse(null).sessions).toEqual([]);
  });
});

describe('error texts (spec §8)', () => {
  it('sessions', () => {
    expect(sessionsErrorMessage(new HttpError(500, 'Internal Server Error', null))).toBe('Error: 500 Internal Server Error');
    expect(sessionsErrorMessage(new TypeError('Failed to fetch'))).toBe('Failed to fetch sessions');
  });
  it('replay, by status', () => {
    expect(replayErrorMessage(new HttpError(401, '', null))).toBe('Authentication failed. Please log in again.');
    expect(replayErrorMessage(new HttpError(403, '', null))).toBe('You do not have permission to access this session.');
    expect(replayErrorMessage(new HttpError(404, '', null))).toBe('Session not found. It may have been deleted or does not exist.');
    expect(replayErrorMessage(new HttpError(500, '', null))).toBe('HTTP error! status: 500');
    expect(replayErrorMessage(null)).toBe('Failed to load session data');
  });
});
