import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { createApiClient, UnauthorizedError } from '../../../src/api/client.js';
import { createTokenValidator, RATE_LIMITED } from '../../../src/api/auth.js';
import { ME_QUERY_KEY, SIGNED_IN_RECHECK_MS, ensureSignedInUser, logout, onLogout, signedIn, type SignedInCalls } from '../../../src/auth/session.js';
import type { User } from '../../../common/api-types.js';

const ada: User = { id: 'u1', name: 'Ada', email: 'ada@example.test', picture: null };

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

const nobody = () => Promise.reject(new UnauthorizedError());
const calls = (me: () => Promise<User>, offlineUser: () => Promise<User | null> = async () => null): SignedInCalls => ({ me, offlineUser });
const freshClient = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });

describe('who is signed in (the auth/me query)', () => {
  afterEach(() => vi.useRealTimers());

  it("is the server's user, or nobody when the server refuses the session", async () => {
    expect(
      await ensureSignedInUser(
        freshClient(),
        calls(async () => ada),
      ),
    ).toEqual(ada);
    expect(await ensureSignedInUser(freshClient(), calls(nobody))).toBeNull();
  });

  it('asks the server once for checks made together, and again only after 5 minutes signed in', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const client = freshClient();
    const me = vi.fn(async () => ada);
    await Promise.all([ensureSignedInUser(client, calls(me)), ensureSignedInUser(client, calls(me)), ensureSignedInUser(client, calls(me))]);
    expect(me).toHaveBeenCalledTimes(1);
    vi.setSystemTime(Date.now() + SIGNED_IN_RECHECK_MS - 1);
    expect(await ensureSignedInUser(client, calls(me))).toEqual(ada);
    expect(me).toHaveBeenCalledTimes(1);
    vi.setSystemTime(Date.now() + 2);
    // A stale user is used at once and checked behind it.
    expect(await ensureSignedInUser(client, calls(me))).toEqual(ada);
    await vi.waitFor(() => expect(me).toHaveBeenCalledTimes(2));
  });

  it('asks again at once when the last answer was nobody (someone may have signed in since)', async () => {
    const client = freshClient();
    const me = vi.fn<() => Promise<User>>().mockRejectedValueOnce(new UnauthorizedError()).mockResolvedValueOnce(ada);
    expect(await ensureSignedInUser(client, calls(me))).toBeNull();
    expect(await ensureSignedInUser(client, calls(me))).toEqual(ada);
    expect(me).toHaveBeenCalledTimes(2);
  });

  it("the sign-in callback's user wins over a check that was still running", async () => {
    const client = freshClient();
    let answer!: (user: User) => void;
    const me = () => new Promise<User>((_, reject) => (answer = () => reject(new UnauthorizedError())));
    const running = ensureSignedInUser(client, calls(me)).catch(() => undefined);
    await signedIn(ada, client);
    answer(ada);
    await running;
    expect(client.getQueryData(ME_QUERY_KEY)).toEqual(ada);
  });

  it('logout forgets the user even when the server call fails (only logged), and runs the cleanup with that user', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const client = freshClient();
    await signedIn(ada, client);
    const cleanup = vi.fn(() => client.clear());
    const stop = onLogout(cleanup);
    await logout(client, () => Promise.reject(new Error('offline')));
    stop();
    expect(client.getQueryData(ME_QUERY_KEY)).toBeNull();
    expect(error).toHaveBeenCalled();
    expect(cleanup).toHaveBeenCalledWith(ada);
    error.mockRestore();
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
