/** The navigation bar's links; other screens (e.g. saved replays) add theirs here. */
export const NAV_LINKS: { to: string; label: string }[] = [
  { to: '/', label: 'Home' },
  { to: '/dashboard', label: 'Dashboard' },
  { to: '/createCampaign', label: 'Create Campaign' },
  { to: '/saved', label: 'Saved replays' },
];
