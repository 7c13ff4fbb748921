import { useSyncExternalStore } from 'react';
import { api } from '../api/client.js';
import { fetchMe, logoutCall } from '../api/auth.js';
import { createAuthStore, type AuthState, type AuthStore } from './authStore.js';

/** The app's one auth store, on the app's API client. */
export const auth: AuthStore = createAuthStore({
  me: () => fetchMe(api),
  logout: () => logoutCall(api),
  refresh: () => api.refresh(),
});

export function useAuth(): AuthState & Pick<AuthStore, 'login' | 'logout' | 'checkAuth'> {
  const state = useSyncExternalStore(auth.subscribe, auth.getState, auth.getState);
  return { ...state, login: auth.login, logout: auth.logout, checkAuth: auth.checkAuth };
}

export type { AuthState, AuthStore };
