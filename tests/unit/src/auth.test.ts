import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../../../src/api/client.js';
import { createTokenValidator, RATE_LIMITED } from '../../../src/api/auth.js';
import { AUTH_RECHECK_MS, createAuthStore } from '../../../src/auth/authStore.js';
import type { User } from '../../../common/api-types.js';

const ada: User = { id: 'u1', name: 'Ada', email: 'ada@example.test', picture: null };

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('auth store', () => {
  it('starts loading, then a successful check signs in and a failed one signs out', async () => {
    const store = createAuthStore({ me: async () => ada, logout: async () => {}, refresh: async () => {} });
    expect(store.getState()).toEqual({ user: null, isAuthenticated: false, isLoading: true });
    await store.checkAuth();
    expect(store.getState()).toEqual({ user: ada, isAuthenticated: true, isLoading: false });

    const failing = createAuthStore({ me: () => Promise.reject(new Error('HTTP error! status: 401')), logout: async () => {}, refresh: async () => {} });
    const onCheckFailed = vi.fn();
    failing.configure({ onCheckFailed });
    await failing.checkAuth();
    expect(failing.getState()).toEqual({ user: null, isAuthenticated: false, isLoading: false });
    expect(onCheckFailed).toHaveBeenCalledTimes(1);
  });

  it('skips a check while one is in progress, and within 5 minutes when signed in', async () => {
    const time = clock();
    const me = vi.fn(async () => ada);
    const store = createAuthStore({ me, logout: async () => {}, refresh: async () => {} }, { now: time.now });
    await Promise.all([store.checkAuth(), store.checkAuth(), store.checkAuth()]);
    expect(me).toHaveBeenCalledTimes(1);
    time.advance(AUTH_RECHECK_MS - 1);
    await store.checkAuth();
    expect(me).toHaveBeenCalledTimes(1);
    time.advance(1);
    await store.checkAuth();
    expect(me).toHaveBeenCalledTimes(2);
  });

  it('checks again at once when the last check left the user signed out', async () => {
    const me = vi.fn().mockRejectedValueOnce(new Error('401')).mockResolvedValueOnce(ada);
    const store = createAuthStore({ me, logout: async () => {}, refresh: async () => {} });
    await store.checkAuth();
    await store.checkAuth();
    expect(me).toHaveBeenCalledTimes(2);
    expect(store.getState().user).toEqual(ada);
  });

  it('logout clears the user even when the server call fails (only logged)', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const cleanup = vi.fn();
    const store = createAuthStore({ me: async () => ada, logout: () => Promise.reject(new Error('offline')), refresh: async () => {} });
    store.onLogout(cleanup);
    store.login(ada);
    await store.logout();
    expect(store.getState()).toEqual({ user: null, isAuthenticated: false, isLoading: false });
    expect(error).toHaveBeenCalled();
    expect(cleanup).toHaveBeenCalledWith(ada);
    error.mockRestore();
  });

  it('a refresh that works reports success even when re-fetching the user fails', async () => {
    const store = createAuthStore({ me: () => Promise.reject(new Error('boom')), logout: async () => {}, refresh: async () => {} });
    await expect(store.refreshToken()).resolves.toBe(true);
    const failing = createAuthStore({ me: async () => ada, logout: async () => {}, refresh: () => Promise.reject(new Error('401')) });
    await expect(failing.refreshToken()).resolves.toBe(false);
  });
});

describe('token validation', () => {
  it("skips calls within 1 s with 'Rate limited' and reuses a pending call", async () => {
    const time = clock();
    let answer!: (r: Response) => void;
    const fetchFn = vi.fn(() => new Promise<Response>((resolve) => (answer = resolve)));
    const client = createApiClient({ fetch: fetchFn as unknown as typeof fetch });
    const validate = createTokenValidator(client, time.now);
    const first = validate();
    const second = validate();
    expect(second).toBe(first);
    answer(new Response(JSON.stringify({ valid: true }), { status: 200 }));
    await expect(first).resolves.toEqual({ valid: true });
    expect(fetchFn).toHaveBeenCalledTimes(1);

    time.advance(999);
    await expect(validate()).resolves.toEqual({ valid: false, error: RATE_LIMITED });
    expect(fetchFn).toHaveBeenCalledTimes(1);

    time.advance(1);
    const third = validate();
    answer(new Response(JSON.stringify({ valid: false, error: 'expired' }), { status: 200 }));
    await expect(third).resolves.toEqual({ valid: false, error: 'expired' });
    expect(fetchFn).toHaveBeenCalledTimes(2);
  });
});
