// The one rule for where sign-in may send a user back to, used by the server (the returnTo it
// keeps through the provider's round trip) and the PWA (the page a signed-out user was sent from).

/** Where sign-in lands when there is no safe path to return to. */
export const DEFAULT_RETURN_PATH = '/dashboard';
export const MAX_RETURN_PATH_LENGTH = 1000;

/**
 * The path itself when it is a path of this app, else null. Browsers read `//host`, `/\host` and
 * `\\host` as another origin, so a leading double slash and any backslash are refused (no open
 * redirect), and so are control characters (a tab or newline inside `/\t/host` is dropped by URL
 * parsing). Long paths are cut to MAX_RETURN_PATH_LENGTH.
 */
export function safeReturnPath(value: string | null | undefined): string | null {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\') || /[\u0000-\u001f\u007f]/.test(value)) return null;
  return value.slice(0, MAX_RETURN_PATH_LENGTH);
}
