import { Outlet, createFileRoute, redirect } from '@tanstack/react-router';
import { rememberOrigin } from '../auth/returnTo.js';
import { Spinner } from '../components/Spinner.js';

// Every login-required screen lives under this pathless layout: it waits for the auth check
// (showing 'Loading...'), then sends signed-out users to / remembering where they were going.
export const Route = createFileRoute('/_authed')({
  beforeLoad: async ({ context, location }) => {
    // checkAuth skips itself while a check runs or when a signed-in check is under 5 minutes old.
    const state = await context.auth.checkAuth();
    if (!state.isAuthenticated) {
      rememberOrigin(location.href);
      throw redirect({ to: '/', replace: true });
    }
  },
  pendingComponent: () => <Spinner label="Loading..." />,
  pendingMs: 0,
  pendingMinMs: 0,
  component: Outlet,
});
