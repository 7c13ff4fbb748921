import { Outlet, createFileRoute, redirect } from '@tanstack/react-router';
import { ensureSignedInUser } from '../auth/session.js';
import { Spinner } from '../components/Spinner.js';

// Every login-required screen lives under this pathless layout: it waits for the signed-in user
// (showing 'Loading...'), then sends signed-out users to / with where they were going in the URL.
export const Route = createFileRoute('/_authed')({
  beforeLoad: async ({ context, location }) => {
    // A known answer is used at once; one older than 5 minutes is re-checked behind it.
    const user = await ensureSignedInUser(context.queryClient);
    if (!user) throw redirect({ to: '/', search: { returnTo: location.href }, replace: true });
  },
  pendingComponent: () => <Spinner label="Loading..." />,
  pendingMs: 0,
  pendingMinMs: 0,
  component: Outlet,
  // The 'Loading...' view stays in the first load (the other screens' loading views are split,
  // vite.config.ts): every signed-in page shows it first, and fetched as a chunk of its own it held
  // the replay's first frame back by about 250 ms (bench: Opening a replay, 857 → 634 ms).
  codeSplitGroupings: [['loader'], ['errorComponent'], ['notFoundComponent']],
});
