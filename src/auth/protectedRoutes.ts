import type { AnyRouter } from '@tanstack/react-router';

// "Login required" is decided by the route tree: every such screen sits under the pathless
// `_authed` layout, so a new screen placed there is protected with no list to keep in step.

/** The id of the pathless layout of login-required screens (src/routes/_authed.tsx). */
export const AUTHED_LAYOUT_ID = '/_authed';

export function isProtectedPath(router: AnyRouter, pathname: string): boolean {
  // The same routes the router matches, so this agrees with where `_authed`'s beforeLoad runs.
  const [matchedRoutes] = router.getMatchedRoutes(pathname);
  return matchedRoutes.some((route) => route.id === AUTHED_LAYOUT_ID);
}
