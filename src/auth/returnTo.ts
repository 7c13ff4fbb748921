// Remembers the page a signed-out user tried to open, so sign-in can return there (spec §2).

const KEY = 'tapedeck.returnTo';
export const DEFAULT_AFTER_SIGN_IN = '/dashboard';

const PROTECTED = [/^\/dashboard\/?$/, /^\/createCampaign\/?$/, /^\/campaign\/[^/]+(\/session\/[^/]+)?\/?$/];

export function isProtectedPath(pathname: string): boolean {
  return PROTECTED.some((pattern) => pattern.test(pathname));
}

export function rememberOrigin(href: string): void {
  try {
    sessionStorage.setItem(KEY, href);
  } catch {
    // Storage may be unavailable (private mode); sign-in then lands on the dashboard.
  }
}

/** Only same-site paths are returned to, never another origin. */
export function safePath(value: string | null | undefined): string | null {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : null;
}

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
