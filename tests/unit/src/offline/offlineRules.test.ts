import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiClient, HttpError, UnauthorizedError } from '../../../../src/api/client.js';
import { signedInUser } from '../../../../src/auth/session.js';
import { OFFLINE_WRITE_MESSAGE, OfflineWriteError } from '../../../../src/offline/network.js';
import { offlineBannerText } from '../../../../src/offline/OfflineLayer.js';
import { timeAgo } from '../../../../src/offline/timeAgo.js';
import { formatBytes } from '../../../../src/lib/format.js';
import { cachedUser, forgetUser, rememberUser } from '../../../../src/offline/cachedUser.js';
import type { User } from '../../../../common/api-types.js';
import { freshDevice } from './reset.js';

const ada: User = { id: 'u1', name: 'Ada', email: 'ada@example.test', picture: null };
const setOnline = (online: boolean) => vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(online);

beforeEach(freshDevice);
afterEach(() => vi.restoreAllMocks());

describe('writes while offline', () => {
  it('are refused before anything is sent when the browser knows it is offline', async () => {
    setOnline(false);
    const sent: string[] = [];
    const client = createApiClient({ fetch: async (url) => (sent.push(String(url)), new Response('{}')) });
    await expect(client.post('/api/v1/campaign/create', { name: 'x' })).rejects.toThrow(OFFLINE_WRITE_MESSAGE);
    await expect(client.delete('/api/v1/campaign/delete/c1')).rejects.toBeInstanceOf(OfflineWriteError);
    expect(sent).toEqual([]);
    // Reads still go out (the service worker may answer them from the device).
    await client.get('/api/v1/campaign/getAll');
    expect(sent).toEqual(['/api/v1/campaign/getAll']);
  });

  it('become the offline message when the network fails mid-way', async () => {
    setOnline(true);
    const client = createApiClient({ fetch: async () => Promise.reject(new TypeError('Failed to fetch')) });
    await expect(client.post('/api/v1/campaign/create', {})).rejects.toThrow(OFFLINE_WRITE_MESSAGE);
  });
});

describe('offline is not signed out', () => {
  const check = (me: () => Promise<User>) => signedInUser({ me, offlineUser: cachedUser }, undefined);

  it('a network error keeps the user this device remembers', async () => {
    await rememberUser(ada);
    expect(await check(() => Promise.reject(new TypeError('Failed to fetch')))).toEqual(ada);
  });

  it('a network error keeps the user already known in this tab', async () => {
    await forgetUser();
    expect(await signedInUser({ me: () => Promise.reject(new TypeError('Failed to fetch')), offlineUser: cachedUser }, ada)).toEqual(ada);
  });

  it('a network error with no remembered user leaves nobody signed in', async () => {
    await forgetUser();
    expect(await check(() => Promise.reject(new TypeError('Failed to fetch')))).toBeNull();
  });

  it('a busy or failing server is not a refusal: the user already known stays signed in', async () => {
    for (const status of [429, 500, 503]) {
      const refused = () => Promise.reject(new HttpError(status, 'Busy', { error: 'busy' }));
      expect(await signedInUser({ me: refused, offlineUser: cachedUser }, ada), String(status)).toEqual(ada);
    }
  });

  it('a refresh cut off by the network keeps the user: it raises the network error and signs nobody out', async () => {
    let signedOut = 0;
    const answers = [new Response('{}', { status: 401 })];
    const client = createApiClient({
      fetch: async (url) => {
        if (String(url).endsWith('/refresh')) throw new TypeError('Failed to fetch');
        return answers.shift() ?? new Response('{}');
      },
      onUnauthorized: () => (signedOut += 1),
    });
    await expect(client.get('/api/v1/auth/me')).rejects.toBeInstanceOf(TypeError);
    expect(signedOut).toBe(0);
  });

  it('a 401 signs out even with a remembered user', async () => {
    await rememberUser(ada);
    expect(await check(() => Promise.reject(new UnauthorizedError()))).toBeNull();
  });
});

describe('banner and figures', () => {
  it('says how old the data is', () => {
    const now = Date.UTC(2026, 0, 1, 12);
    expect(offlineBannerText(now - 10_000, now)).toBe("You're offline — showing data saved just now");
    expect(offlineBannerText(now - 5 * 60_000, now)).toBe("You're offline — showing data saved 5 minutes ago");
    expect(offlineBannerText(now - 60 * 60_000, now)).toBe("You're offline — showing data saved 1 hour ago");
    expect(offlineBannerText(now - 3 * 24 * 3600_000, now)).toBe("You're offline — showing data saved 3 days ago");
    expect(timeAgo(now - 60_000, now)).toBe('1 minute ago');
  });

  it('formats sizes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(250 * 1024 * 1024)).toBe('250 MB');
  });
});
