import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiClient, REFRESHED_AT_KEY, UNAUTHORIZED_MESSAGE } from '../../../src/api/client.js';
import { API_PATHS } from '../../../src/api/paths.js';

// Two API clients on one page stand for two tabs: they share cookies (the scripted server's state),
// localStorage and — when the browser has them — Web Locks.

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** A first-come, first-served exclusive lock per name, as navigator.locks.request grants them. */
function installWebLocks(): void {
  const tails = new Map<string, Promise<unknown>>();
  const locks = {
    request<T>(name: string, callback: (lock: { name: string; mode: 'exclusive' }) => Promise<T>): Promise<T> {
      const granted = (tails.get(name) ?? Promise.resolve()).then(() => callback({ name, mode: 'exclusive' }));
      tails.set(
        name,
        granted.catch(() => undefined),
      );
      return granted;
    },
  };
  Object.defineProperty(navigator, 'locks', { value: locks, configurable: true });
}

/** A server whose access cookie expired: every call is 401 until one refresh succeeds. */
function expiredSession(refreshStatus = 200) {
  let fresh = false;
  let refreshes = 0;
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const fetchFn = vi.fn(async (input: RequestInfo | URL) => {
    const path = String(input);
    if (path === API_PATHS.refresh) {
      refreshes++;
      await gate;
      if (refreshStatus !== 200) return json(refreshStatus, { error: 'Unauthorized' });
      fresh = true;
      return json(200, { ok: true });
    }
    return fresh ? json(200, { path }) : json(401, { error: 'Unauthorized' });
  });
  return { fetch: fetchFn as unknown as typeof fetch, refreshes: () => refreshes, open: () => open() };
}

describe('one refresh shared across tabs', () => {
  afterEach(() => {
    delete (navigator as { locks?: unknown }).locks;
    localStorage.clear();
  });

  it('with Web Locks, two tabs that hit a 401 at once refresh once, and both calls succeed', async () => {
    installWebLocks();
    const server = expiredSession();
    const tabA = createApiClient({ fetch: server.fetch, onUnauthorized: vi.fn() });
    const tabB = createApiClient({ fetch: server.fetch, onUnauthorized: vi.fn() });
    const calls = Promise.all([tabA.get('/api/v1/auth/me'), tabB.get('/api/v1/campaign/getAll')]);
    await vi.waitFor(() => expect(server.refreshes()).toBe(1));
    server.open();
    await expect(calls).resolves.toEqual([{ path: '/api/v1/auth/me' }, { path: '/api/v1/campaign/getAll' }]);
    expect(server.refreshes()).toBe(1);
    expect(Number(localStorage.getItem(REFRESHED_AT_KEY))).toBeGreaterThan(0);
  });

  it('a tab whose lock holder failed to refresh tries its own refresh, then signs out', async () => {
    installWebLocks();
    const server = expiredSession(401);
    const away = vi.fn();
    const tabA = createApiClient({ fetch: server.fetch, onUnauthorized: away });
    const tabB = createApiClient({ fetch: server.fetch, onUnauthorized: away });
    const calls = Promise.allSettled([tabA.get('/a'), tabB.get('/b')]);
    server.open();
    const results = await calls;
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    for (const result of results) expect((result as PromiseRejectedResult).reason.message).toBe(UNAUTHORIZED_MESSAGE);
    expect(server.refreshes()).toBe(2);
    expect(away).toHaveBeenCalledTimes(2);
  });

  it('without Web Locks each tab refreshes on its own, as before', async () => {
    Object.defineProperty(navigator, 'locks', { value: undefined, configurable: true });
    const server = expiredSession();
    const tabA = createApiClient({ fetch: server.fetch });
    const tabB = createApiClient({ fetch: server.fetch });
    const calls = Promise.all([tabA.get('/a'), tabB.get('/b')]);
    await vi.waitFor(() => expect(server.refreshes()).toBe(2));
    server.open();
    await expect(calls).resolves.toEqual([{ path: '/a' }, { path: '/b' }]);
  });
});
