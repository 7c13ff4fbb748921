// Where a signed-out user was going: carried in the landing page's URL (`/?returnTo=/campaign/…`)
// and through the sign-in, so sign-in returns there instead of to the dashboard. Only paths of
// this app are ever returned to (the same rule the server applies).

import { DEFAULT_RETURN_PATH, safeReturnPath } from '../../common/return-path.js';

export const DEFAULT_AFTER_SIGN_IN = DEFAULT_RETURN_PATH;
export const safePath = safeReturnPath;

export interface LandingSearch {
  returnTo?: string;
}

/** The landing page's search params; an unsafe or missing return path is dropped. */
export function validateLandingSearch(search: Record<string, unknown>): LandingSearch {
  const returnTo = typeof search.returnTo === 'string' ? safeReturnPath(search.returnTo) : null;
  return returnTo ? { returnTo } : {};
}
