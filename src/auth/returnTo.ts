// Remembers the login-required page a signed-out user tried to open, so that sign-in returns
// there instead of to the dashboard.

import { DEFAULT_RETURN_PATH, safeReturnPath } from '../../common/return-path.js';

const KEY = 'tapedeck.returnTo';
export const DEFAULT_AFTER_SIGN_IN = DEFAULT_RETURN_PATH;

export function rememberOrigin(href: string): void {
  try {
    sessionStorage.setItem(KEY, href);
  } catch {
    // Storage may be unavailable (private mode); sign-in then lands on the dashboard.
  }
}

/** Only paths of this app are returned to, never another origin (the rule the server applies too). */
export const safePath = safeReturnPath;

/** Whether a signed-out user was just sent here from a login-required page. */
export function hasRememberedOrigin(): boolean {
  try {
    return safePath(sessionStorage.getItem(KEY)) !== null;
  } catch {
    return false;
  }
}

export function peekOrigin(): string {
  try {
    return safePath(sessionStorage.getItem(KEY)) ?? DEFAULT_AFTER_SIGN_IN;
  } catch {
    return DEFAULT_AFTER_SIGN_IN;
  }
}

export function takeOrigin(): string {
  const origin = peekOrigin();
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // ignore
  }
  return origin;
}
