import { describe, expect, it } from 'vitest';
import { sessionsErrorMessage } from '../../../src/api/sessions.js';
import { HttpError } from '../../../src/api/client.js';
import { replayErrorMessage } from '../../../src/api/replay.js';

describe('error texts', () => {
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
