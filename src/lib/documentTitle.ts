// The browser tab's (and the installed app's window) title for each screen: "{screen} — Tapedeck",
// so tabs, history and bookmarks say which screen they hold.

const PRODUCT = 'Tapedeck';

/** Screen names by route id (the deepest matched route); ids are the generated route tree's. */
const SCREENS: Record<string, string> = {
  '/_authed/dashboard': 'Campaign Dashboard',
  '/_authed/createCampaign': 'Create Campaign',
  '/_authed/account': 'Account',
  '/_authed/campaign/$campaignId/': 'Campaign Sessions',
  '/_authed/campaign/$campaignId/edit': 'Edit Campaign',
  '/_authed/campaign/$campaignId/insights': 'Campaign Insights',
  '/_authed/campaign/$campaignId/heatmaps': 'Campaign Heatmaps',
  '/_authed/campaign/$campaignId/funnels': 'Campaign Funnels',
  '/_authed/campaign/$campaignId/session/$sessionId': 'Session Replay',
  '/_authed/campaign/$campaignId/people': 'Campaign People',
  '/_authed/campaign/$campaignId/person/$userId': 'Person',
  '/_authed/campaign/$campaignId/alerts': 'Campaign Alerts',
  '/_authed/workspaces/$workspaceId/members': 'Members',
  '/_authed/workspaces/$workspaceId/webhooks': 'Webhooks',
  '/invite/$token': 'Join a workspace',
  '/saved': 'Saved replays',
  '/auth/google/callback': 'Signing in',
  '/privacy': 'Privacy',
  '/terms': 'Terms',
  '/shared/$token': 'Shared Session Replay',
};

export const HOME_TITLE = `${PRODUCT} — session recording and replay`;

/**
 * The title for the deepest matched route: the landing page's own, a screen's name, or
 * 'Page not found' when nothing matched (only the root route, '__root__', is left) or a match
 * ended not found.
 */
export function documentTitle(routeId: string | undefined, notFound = false): string {
  if (routeId === '/' && !notFound) return HOME_TITLE;
  const screen = notFound || !routeId ? undefined : SCREENS[routeId];
  return `${screen ?? 'Page not found'} — ${PRODUCT}`;
}
