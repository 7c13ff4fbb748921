import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { User } from '../../common/api-types.js';
import { fetchMe, logoutCall } from '../api/auth.js';
import { api, HttpError } from '../api/client.js';
import { queryClient as appQueryClient } from '../api/queryClient.js';
import { cachedUser } from '../offline/cachedUser.js';
import { isNetworkError } from '../offline/network.js';

// Who is signed in is one query: ['auth', 'me'] holds the user, or null when nobody is. The
// router's `_authed` layout ensures it before any login-required screen; screens read it with
// useAuth(). Offline is not signed out: with no network the last user this device confirmed
// stays signed in; only the server (a 401, or any answer refusing the user) signs out.

export const ME_QUERY_KEY = ['auth', 'me'] as const;
/** A signed-in answer is trusted this long before the server is asked again. */
export const SIGNED_IN_RECHECK_MS = 5 * 60 * 1000;

export interface SignedInCalls {
  me(): Promise<User>;
  /** The user this device remembers (for starting offline). */
  offlineUser(): Promise<User | null>;
}

const appCalls: SignedInCalls = { me: () => fetchMe(api), offlineUser: cachedUser };

/**
 * The server's answer. Only a refusal (401, a failed refresh) signs out: when the network failed,
 * or the server was busy or failing (429, 5xx), the user already known stays (offline start-up).
 */
export async function signedInUser(calls: SignedInCalls, known: User | null | undefined): Promise<User | null> {
  try {
    return await calls.me();
  } catch (error) {
    if (!isNetworkError(error) && !isServerTrouble(error)) return null;
    return known ?? (await calls.offlineUser().catch(() => null));
  }
}

const isServerTrouble = (error: unknown) => error instanceof HttpError && (error.status === 429 || error.status >= 500);

export function meQueryOptions(calls: SignedInCalls = appCalls) {
  return queryOptions({
    queryKey: ME_QUERY_KEY,
    queryFn: ({ client }) => signedInUser(calls, client.getQueryData<User | null>(ME_QUERY_KEY)),
    // "Nobody" is never trusted for long: someone may have signed in since (another tab).
    staleTime: (query) => (query.state.data ? SIGNED_IN_RECHECK_MS : 0),
    retry: false,
    // Runs offline too: that is how an offline start finds the remembered user.
    networkMode: 'always',
  });
}

/** The signed-in user, checking with the server when the answer is missing (stale ones are re-checked behind). */
export function ensureSignedInUser(client: QueryClient = appQueryClient, calls?: SignedInCalls): Promise<User | null> {
  const options = meQueryOptions(calls);
  // Known to be nobody: ask again before sending the user away.
  if (client.getQueryData(options.queryKey) === null) return client.fetchQuery(options);
  return client.ensureQueryData({ ...options, revalidateIfStale: true });
}

/** After the sign-in callback: the server has just said who this is. */
export async function signedIn(user: User, client: QueryClient = appQueryClient): Promise<void> {
  // A check started before the sign-in finished would answer "nobody" over this user, and its
  // failed refresh would sign the user out again.
  api.signedIn();
  await client.cancelQueries({ queryKey: ME_QUERY_KEY });
  client.setQueryData(ME_QUERY_KEY, user);
}

/** The server refused the session (a failed refresh): nobody is signed in on this tab. */
export function signedOut(client: QueryClient = appQueryClient): void {
  client.setQueryData(ME_QUERY_KEY, null);
}

type SignOutListener = (user: User | null) => void | Promise<void>;
const signOutListeners = new Set<SignOutListener>();

/** Work to do when the user logs out (empty caches, wipe offline data). */
export function onLogout(listener: SignOutListener): () => void {
  signOutListeners.add(listener);
  return () => signOutListeners.delete(listener);
}

/** Tells the server, then forgets the user even when that call failed (the failure is only logged). */
export async function logout(client: QueryClient = appQueryClient, call: () => Promise<void> = () => logoutCall(api)): Promise<void> {
  const user = client.getQueryData<User | null>(ME_QUERY_KEY) ?? null;
  try {
    await call();
  } catch (error) {
    console.error('Logout failed', error);
  }
  signedOut(client);
  for (const listener of signOutListeners) {
    await Promise.resolve(listener(user)).catch((error: unknown) => console.error('Logout cleanup failed', error));
  }
  // After the cleanup (which may empty the cache), the answer stays "nobody".
  signedOut(client);
}

export interface AuthState {
  user: User | null;
  isAuthenticated: boolean;
  /** True until the first answer (server or device) is known. */
  isLoading: boolean;
}

export function useAuth(): AuthState {
  const { data, isPending } = useQuery(meQueryOptions());
  const user = data ?? null;
  return { user, isAuthenticated: user !== null, isLoading: isPending };
}
