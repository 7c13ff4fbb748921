import { createFileRoute } from '@tanstack/react-router';
import { campaignsQueryOptions, loaderScriptQueryOptions } from '../../api/campaigns.js';
import { Dashboard } from '../../screens/Dashboard.js';

export const Route = createFileRoute('/_authed/dashboard')({
  // Start both fetches with the route; the screen shows its own skeleton and error box.
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(campaignsQueryOptions());
    void context.queryClient.prefetchQuery(loaderScriptQueryOptions());
  },
  component: Dashboard,
});
