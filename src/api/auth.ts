import { api as defaultApi, type ApiClient } from './client.js';
import { API_PATHS } from './paths.js';
import type { SignInResponse, User, ValidateTokenResponse } from '../../common/api-types.js';

export const TOKEN_VALIDATION_COOLDOWN_MS = 1000;
export const RATE_LIMITED = 'Rate limited';

export function fetchMe(client: ApiClient = defaultApi): Promise<User> {
  return client.get<User>(API_PATHS.me);
}

export async function logoutCall(client: ApiClient = defaultApi): Promise<void> {
  await client.post(API_PATHS.logout);
}

/** Sends the provider's code (and state) to the server; the answer must hold the user. */
export async function completeGoogleSignIn(code: string, state: string | null, client: ApiClient = defaultApi): Promise<Partial<SignInResponse>> {
  return client.post<Partial<SignInResponse>>(API_PATHS.googleCallback, state ? { code, state } : { code });
}

/** Where the 'Sign in with Google' button sends the browser. */
export function googleLoginUrl(returnTo: string): string {
  return `${API_PATHS.googleLogin}?returnTo=${encodeURIComponent(returnTo)}`;
}

/**
 * Token validation: a call within 1 s of the previous one is skipped with
 * {valid: false, error: 'Rate limited'}; a call while one is pending reuses it.
 */
export function createTokenValidator(client: ApiClient = defaultApi, now: () => number = Date.now) {
  let pending: Promise<ValidateTokenResponse> | null = null;
  let lastCallAt = Number.NEGATIVE_INFINITY;
  return function validateToken(): Promise<ValidateTokenResponse> {
    if (pending) return pending;
    if (now() - lastCallAt < TOKEN_VALIDATION_COOLDOWN_MS) return Promise.resolve({ valid: false, error: RATE_LIMITED });
    lastCallAt = now();
    pending = client
      .get<ValidateTokenResponse>(API_PATHS.validateToken)
      .catch((error: unknown): ValidateTokenResponse => ({ valid: false, error: error instanceof Error ? error.message : String(error) }))
      .finally(() => {
        pending = null;
      });
    return pending;
  };
}

export const validateToken = createTokenValidator();
