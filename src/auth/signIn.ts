import { googleLoginUrl } from '../api/auth.js';
import { peekOrigin } from './returnTo.js';

/**
 * Starts the provider's sign-in; the callback page brings the user back to `returnTo`, or else to
 * the remembered page.
 */
export function startSignIn(returnTo?: string): void {
  window.location.assign(googleLoginUrl(returnTo ?? peekOrigin()));
}
