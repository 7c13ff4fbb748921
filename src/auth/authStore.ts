import type { User } from '../../common/api-types.js';

// The auth state machine, free of React so it can be tested and used by the router: the user (or
// none), isAuthenticated, and isLoading (true until the first check is done).

export const AUTH_RECHECK_MS = 5 * 60 * 1000;

export interface AuthState {
  user: User | null;
  isAuthenticated: boolean;
  isLoading: boolean;
}

export interface AuthCalls {
  me(): Promise<User>;
  logout(): Promise<void>;
  refresh(): Promise<void>;
}

export interface AuthStoreOptions {
  now?: () => number;
  /** Called after a failed check (the app sends the user to / from protected pages). */
  onCheckFailed?: (error: unknown) => void;
  /** Whether a failed check signs the user out; the offline layer keeps the user on network errors. */
  signsOut?: (error: unknown) => boolean;
  /** When a failed check does not sign out: the user this device remembers (offline start-up). */
  offlineUser?: () => Promise<User | null>;
}

export type AuthStore = ReturnType<typeof createAuthStore>;

export function createAuthStore(calls: AuthCalls, initialOptions: AuthStoreOptions = {}) {
  const options = { ...initialOptions };
  const now = options.now ?? Date.now;
  let state: AuthState = { user: null, isAuthenticated: false, isLoading: true };
  let checkInFlight: Promise<AuthState> | null = null;
  let lastCheckAt = Number.NEGATIVE_INFINITY;
  const listeners = new Set<() => void>();
  const logoutListeners = new Set<(user: User | null) => void | Promise<void>>();

  const set = (next: Partial<AuthState>) => {
    state = { ...state, ...next };
    listeners.forEach((listener) => listener());
  };

  /** Checks the current user, unless one check is running or a recent one already signed in. */
  function checkAuth(): Promise<AuthState> {
    if (checkInFlight) return checkInFlight;
    if (state.isAuthenticated && now() - lastCheckAt < AUTH_RECHECK_MS) return Promise.resolve(state);
    lastCheckAt = now();
    checkInFlight = calls
      .me()
      .then((user) => set({ user, isAuthenticated: true, isLoading: false }))
      .catch(async (error: unknown) => {
        if (options.signsOut?.(error) ?? true) set({ user: null, isAuthenticated: false, isLoading: false });
        else {
          // Offline is not signed out: keep the user, or the one remembered on this device.
          const user = state.user ?? (await options.offlineUser?.().catch(() => null)) ?? null;
          set({ user, isAuthenticated: user !== null, isLoading: false });
        }
        options.onCheckFailed?.(error);
      })
      .then(() => state)
      .finally(() => {
        checkInFlight = null;
      });
    return checkInFlight;
  }

  return {
    getState: () => state,
    /** Set hooks after creation (the app wires navigation once the router exists). */
    configure(next: Omit<AuthStoreOptions, 'now'>) {
      Object.assign(options, next);
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    checkAuth,
    /** Resolves once the first check is done (or at once when it is). */
    whenResolved(): Promise<AuthState> {
      return state.isLoading ? checkAuth() : Promise.resolve(state);
    },
    login(user: User) {
      lastCheckAt = now();
      set({ user, isAuthenticated: true, isLoading: false });
    },
    /** Calls the server, then clears the user even when that call failed (the failure is only logged). */
    async logout() {
      const user = state.user;
      try {
        await calls.logout();
      } catch (error) {
        console.error('Logout failed', error);
      }
      set({ user: null, isAuthenticated: false, isLoading: false });
      lastCheckAt = Number.NEGATIVE_INFINITY;
      for (const listener of logoutListeners) {
        await Promise.resolve(listener(user)).catch((error: unknown) => console.error('Logout cleanup failed', error));
      }
    },
    /** Forgets the user locally (the server already refused the session). */
    clear() {
      set({ user: null, isAuthenticated: false, isLoading: false });
      lastCheckAt = Number.NEGATIVE_INFINITY;
    },
    /** Refreshes the tokens, then re-fetches the user; a failed re-fetch still counts as success. */
    async refreshToken(): Promise<boolean> {
      try {
        await calls.refresh();
      } catch {
        return false;
      }
      try {
        set({ user: await calls.me(), isAuthenticated: true, isLoading: false });
        lastCheckAt = now();
      } catch {
        // The refresh itself worked; the user stays as it was.
      }
      return true;
    },
    /** Work to do when a user logs out (clear caches, wipe offline data). */
    onLogout(listener: (user: User | null) => void | Promise<void>) {
      logoutListeners.add(listener);
      return () => logoutListeners.delete(listener);
    },
  };
}
