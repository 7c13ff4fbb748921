import { googleLoginUrl } from '../api/auth.js';
import { peekOrigin } from './returnTo.js';

/** Starts the provider's sign-in; the callback page brings the user back to the remembered page. */
export function startSignIn(): void {
  window.location.assign(googleLoginUrl(peekOrigin()));
}
