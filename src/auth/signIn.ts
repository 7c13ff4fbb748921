import { googleLoginUrl } from '../api/auth.js';
import { DEFAULT_AFTER_SIGN_IN, safePath } from './returnTo.js';

/** Starts the provider's sign-in; the callback page brings the user back to `returnTo` (a path of this app). */
export function startSignIn(returnTo?: string): void {
  window.location.assign(googleLoginUrl(safePath(returnTo) ?? DEFAULT_AFTER_SIGN_IN));
}
